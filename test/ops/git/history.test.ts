import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTemps } from '../../helpers/engine.js';
import { callTool, closeIndexed, openIndexed, type IndexedClient } from '../../helpers/indexed-client.js';
import { detachedClone, emptyRepo, historyRepo, ODD_NAME, SHAS, shallowClone } from './git-fixture.js';

let history: IndexedClient;
let shallow: IndexedClient;
let detached: IndexedClient;
let empty: IndexedClient;

beforeAll(async () => {
  const source = historyRepo();
  history = await openIndexed(source);
  shallow = await openIndexed(shallowClone(source, 2));
  detached = await openIndexed(detachedClone(source, SHAS.tax as string));
  empty = await openIndexed(emptyRepo());
}, 120_000);
afterAll(async () => {
  await closeIndexed(history, shallow, detached, empty);
  removeTemps();
});

const subjects = (data: Record<string, unknown>): string[] =>
  (data.commits as { subject: string }[]).map((c) => c.subject);

describe('git status', () => {
  it('lists staged, unstaged and untracked files on the branch', async () => {
    const answer = await callTool(history, 'git_status', {});
    expect(answer.isError).toBe(false);
    expect(answer.data).toMatchObject({
      head: SHAS.refund,
      branch: 'main',
      detached: false,
      clean: false,
      staged: [{ status: 'A', path: 'notes.txt' }],
      unstaged: [{ status: 'M', path: 'src/order.ts' }],
      untracked: [{ status: '?', path: 'scratch.txt' }],
      conflicted: [],
    });
  });

  it('says a detached HEAD is detached', async () => {
    const answer = await callTool(detached, 'git_status', {});
    expect(answer.data).toMatchObject({ head: SHAS.tax, branch: null, detached: true, clean: true });
    expect(answer.text).toContain(`detached HEAD at \`${(SHAS.tax as string).slice(0, 7)}\``);
  });

  it('answers a repository without commits', async () => {
    const answer = await callTool(empty, 'git_status', {});
    expect(answer.data).toMatchObject({
      head: null,
      branch: 'main',
      detached: false,
      clean: false,
      untracked: [{ status: '?', path: 'src/start.ts' }],
    });
  });
});

describe('git recent', () => {
  it('lists the newest commits first, merge and both parents included', async () => {
    const answer = await callTool(history, 'recent_commits', {});
    expect(answer.isError).toBe(false);
    expect(subjects(answer.data)).toEqual([
      'reformat and add refund',
      'move util to helpers',
      "Merge branch 'feature'",
      'util: trim',
      'feature: audit',
      'tax on create',
      'add order service',
    ]);
    expect(answer.data).toMatchObject({ head: SHAS.refund, next_cursor: null, truncated: false });
    const merge = (answer.data.commits as { parents: string[] }[])[2];
    expect(merge?.parents).toEqual([SHAS.trim, SHAS.feature]);
  });

  it('lists files with renames, names with spaces and Unicode as they are', async () => {
    const answer = await callTool(history, 'recent_commits', { limit: 2, include_files: true });
    expect(answer.data.commits).toMatchObject([
      {
        subject: 'reformat and add refund',
        author: 'Grace Hopper',
        date: '2026-01-01T12:07:00+00:00',
        files: [
          { status: 'M', path: ODD_NAME },
          { status: 'M', path: 'src/order.ts' },
        ],
      },
      {
        subject: 'move util to helpers',
        files: [{ status: 'R', path: 'src/helpers.ts', old_path: 'src/util.ts' }],
      },
    ]);
  });

  it('pages with a cursor bound to HEAD', async () => {
    const first = await callTool(history, 'recent_commits', { limit: 3 });
    expect(subjects(first.data)).toHaveLength(3);
    const cursor = first.data.next_cursor as string;
    const second = await callTool(history, 'recent_commits', { limit: 3, cursor });
    expect(subjects(second.data)).toEqual(['util: trim', 'feature: audit', 'tax on create']);
    const elsewhere = await callTool(detached, 'recent_commits', { limit: 3, cursor });
    expect(elsewhere.isError).toBe(true);
    expect(elsewhere.text).toBe(
      `\`cursor\` was made when HEAD was ${(SHAS.refund as string).slice(0, 7)}, but HEAD is now ${(SHAS.tax as string).slice(0, 7)} (a commit or checkout happened since): repeat the call without \`cursor\` to start from the first page.`,
    );
  });

  it('clamps a limit above the cap', async () => {
    const answer = await callTool(history, 'recent_commits', { limit: 5000 });
    expect(subjects(answer.data)).toHaveLength(7);
  });

  it('reports a shallow clone as truncated', async () => {
    const answer = await callTool(shallow, 'recent_commits', {});
    expect(subjects(answer.data)).toEqual(['reformat and add refund', 'move util to helpers']);
    expect(answer.data).toMatchObject({ truncated: true });
    expect(answer.data.truncated_reason).toContain('shallow clone');
  });

  it('answers a repository without commits plainly', async () => {
    const answer = await callTool(empty, 'recent_commits', {});
    expect(answer.isError).toBe(false);
    expect(answer.data).toMatchObject({ head: null, commits: [], next_cursor: null });
    expect(answer.text).toContain('has no commits yet');
  });
});

describe('git touching', () => {
  it('follows a file back through its rename', async () => {
    const answer = await callTool(history, 'commits_touching', { path: 'src/helpers.ts' });
    expect(answer.isError).toBe(false);
    expect(subjects(answer.data)).toEqual(['move util to helpers', 'util: trim', 'add order service']);
    expect(answer.data.followed_renames).toBe(true);
  });

  it('stops at the rename without follow', async () => {
    const answer = await callTool(history, 'commits_touching', { path: 'src/helpers.ts', follow: false });
    expect(subjects(answer.data)).toEqual(['move util to helpers']);
  });

  it('names a deleted file and a file with spaces and Unicode', async () => {
    const gone = await callTool(history, 'commits_touching', { path: 'src/util.ts', follow: false });
    expect(subjects(gone.data)).toEqual(['move util to helpers', 'util: trim', 'add order service']);
    const odd = await callTool(history, 'commits_touching', { path: ODD_NAME });
    expect(subjects(odd.data)).toEqual(['reformat and add refund', 'add order service']);
  });

  it('pages a followed history', async () => {
    const first = await callTool(history, 'commits_touching', { path: 'src/helpers.ts', limit: 2 });
    const second = await callTool(history, 'commits_touching', {
      path: 'src/helpers.ts',
      limit: 2,
      cursor: first.data.next_cursor,
    });
    expect(subjects(second.data)).toEqual(['add order service']);
  });

  it('needs a path, and lists a folder without following renames', async () => {
    const everything = await callTool(history, 'commits_touching', { path: '.' });
    expect(everything.text).toBe(
      '`path` must name a file or folder; for the newest commits of everything use `git recent`.',
    );
    const folder = await callTool(history, 'commits_touching', { path: 'docs' });
    expect(folder.data.followed_renames).toBe(false);
    expect(subjects(folder.data)).toEqual(['reformat and add refund', 'add order service']);
  });

  it('refuses a path outside the workspace', async () => {
    const answer = await callTool(history, 'commits_touching', { path: '../elsewhere.ts' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('must be inside the workspace roots');
  });
});
