import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTemps } from '../../helpers/engine.js';
import { callTool, closeIndexed, openIndexed, type IndexedClient } from '../../helpers/indexed-client.js';
import { conflictRepo, emptyRepo, NEWLINE_NAME, TOKEN, twoRepoWorkspace } from './git-fixture.js';

let two: IndexedClient;
let conflict: IndexedClient;
let empty: IndexedClient;

beforeAll(async () => {
  two = await openIndexed(twoRepoWorkspace());
  conflict = await openIndexed(conflictRepo());
  empty = await openIndexed(emptyRepo());
}, 120_000);
afterAll(async () => {
  await closeIndexed(two, conflict, empty);
  removeTemps();
});

describe('a workspace of several repositories', () => {
  it('asks which repository when no path picks one', async () => {
    const answer = await callTool(two, 'recent_commits', {});
    expect(answer.isError).toBe(true);
    expect(answer.text).toBe(
      'The workspace holds 2 git repositories (roots [alpha] and [beta]): pass `path` naming a folder or file inside one of them.',
    );
  });

  it('maps a path to the repository holding it and shows paths as the index does', async () => {
    const beta = await callTool(two, 'recent_commits', { path: 'beta', include_files: true });
    expect(beta.data.repository).toBe('beta');
    expect(beta.data.commits).toMatchObject([
      {
        subject: 'start beta',
        files: [
          { status: 'A', path: 'beta/lib/b.ts' },
          { status: 'A', path: NEWLINE_NAME },
        ],
      },
    ]);
    const odd = await callTool(two, 'commits_touching', { path: NEWLINE_NAME });
    expect(odd.data).toMatchObject({ path: NEWLINE_NAME, commits: [{ subject: 'start beta' }] });
    const touching = await callTool(two, 'commits_touching', { path: 'alpha/a.ts' });
    expect(touching.data).toMatchObject({ path: 'alpha/a.ts', commits: [{ subject: 'start alpha' }] });
  });
});

describe('a merge stopped on a conflict', () => {
  it('lists the conflicted file', async () => {
    const answer = await callTool(conflict, 'git_status', {});
    expect(answer.data).toMatchObject({
      branch: 'main',
      clean: false,
      conflicted: [{ status: 'U', path: 'src/shared.ts' }],
      staged: [],
      unstaged: [],
    });
  });

  it('masks a token in a commit message and does not match on it', async () => {
    const recent = await callTool(conflict, 'recent_commits', {});
    expect(JSON.stringify(recent.data)).not.toContain(TOKEN);
    expect(recent.text).not.toContain(TOKEN);
    const probe = await callTool(conflict, 'search_commits', { pattern: TOKEN.slice(10, 18) });
    expect(probe.data).toMatchObject({ total_matches: 0 });
  });
});

describe('a repository without commits', () => {
  it('says a revision names nothing yet', async () => {
    const diff = await callTool(empty, 'file_diff', { path: 'src/start.ts' });
    expect(diff.isError).toBe(true);
    expect(diff.text).toBe('The repository has no commits yet, so `rev_old` "HEAD" names none.');
    const churn = await callTool(empty, 'file_churn', {});
    expect(churn.data).toMatchObject({ commits_counted: 0, files: [] });
    const outline = await callTool(empty, 'outline_diff', { path: 'src/start.ts' });
    expect(outline.text).toBe('The repository has no commits yet, so `rev` "HEAD" names none.');
  });
});
