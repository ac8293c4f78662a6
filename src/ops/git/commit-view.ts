/** How a commit reads in answers: one Markdown line (plus its files), one JSON object, one output schema. */
import { z } from 'zod';
import { maskSecrets } from '../../trust/secret-mask.js';
import type { CommitRecord } from './log-records.js';
import { shortSha, shownPath, type WorkspaceRepository } from './repository.js';

export const changedFileShape = z.looseObject({
  status: z.string().describe('A added, M modified, D deleted, R renamed, C copied, T type changed.'),
  path: z.string(),
  old_path: z.string().optional().describe('The path before a rename or copy.'),
});

export const commitShape = z.looseObject({
  sha: z.string(),
  short_sha: z.string(),
  parents: z.array(z.string()),
  author: z.string(),
  email: z.string(),
  date: z.string().describe('Author date, ISO 8601.'),
  subject: z.string(),
  files: z.array(changedFileShape).optional(),
});

/** Paging and honesty fields every history answer carries. */
export const historyFields = {
  head: z.string().nullable().describe('HEAD the answer was read at; null in a repository without commits.'),
  next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
  truncated: z
    .boolean()
    .describe('True when history ended early: a shallow clone, or the walk bound of 10,000 commits.'),
  truncated_reason: z.string().optional(),
};

export const fileJson = (repo: WorkspaceRepository, file: CommitRecord['files'][number]) => ({
  status: file.status,
  path: shownPath(repo, file.path),
  ...(file.oldPath !== undefined ? { old_path: shownPath(repo, file.oldPath) } : {}),
});

/** A commit's subject as answers show it: a token pasted into a message is masked like one in code. */
export const shownSubject = (subject: string): string => maskSecrets(subject).text;

export function commitJson(repo: WorkspaceRepository, commit: CommitRecord, withFiles: boolean) {
  return {
    sha: commit.sha,
    short_sha: shortSha(commit.sha),
    parents: commit.parents,
    author: commit.author,
    email: commit.email,
    date: commit.date,
    subject: shownSubject(commit.subject),
    ...(withFiles ? { files: commit.files.map((f) => fileJson(repo, f)) } : {}),
  };
}

const oneLine = (text: string): string => text.replace(/[\r\n]+/g, ' ');

export function commitMarkdown(repo: WorkspaceRepository, commit: CommitRecord, withFiles: boolean): string {
  const merge = commit.parents.length > 1 ? ' (merge)' : '';
  const head = `- \`${shortSha(commit.sha)}\` ${commit.date.slice(0, 10)} ${oneLine(commit.author)}: ${oneLine(shownSubject(commit.subject))}${merge}`;
  if (!withFiles || commit.files.length === 0) return head;
  const files = commit.files.map((f) => {
    const from = f.oldPath !== undefined ? `\`${shownPath(repo, f.oldPath)}\` → ` : '';
    return `  - ${f.status} ${from}\`${shownPath(repo, f.path)}\``;
  });
  return [head, ...files].join('\n');
}
