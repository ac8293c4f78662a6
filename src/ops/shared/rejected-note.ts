import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SnapshotReader } from '../../index/reader.js';
import { maskedTextContains } from '../../trust/secret-search.js';
import { displayPath, inScope } from './workspace-paths.js';

const NAMED = 20;
/** Only source and config files are worth naming; an image or a lockfile is not a missed answer. */
const SOURCE_LIKE =
  /\.(ts|tsx|js|jsx|mjs|cjs|go|java|kt|kts|py|rs|cs|cc|cpp|cxx|h|hpp|c|rb|php|scala|proto|ya?ml|properties|md)$/i;

export interface RejectedNote {
  readonly markdown: string;
  readonly json: { path: string; reason: string; size: number }[];
}

/**
 * Files in scope that the guard kept out of the index (minified, oversized, binary, unparsable) but that
 * contain the query: the answer names them so the agent can read them directly, instead of silently
 * missing them. With no query, every rejected source file in scope is named.
 */
export function rejectedNote(
  snapshot: SnapshotReader,
  scope: string | undefined,
  query?: string,
): RejectedNote {
  const needle = query?.toLowerCase();
  const matches: { path: string; reason: string; size: number }[] = [];
  for (const file of snapshot.rejected) {
    if (!SOURCE_LIKE.test(file.path)) continue;
    const root = snapshot.roots.find((r) => r.name === file.root);
    if (!root) continue;
    const absolute = path.join(root.path, file.path);
    if (!inScope(absolute, scope)) continue;
    if (needle) {
      try {
        // Matched with secrets masked, so the note never tells whether a masked secret holds the query.
        if (!maskedTextContains(readFileSync(absolute, 'latin1'), needle)) continue;
      } catch {
        continue;
      }
    }
    matches.push({
      path: displayPath(snapshot.roots, file.root, file.path),
      reason: file.reason,
      size: file.size,
    });
  }
  if (matches.length === 0) return { markdown: '', json: [] };
  const lines = matches.slice(0, NAMED).map((m) => `- \`${m.path}\` (${m.reason}, ${m.size} B)`);
  if (matches.length > NAMED) lines.push(`- … and ${matches.length - NAMED} more`);
  const what = needle ? 'contain the query but are not indexed' : 'are not indexed';
  return {
    markdown: `\n> ${matches.length} file(s) in scope ${what} (minified, oversized, binary or unparsable); read them directly:\n${lines.map((l) => `> ${l}`).join('\n')}\n`,
    json: matches,
  };
}
