/**
 * Reads `git blame --porcelain` into hunks: runs of consecutive lines last changed by the same commit, each
 * with the commit's author, date and summary, and the lines themselves with secrets masked.
 */
import { ToolError } from '../../core/errors.js';
import { maskSecretLines, maskSecrets } from '../../trust/secret-mask.js';
import { gitRaw } from './git-call.js';
import { describeGitFailure } from '../shared/git/run-git.js';
import type { WorkspaceRepository } from './repository.js';

export interface BlameHunk {
  readonly startLine: number;
  readonly endLine: number;
  /** Undefined for lines not committed yet. */
  readonly commit: string | undefined;
  readonly author: string;
  readonly email: string;
  /** ISO 8601, UTC. */
  readonly date: string;
  readonly summary: string;
  /** The commit is a history boundary (the oldest commit of a shallow clone, or a root commit). */
  readonly boundary: boolean;
  readonly lines: readonly string[];
}

export interface Blame {
  readonly hunks: readonly BlameHunk[];
  readonly redactions: number;
}

interface CommitInfo {
  author: string;
  email: string;
  time: number;
  summary: string;
  boundary: boolean;
}

const HEADER = /^([0-9a-f]{40}) (\d+) (\d+)(?: (\d+))?$/;
const UNCOMMITTED = /^0+$/;

function parsePorcelain(output: string): { sha: string; line: number; info: CommitInfo; text: string }[] {
  const infos = new Map<string, CommitInfo>();
  const rows: { sha: string; line: number; info: CommitInfo; text: string }[] = [];
  let sha = '';
  let line = 0;
  for (const raw of output.split('\n')) {
    if (raw.startsWith('\t')) {
      const info = infos.get(sha);
      if (info) rows.push({ sha, line, info, text: raw.slice(1) });
      continue;
    }
    const header = HEADER.exec(raw);
    if (header) {
      sha = header[1] ?? '';
      line = Number(header[3]);
      if (!infos.has(sha)) infos.set(sha, { author: '', email: '', time: 0, summary: '', boundary: false });
      continue;
    }
    const info = infos.get(sha);
    if (!info) continue;
    const space = raw.indexOf(' ');
    const key = space < 0 ? raw : raw.slice(0, space);
    const value = space < 0 ? '' : raw.slice(space + 1);
    if (key === 'author') info.author = value;
    else if (key === 'author-mail') info.email = value.replace(/^<|>$/g, '');
    else if (key === 'author-time') info.time = Number(value);
    else if (key === 'summary') info.summary = maskSecrets(value).text;
    else if (key === 'boundary') info.boundary = true;
  }
  return rows;
}

export interface BlameRequest {
  /** Repository-relative file. */
  readonly relative: string;
  /** A commit; undefined blames the working tree (uncommitted lines have no commit). */
  readonly commit: string | undefined;
  /** 1-based, inclusive. */
  readonly range?: { readonly start: number; readonly end: number };
}

export async function readBlame(
  repo: WorkspaceRepository,
  request: BlameRequest,
  signal: AbortSignal,
): Promise<Blame> {
  const args = [
    'blame',
    '--porcelain',
    ...(request.range ? ['-L', `${request.range.start},${request.range.end}`] : []),
    // blame takes no `--end-of-options` (git 2.39); the commit is a full SHA resolved beforehand, never an option.
    ...(request.commit !== undefined ? [request.commit] : []),
    '--',
    request.relative,
  ];
  const result = await gitRaw(repo, args, { signal });
  if (result.kind === 'failed' && /has only \d+ lines?/.test(result.stderr))
    throw new ToolError(
      'invalid_argument',
      `The line range is past the end of the file: ${describeGitFailure(result)}.`,
    );
  if (result.kind === 'failed' && /no such path|no such file/i.test(result.stderr))
    throw new ToolError(
      'not_found',
      `The file is not in ${request.commit ?? 'the working tree'}: ${describeGitFailure(result)}.`,
    );
  if (result.kind === 'cancelled') throw new ToolError('cancelled', 'The call was cancelled.');
  if (result.kind !== 'ok')
    throw new ToolError('unavailable', `git blame failed: ${describeGitFailure(result)}.`);
  const rows = parsePorcelain(result.stdout.toString('utf8'));
  const masked = maskSecretLines(rows.map((r) => r.text));
  const hunks: (BlameHunk & { endLine: number; lines: string[] })[] = [];
  rows.forEach((row, i) => {
    const text = masked.lines[i] ?? '';
    const last = hunks[hunks.length - 1];
    const commit = UNCOMMITTED.test(row.sha) ? undefined : row.sha;
    if (last && last.commit === commit && last.endLine === row.line - 1) {
      last.endLine = row.line;
      last.lines.push(text);
      return;
    }
    hunks.push({
      startLine: row.line,
      endLine: row.line,
      commit,
      author: row.info.author,
      email: row.info.email,
      date: new Date(row.info.time * 1000).toISOString().replace('.000Z', 'Z'),
      summary: row.info.summary,
      boundary: row.info.boundary,
      lines: [text],
    });
  });
  return { hunks, redactions: masked.redactions };
}
