/**
 * The names a prompt's `base` argument completes with: branches, remote branches and tags of the roots'
 * repositories, `HEAD` first; nothing outside a repository.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { revisionNames } from '../../src/cli/revision-names.js';
import { git } from '../helpers/git.js';

const temp = mkdtempSync(path.join(os.tmpdir(), 'meshlens-revisions-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('revision names for completions', () => {
  it('lists branches and tags once for roots in one repository, HEAD first', async () => {
    const repo = path.join(temp, 'repo');
    mkdirSync(path.join(repo, 'svc'), { recursive: true });
    git(repo, 'init', '-q', '-b', 'main');
    writeFileSync(path.join(repo, 'svc', 'a.txt'), 'a\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'first');
    git(repo, 'branch', 'feature/refunds');
    git(repo, 'tag', 'v1.0');
    expect(await revisionNames([repo, path.join(repo, 'svc'), repo])).toEqual([
      'HEAD',
      'feature/refunds',
      'main',
      'v1.0',
    ]);
  });

  it('gives nothing for a folder in no repository', async () => {
    const plain = path.join(temp, 'plain');
    mkdirSync(plain);
    writeFileSync(path.join(plain, '.git'), 'not a repository\n');
    expect(await revisionNames([plain])).toEqual([]);
  });
});
