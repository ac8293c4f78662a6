/**
 * Real repositories for the git modes, built with git itself at fixed dates and identities: a history with a
 * merge, a rename, a file named with spaces and Unicode, and uncommitted changes; a shallow clone of it; a
 * clone with HEAD detached; and a repository without commits.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPOSITORY_REDIRECT_VARIABLES } from '../../../src/ops/shared/git/run-git.js';
import { tempDir, writeFiles } from '../../helpers/engine.js';
import { SECRETS } from '../../helpers/planted-secrets.js';

export const TOKEN = SECRETS.githubClassic.secret;
export const ODD_NAME = 'docs/read me ü.md';

let tick = 0;

/** git with a fixed identity and a clock that advances one minute per commit. */
export function git(cwd: string, ...args: string[]): string {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of REPOSITORY_REDIRECT_VARIABLES) delete env[name];
  const date = new Date(Date.UTC(2026, 0, 1, 12, tick, 0)).toISOString().replace('.000Z', '+00:00');
  Object.assign(env, {
    GIT_AUTHOR_NAME: 'Ada Lovelace',
    GIT_AUTHOR_EMAIL: 'ada@example.invalid',
    GIT_COMMITTER_NAME: 'Ada Lovelace',
    GIT_COMMITTER_EMAIL: 'ada@example.invalid',
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
    GIT_CONFIG_NOSYSTEM: '1',
  });
  return execFileSync(
    'git',
    [
      '-c',
      'commit.gpgsign=false',
      '-c',
      'init.defaultBranch=main',
      '-c',
      'protocol.file.allow=always',
      ...args,
    ],
    { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  ).trim();
}

function commit(cwd: string, message: string, author?: string, extra: readonly string[] = []): void {
  tick++;
  git(
    cwd,
    'commit',
    '-q',
    ...extra,
    '-m',
    message,
    ...(author ? ['--author', `${author} <grace@example.invalid>`] : []),
  );
}

const ORDER_V1 = `export class OrderService {
  create(total: number): number {
    return total;
  }

  cancel(id: string): boolean {
    return id.length > 0;
  }
}
`;

const ORDER_V2 = `export class OrderService {
  create(total: number): number {
    const tax = total * 0.2;
    return total + tax;
  }

  cancel(id: string): boolean {
    return id.length > 0;
  }
}
`;

/** V2 reformatted: the same tokens, other whitespace. */
const ORDER_V3 = `export class OrderService {
  create(total: number): number {
    const tax   = total * 0.2;

    return total + tax;
  }

  cancel(id: string): boolean {
    return id.length > 0;
  }

  refund(id: string): string {
    return id;
  }
}
`;

export const SHAS: Record<string, string> = {};

/**
 * History, oldest first:
 * 1 "add order service" (src/order.ts, src/util.ts, docs/read me ü.md)
 * 2 "tax on create" (order.ts create body)
 * 3 "feature: audit" on branch feature (src/audit.ts), 4 "util: trim" on main, 5 "Merge branch 'feature'"
 * 6 "move util to helpers" (rename), 7 "reformat and add refund" by Grace Hopper
 * Then uncommitted: order.ts unstaged (a token added), notes.txt staged, scratch.txt untracked.
 */
export function historyRepo(): string {
  const dir = tempDir('meshlens-git-history-');
  git(dir, 'init', '-q');
  writeFiles(dir, {
    'src/order.ts': ORDER_V1,
    'src/util.ts': 'export function trim(s: string): string {\n  return s;\n}\n',
    [ODD_NAME]: '# Read me\n',
  });
  git(dir, 'add', '-A');
  commit(dir, 'add order service');
  SHAS.add = git(dir, 'rev-parse', 'HEAD');
  writeFiles(dir, { 'src/order.ts': ORDER_V2 });
  git(dir, 'add', '-A');
  commit(dir, 'tax on create');
  SHAS.tax = git(dir, 'rev-parse', 'HEAD');
  git(dir, 'checkout', '-q', '-b', 'feature');
  writeFiles(dir, { 'src/audit.ts': 'export const audit = true;\n' });
  git(dir, 'add', '-A');
  commit(dir, 'feature: audit');
  SHAS.feature = git(dir, 'rev-parse', 'HEAD');
  git(dir, 'checkout', '-q', 'main');
  writeFiles(dir, { 'src/util.ts': 'export function trim(s: string): string {\n  return s.trim();\n}\n' });
  git(dir, 'add', '-A');
  commit(dir, 'util: trim');
  SHAS.trim = git(dir, 'rev-parse', 'HEAD');
  tick++;
  git(dir, 'merge', '-q', '--no-ff', '-m', "Merge branch 'feature'", 'feature');
  SHAS.merge = git(dir, 'rev-parse', 'HEAD');
  git(dir, 'mv', 'src/util.ts', 'src/helpers.ts');
  commit(dir, 'move util to helpers');
  SHAS.move = git(dir, 'rev-parse', 'HEAD');
  writeFiles(dir, { 'src/order.ts': ORDER_V3, [ODD_NAME]: '# Read me\n\nSee the order service.\n' });
  git(dir, 'add', '-A');
  commit(dir, 'reformat and add refund', 'Grace Hopper');
  SHAS.refund = git(dir, 'rev-parse', 'HEAD');
  writeFileSync(path.join(dir, 'src/order.ts'), ORDER_V3.replace('return id;', `return id + "${TOKEN}";`));
  writeFiles(dir, { 'notes.txt': 'notes\n', 'scratch.txt': 'scratch\n' });
  git(dir, 'add', 'notes.txt');
  return dir;
}

/** A clone of `source` holding only its newest `depth` commits. */
export function shallowClone(source: string, depth: number): string {
  const dir = tempDir('meshlens-git-shallow-');
  git(dir, 'clone', '-q', '--no-local', `--depth=${depth}`, `file://${source}`, 'repo');
  return path.join(dir, 'repo');
}

/** A full clone of `source` with HEAD detached at `revision`. */
export function detachedClone(source: string, revision: string): string {
  const dir = tempDir('meshlens-git-detached-');
  git(dir, 'clone', '-q', source, 'repo');
  const repo = path.join(dir, 'repo');
  git(repo, 'checkout', '-q', '--detach', revision);
  return repo;
}

/** A repository without commits, holding one untracked file. */
export function emptyRepo(): string {
  const dir = tempDir('meshlens-git-empty-');
  git(dir, 'init', '-q');
  writeFiles(dir, { 'src/start.ts': 'export const start = 1;\n' });
  return dir;
}

/** A file name holding a line break, which only NUL-separated output carries whole. */
export const NEWLINE_NAME = 'beta/lib/new\nline.txt';

/** A workspace of two roots, each its own repository with one commit. */
export function twoRepoWorkspace(): string {
  const dir = tempDir('meshlens-git-two-');
  writeFiles(dir, {
    'meshlens.toml': '[workspace]\nroots = ["alpha", "beta"]\n',
    'alpha/a.ts': 'export const a = 1;\n',
    'beta/lib/b.ts': 'export const b = 2;\n',
    [NEWLINE_NAME]: 'two lines in the name\n',
  });
  for (const root of ['alpha', 'beta']) {
    const repo = path.join(dir, root);
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    commit(repo, `start ${root}`);
  }
  return dir;
}

/** A merge stopped on a conflict in `src/shared.ts`, with a commit message holding a token. */
export function conflictRepo(): string {
  const dir = tempDir('meshlens-git-conflict-');
  git(dir, 'init', '-q');
  writeFiles(dir, { 'src/shared.ts': 'export const value = 1;\n' });
  git(dir, 'add', '-A');
  commit(dir, `start (deploy key ${TOKEN})`);
  git(dir, 'checkout', '-q', '-b', 'other');
  writeFiles(dir, { 'src/shared.ts': 'export const value = 2;\n' });
  commit(dir, 'two', undefined, ['-a']);
  git(dir, 'checkout', '-q', 'main');
  writeFiles(dir, { 'src/shared.ts': 'export const value = 3;\n' });
  commit(dir, 'three', undefined, ['-a']);
  try {
    git(dir, 'merge', '-q', 'other');
  } catch {
    // The conflict is the point.
  }
  return dir;
}
