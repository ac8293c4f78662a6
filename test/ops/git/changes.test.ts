import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTemps } from '../../helpers/engine.js';
import { callTool, closeIndexed, openIndexed, type IndexedClient } from '../../helpers/indexed-client.js';
import { emptyRepo, historyRepo, ODD_NAME, SHAS, shallowClone, TOKEN } from './git-fixture.js';

let history: IndexedClient;
let shallow: IndexedClient;
let empty: IndexedClient;

beforeAll(async () => {
  const source = historyRepo();
  history = await openIndexed(source);
  shallow = await openIndexed(shallowClone(source, 2));
  empty = await openIndexed(emptyRepo());
}, 120_000);
afterAll(async () => {
  await closeIndexed(history, shallow, empty);
  removeTemps();
});

const subjects = (data: Record<string, unknown>): string[] =>
  (data.commits as { subject: string }[]).map((c) => c.subject);

describe('git churn', () => {
  it('ranks files by changes with the kind of each change, merges not counted twice', async () => {
    const answer = await callTool(history, 'file_churn', {});
    expect(answer.isError).toBe(false);
    expect(answer.data).toMatchObject({ commits_counted: 7, total_files: 5, truncated: false });
    expect(answer.data.files).toEqual([
      { path: 'src/order.ts', changes: 3, added: 1, modified: 2, deleted: 0, renamed: 0 },
      { path: ODD_NAME, changes: 2, added: 1, modified: 1, deleted: 0, renamed: 0 },
      { path: 'src/util.ts', changes: 2, added: 1, modified: 1, deleted: 0, renamed: 0 },
      { path: 'src/audit.ts', changes: 1, added: 1, modified: 0, deleted: 0, renamed: 0 },
      { path: 'src/helpers.ts', changes: 1, added: 0, modified: 0, deleted: 0, renamed: 1 },
    ]);
  });

  it('counts a window of the newest commits and pages with a cursor', async () => {
    const first = await callTool(history, 'file_churn', { window: 2, limit: 1 });
    expect(first.data).toMatchObject({ commits_counted: 2, total_files: 3 });
    expect(first.data.files).toEqual([
      { path: ODD_NAME, changes: 1, added: 0, modified: 1, deleted: 0, renamed: 0 },
    ]);
    const second = await callTool(history, 'file_churn', {
      window: 2,
      limit: 5,
      cursor: first.data.next_cursor,
    });
    expect((second.data.files as { path: string }[]).map((f) => f.path)).toEqual([
      'src/helpers.ts',
      'src/order.ts',
    ]);
  });

  it('says a shallow clone is truncated', async () => {
    const answer = await callTool(shallow, 'file_churn', {});
    expect(answer.data).toMatchObject({ commits_counted: 2, truncated: true });
  });
});

describe('git search', () => {
  it('matches every word of the pattern in messages', async () => {
    const answer = await callTool(history, 'search_commits', { pattern: 'ADD  refund', field: 'message' });
    expect(subjects(answer.data)).toEqual(['reformat and add refund']);
    const both = await callTool(history, 'search_commits', { pattern: 'add', field: 'message' });
    expect(subjects(both.data)).toEqual(['reformat and add refund', 'add order service']);
  });

  it('searches authors by name or email', async () => {
    const answer = await callTool(history, 'search_commits', { pattern: 'grace', field: 'author' });
    expect(subjects(answer.data)).toEqual(['reformat and add refund']);
    const none = await callTool(history, 'search_commits', { pattern: 'grace', field: 'message' });
    expect(none.data).toMatchObject({ total_matches: 0, commits: [] });
    expect(none.text).toContain('No commit\'s message contains "grace".');
  });

  it('answers a repository without commits', async () => {
    const answer = await callTool(empty, 'search_commits', { pattern: 'x' });
    expect(answer.data).toMatchObject({ total_matches: 0, head: null });
  });
});

describe('git diff', () => {
  it('shows hunks against the working tree with 1-based ranges and masked secrets', async () => {
    const answer = await callTool(history, 'file_diff', { path: 'src/order.ts' });
    expect(answer.isError).toBe(false);
    expect(answer.data).toMatchObject({
      path: 'src/order.ts',
      rev_old: SHAS.refund,
      rev_new: 'working tree',
      present_at_old: true,
      present_at_new: true,
      total_hunks: 1,
    });
    const [hunk] = answer.data.hunks as { old_start: number; new_start: number; lines: string }[];
    expect(hunk).toMatchObject({ old_start: 10, old_lines: 6, new_start: 10, new_lines: 6 });
    expect(answer.text).not.toContain(TOKEN);
    expect(hunk?.lines).not.toContain(TOKEN);
    expect(hunk?.lines).toContain('-    return id;');
  });

  it('compares two revisions, a file absent on the old side', async () => {
    const answer = await callTool(history, 'file_diff', {
      path: 'src/helpers.ts',
      rev_old: SHAS.trim,
      rev_new: SHAS.move,
    });
    expect(answer.data).toMatchObject({ present_at_old: false, present_at_new: true, total_hunks: 1 });
    expect((answer.data.hunks as unknown[])[0]).toMatchObject({
      old_start: 0,
      old_lines: 0,
      new_start: 1,
      new_lines: 3,
    });
  });

  it('diffs a file whose name holds spaces and Unicode', async () => {
    const answer = await callTool(history, 'file_diff', {
      path: ODD_NAME,
      rev_old: SHAS.add,
      rev_new: 'HEAD',
    });
    expect(answer.data.hunks).toEqual([
      {
        old_start: 1,
        old_lines: 1,
        new_start: 1,
        new_lines: 3,
        context: '',
        lines: ' # Read me\n+\n+See the order service.',
      },
    ]);
  });

  it('refuses a revision that reads as an option or names no commit', async () => {
    const option = await callTool(history, 'file_diff', { path: 'src/order.ts', rev_old: '--output=/tmp/x' });
    expect(option.text).toBe(
      '`rev_old` must not start with "-" (git would read it as an option), got "--output=/tmp/x".',
    );
    const missing = await callTool(history, 'file_diff', { path: 'src/order.ts', rev_old: 'nope' });
    expect(missing.text).toBe(
      '`rev_old` "nope" is not a commit in this repository: name a branch, tag or commit SHA (`git recent` lists commits).',
    );
  });
});

type HunkRow = {
  start_line: number;
  end_line: number;
  commit: string | null;
  summary: string;
  lines: string;
};
const blameRows = (data: Record<string, unknown>) =>
  (data.hunks as HunkRow[]).map((h) => [h.start_line, h.end_line, h.commit, h.summary]);

describe('git blame', () => {
  it('groups lines by the commit that last changed them', async () => {
    const answer = await callTool(history, 'blame_lines', {
      path: 'src/order.ts',
      line_start: 2,
      line_end: 5,
    });
    expect(answer.isError).toBe(false);
    expect(blameRows(answer.data)).toEqual([
      [2, 2, SHAS.add, 'add order service'],
      [3, 4, SHAS.refund, 'reformat and add refund'],
      [5, 5, SHAS.tax, 'tax on create'],
    ]);
  });

  it('shows uncommitted lines as such, with secrets masked', async () => {
    const answer = await callTool(history, 'blame_lines', {
      path: 'src/order.ts',
      line_start: 12,
      line_end: 14,
    });
    expect(blameRows(answer.data)).toEqual([
      [12, 12, SHAS.refund, 'reformat and add refund'],
      [13, 13, null, 'Version of src/order.ts from src/order.ts'],
      [14, 14, SHAS.refund, 'reformat and add refund'],
    ]);
    expect(answer.text).not.toContain(TOKEN);
    expect(JSON.stringify(answer.data)).not.toContain(TOKEN);
  });

  it('blames a file as of a revision, and pages hunks with a cursor', async () => {
    const first = await callTool(history, 'blame_lines', { path: 'src/order.ts', rev: SHAS.tax, limit: 1 });
    expect(blameRows(first.data)).toEqual([[1, 2, SHAS.add, 'add order service']]);
    expect(first.data.total_hunks).toBe(3);
    const second = await callTool(history, 'blame_lines', {
      path: 'src/order.ts',
      rev: SHAS.tax,
      limit: 1,
      cursor: first.data.next_cursor,
    });
    expect(blameRows(second.data)).toEqual([[3, 4, SHAS.tax, 'tax on create']]);
  });

  it('blames a file deleted since at a revision that holds it', async () => {
    const old = await callTool(history, 'blame_lines', { path: 'src/util.ts', rev: SHAS.trim });
    expect(blameRows(old.data)).toEqual([
      [1, 1, SHAS.add, 'add order service'],
      [2, 2, SHAS.trim, 'util: trim'],
      [3, 3, SHAS.add, 'add order service'],
    ]);
    const now = await callTool(history, 'blame_lines', { path: 'src/util.ts' });
    expect(now.isError).toBe(true);
    expect(now.text).toContain('The file is not in the working tree');
  });

  it('needs both ends of a line range', async () => {
    const answer = await callTool(history, 'blame_lines', { path: 'src/order.ts', line_start: 2 });
    expect(answer.text).toBe(
      '`line_start` and `line_end` go together: pass both, or neither for the whole file.',
    );
  });

  it('marks the boundary of a shallow clone as truncated', async () => {
    const answer = await callTool(shallow, 'blame_lines', {
      path: 'src/order.ts',
      line_start: 1,
      line_end: 2,
    });
    expect(answer.data).toMatchObject({ truncated: true });
    expect((answer.data.hunks as { boundary?: boolean }[])[0]?.boundary).toBe(true);
  });
});
