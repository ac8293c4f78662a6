import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTemps } from '../../helpers/engine.js';
import { callTool, closeIndexed, openIndexed, type IndexedClient } from '../../helpers/indexed-client.js';
import { twoRepoWorkspace } from './git-fixture.js';

let two: IndexedClient;

beforeAll(async () => {
  two = await openIndexed(twoRepoWorkspace());
}, 120_000);
afterAll(async () => {
  await closeIndexed(two);
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
      { subject: 'start beta', files: [{ status: 'A', path: 'beta/lib/b.ts' }] },
    ]);
    const touching = await callTool(two, 'commits_touching', { path: 'alpha/a.ts' });
    expect(touching.data).toMatchObject({ path: 'alpha/a.ts', commits: [{ subject: 'start alpha' }] });
  });
});
