import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import type { RejectedFile, SnapshotReader } from '../../index/reader.js';
import { maskedTextContains } from '../../trust/secret-search.js';
import { displayPath, inScope } from './workspace-paths.js';

const NAMED = 20;
/** Only source and config files are worth naming; an image or a lockfile is not a missed answer. */
const SOURCE_LIKE =
  /\.(ts|tsx|js|jsx|mjs|cjs|go|java|kt|kts|py|rs|cs|cc|cpp|cxx|h|hpp|c|rb|php|scala|proto|ya?ml|properties|md)$/i;
/**
 * The most of a rejected file a query reads. A file the guard rejected for its content (minified, binary,
 * too deep) was within the size limits when it was read (1.5 MB at most); the cap holds even if it has
 * grown since, so a query never reads more than this per file.
 */
const MAX_SEARCHED_BYTES = 2 * 1024 * 1024;

export interface RejectedNote {
  readonly markdown: string;
  readonly json: { path: string; reason: string; size: number }[];
}

type Entry = { path: string; reason: string; size: number };

/**
 * Files in scope that the guard kept out of the index (minified, binary, unparsable) but that contain the
 * query: the answer names them so the agent can read them directly, instead of silently missing them.
 * Oversized files are never read again after their rejection — reading a 200 MB file on every query is what
 * the size limit exists to prevent — so they are named as not searched instead, as are unusable paths. With
 * no query, every rejected source file in scope is named.
 */
export function rejectedNote(
  snapshot: SnapshotReader,
  scope: string | undefined,
  query?: string,
): RejectedNote {
  const needle = query?.toLowerCase();
  const matches: Entry[] = [];
  const unsearched: Entry[] = [];
  for (const file of snapshot.rejected) {
    if (!SOURCE_LIKE.test(file.path)) continue;
    const root = snapshot.roots.find((r) => r.name === file.root);
    if (!root) continue;
    const absolute = path.join(root.path, file.path);
    if (!inScope(absolute, scope)) continue;
    const entry = {
      path: displayPath(snapshot.roots, file.root, file.path),
      reason: file.reason,
      size: file.size,
    };
    if (needle && !searchable(file)) unsearched.push(entry);
    else if (!needle || contains(absolute, needle)) matches.push(entry);
  }
  if (matches.length === 0 && unsearched.length === 0) return { markdown: '', json: [] };
  const what = needle ? 'contain the query but are not indexed' : 'are not indexed';
  const markdown =
    listed(
      matches,
      `file(s) in scope ${what} (minified, oversized, binary or unparsable); read them directly:`,
    ) +
    listed(
      unsearched,
      'file(s) in scope were not searched (too large, or a path the system cannot open); the query may be in them:',
    );
  return { markdown, json: [...matches, ...unsearched] };
}

/**
 * Whether a query may look inside the file: one rejected for its content, yes; one rejected for its size or
 * for a path the system cannot open, never — that read is the cost, or the failure, the rejection avoided.
 */
const searchable = (file: RejectedFile): boolean =>
  file.reason !== 'oversized' && file.reason !== 'unusable_path';

function listed(entries: readonly Entry[], sentence: string): string {
  if (entries.length === 0) return '';
  const lines = entries.slice(0, NAMED).map((m) => `- \`${m.path}\` (${m.reason}, ${m.size} B)`);
  if (entries.length > NAMED) lines.push(`- … and ${entries.length - NAMED} more`);
  return `\n> ${entries.length} ${sentence}\n${lines.map((l) => `> ${l}`).join('\n')}\n`;
}

/** Whether the file's first MAX_SEARCHED_BYTES hold the (lower-case) needle; false when it cannot be read. */
function contains(file: string, needle: string): boolean {
  let fd: number;
  try {
    // Non-blocking, so that a file replaced by a FIFO since its rejection cannot hang the query.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return false;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return false;
    const buffer = Buffer.allocUnsafe(Math.min(stats.size, MAX_SEARCHED_BYTES));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    // Matched with secrets masked, so the note never tells whether a masked secret holds the query.
    return maskedTextContains(buffer.subarray(0, read).toString('latin1'), needle);
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
