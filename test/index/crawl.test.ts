import { execFileSync, spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  DEFAULT_EXCLUDES,
  SECRET_FILE_PATTERNS,
  classifyPath,
  compareBytes,
  crawl,
  type CrawlOptions,
  type CrawlRoot,
} from '../../src/index/crawl.js';

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder, canonical (macOS /tmp is a symlink), as the crawler expects its roots. */
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'meshlens-crawl-')));
  temps.push(dir);
  return dir;
}

/** Writes `files` (root-relative '/' paths → content) under `dir`. */
function write(dir: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, ...rel.split('/'));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** Empty files from a space-separated list, plus files with content. */
function tree(dir: string, empty: string, files: Record<string, string> = {}): void {
  write(dir, { ...Object.fromEntries(list(empty).map((rel) => [rel, ''])), ...files });
}

const list = (names: string): string[] => names.split(' ').filter(Boolean);

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  });

/** What git itself would add: untracked files that no ignore file, nor info/exclude, leaves out. */
const gitListing = (cwd: string): string[] =>
  git(cwd, 'ls-files', '--others', '--exclude-standard', '-z').split('\0').filter(Boolean).sort(compareBytes);

const root = (name: string, dir: string): CrawlRoot => ({ name, path: dir });

async function paths(dir: string, options?: CrawlOptions): Promise<string[]> {
  return (await crawl([root('r', dir)], options)).map((file) => file.path);
}

/** Every regular file under `dir` (symlinks not followed), ignored or not, as absolute paths. */
function allFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...allFiles(abs));
    else out.push(abs);
  }
  return out;
}

describe('ignore files', () => {
  test('nested .gitignore files with negation follow git: deeper files re-include, an excluded folder stays excluded', async () => {
    const dir = tempDir();
    tree(
      dir,
      'app.ts app.log pkg/important.log pkg/other.log services/gen/client.ts services/gen/noise.log',
      {
        '.gitignore': '*.log\ngen/\nlogs/\n!logs/keep.txt\n',
        'pkg/.gitignore': '!important.log\n',
        'services/.gitignore': '!gen/\n',
        'other/gen/client.ts': '',
        'logs/keep.txt': '',
      },
    );
    expect(await paths(dir)).toEqual(
      list('.gitignore app.ts pkg/.gitignore pkg/important.log services/.gitignore services/gen/client.ts'),
    );
  });

  test('anchored patterns are relative to the folder holding the ignore file', async () => {
    const dir = tempDir();
    tree(
      dir,
      'config.ts sub/config.ts docs/tmp/a.md x/docs/tmp/b.md pkg/local.ts pkg/deeper/local.ts local.ts',
      {
        '.gitignore': '/config.ts\ndocs/tmp\n',
        'pkg/.gitignore': '/local.ts\n',
      },
    );
    expect(await paths(dir)).toEqual(
      list('.gitignore local.ts pkg/.gitignore pkg/deeper/local.ts sub/config.ts x/docs/tmp/b.md'),
    );
  });

  test('.ignore files work like .gitignore and outrank them', async () => {
    const dir = tempDir();
    tree(dir, 'a.gen.ts wanted.gen.ts scratch/x.ts lib/fixtures/big.json lib/index.ts', {
      '.gitignore': '*.gen.ts\n',
      '.ignore': 'scratch/\n!wanted.gen.ts\n',
      'lib/.ignore': '/fixtures/\n',
    });
    expect(await paths(dir)).toEqual(list('.gitignore .ignore lib/.ignore lib/index.ts wanted.gen.ts'));
  });

  test('.git/info/exclude of the repository applies, and the result matches git ls-files', async () => {
    const dir = tempDir();
    git(dir, 'init', '-q', '.');
    const empty =
      'a.ts a.tmp.ts scratch/s.ts deep/scratch/kept.ts debug.log important.log out/o.js src/out/kept.js';
    tree(dir, `${empty} src/cache/c.bin src/cache/kept.ts src/keep.tmp.ts src/drop.tmp.ts`, {
      '.git/info/exclude': '*.tmp.ts\n/scratch/\n',
      '.gitignore': '*.log\n/out/\ncache/\n!important.log\n',
      'src/.gitignore': '!cache/\n*.tmp.ts\n!keep.tmp.ts\n',
      'weird name [1].ts': '',
    });
    const crawled = await paths(dir);
    expect(crawled).toEqual(gitListing(dir));
    expect(crawled).toContain('src/cache/kept.ts');
    expect(crawled).not.toContain('a.tmp.ts');
  });

  test('ignore files of the repository above a root apply; the root itself stays included; none above the repo', async () => {
    const outer = tempDir();
    // Outside the repository: must not apply.
    write(outer, { '.gitignore': '*.ts\n' });
    const repo = path.join(outer, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q', '.');
    const a = path.join(repo, 'services', 'a');
    tree(a, 'main.ts local.ts deep/local.ts x.snap x.scratch tmp/t.ts fixtures/f.json');
    write(repo, {
      '.git/info/exclude': '*.scratch\n',
      '.gitignore': '*.snap\nservices/a/tmp/\nservices/\n',
      'services/.gitignore': '/a/local.ts\n',
      'services/.ignore': 'fixtures/\n',
    });
    expect(await paths(a)).toEqual(['deep/local.ts', 'main.ts']);
    for (const file of allFiles(a)) {
      const rel = path.relative(a, file).split(path.sep).join('/');
      expect(classifyPath([root('r', a)], file)?.path, rel).toBe(
        ['deep/local.ts', 'main.ts'].includes(rel) ? rel : undefined,
      );
    }
  });

  test('a nested repository is a boundary for .gitignore (not for .ignore) and brings its own info/exclude', async () => {
    const dir = tempDir();
    git(dir, 'init', '-q', '.');
    tree(dir, 'top.gen.ts libs/x/a.gen.ts libs/x/b.bak', {
      '.gitignore': '*.gen.ts\n',
      '.ignore': '*.bak\n',
    });
    const nested = path.join(dir, 'libs', 'x');
    git(nested, 'init', '-q', '.');
    write(nested, { '.git/info/exclude': 'local.ts\n', 'local.ts': '', 'kept.ts': '' });
    expect(await paths(dir)).toEqual(['.gitignore', '.ignore', 'libs/x/a.gen.ts', 'libs/x/kept.ts']);
  });

  test('a worktree (.git is a file) uses the shared repository info/exclude', async () => {
    const dir = tempDir();
    const main = path.join(dir, 'main');
    mkdirSync(main);
    git(main, 'init', '-q', '.');
    write(main, { 'a.ts': '', '.git/info/exclude': '*.local.ts\n' });
    git(main, 'add', '.');
    git(main, 'commit', '-qm', 'init');
    const tree = path.join(dir, 'wt');
    git(main, 'worktree', 'add', '-q', tree);
    write(tree, { 'b.ts': '', 'c.local.ts': '' });
    expect(await paths(tree)).toEqual(['a.ts', 'b.ts']);
  });
});

test('random trees with random .gitignore files match git ls-files (root at the top and in a subfolder)', async () => {
  let seed = 20_240_611;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T; // index < length
  const patterns = list(
    '*.log !keep.log gen/ !gen/ /a a/ b/* !b/x.ts **/lib lib/** !lib/ src/gen *.tmp !*.tmp x.ts',
  );
  patterns.push(...list('/b/ a/**/x.ts gen/* !gen/x.ts'));
  let subfolderRoots = 0;
  for (let iteration = 0; iteration < 25; iteration++) {
    const dir = tempDir();
    git(dir, 'init', '-q', '.');
    const dirs = [''];
    for (let i = 0; i < 8; i++) {
      const parent = pick(dirs);
      const child = `${parent}${parent ? '/' : ''}${pick(['a', 'b', 'gen', 'lib', 'src'])}`;
      if (!dirs.includes(child)) dirs.push(child);
    }
    for (const d of dirs) {
      for (let k = 0; k < 3; k++)
        write(dir, { [`${d}${d ? '/' : ''}${pick(['x.ts', 'y.log', 'z.tmp', 'keep.log', 'm.ts'])}`]: '' });
      if (random() < 0.5)
        write(dir, { [`${d}${d ? '/' : ''}.gitignore`]: `${pick(patterns)}\n${pick(patterns)}\n` });
    }
    write(dir, { '.git/info/exclude': random() < 0.5 ? `${pick(patterns)}\n` : '' });
    expect(await paths(dir), dir).toEqual(gitListing(dir));
    const roots = [root('r', dir)];
    const crawled = new Set(await paths(dir));
    for (const file of allFiles(dir)) {
      const rel = path.relative(dir, file).split(path.sep).join('/');
      expect(classifyPath(roots, file)?.path, rel).toBe(crawled.has(rel) ? rel : undefined);
    }
    // A subfolder root (one git does not ignore; an ignored root is re-included on purpose) sees the same rules.
    const sub = dirs[1];
    if (sub && spawnSync('git', ['check-ignore', '-q', '--no-index', `${sub}/`], { cwd: dir }).status === 1) {
      subfolderRoots++;
      expect(await paths(path.join(dir, sub)), `${dir} ${sub}`).toEqual(gitListing(path.join(dir, sub)));
    }
  }
  expect(subfolderRoots).toBeGreaterThan(5);
});

describe('excludes', () => {
  test('default excludes prune generated folders, not files that share the name', async () => {
    const dir = tempDir();
    tree(
      dir,
      'src/a.ts node_modules/dep/index.js web/node_modules/dep/index.js dist/a.js build/b.js tools/build',
    );
    tree(
      dir,
      'target/debug/x py/__pycache__/m.pyc py/.venv/lib/x.py go/vendor/m/x.go .git/config app/bin/x.dll',
    );
    tree(dir, 'pkg/my.egg-info/PKG-INFO coverage/lcov.info web/.next/server.js');
    expect(await paths(dir)).toEqual(['app/bin/x.dll', 'src/a.ts', 'tools/build']);
    expect(DEFAULT_EXCLUDES).toContain('node_modules/');
  });

  test('secret files are left out unless asked for; an exclude negation re-includes one', async () => {
    const dir = tempDir();
    const secrets = list('.env .env.local certs/tls.pem certs/tls.key a.p12 a.pfx ssh/id_rsa ssh/id_rsa.pub');
    secrets.push('app.keystore', 'app.jks');
    tree(dir, [...secrets, 'src/env.ts', '.env.example'].join(' '));
    expect(await paths(dir)).toEqual(['src/env.ts']);
    expect(await paths(dir, { includeSecretFiles: true })).toEqual(
      [...secrets, 'src/env.ts', '.env.example'].sort(compareBytes),
    );
    expect(await paths(dir, { exclude: ['!.env.example'] })).toEqual(['.env.example', 'src/env.ts']);
    expect(SECRET_FILE_PATTERNS).toEqual(
      expect.arrayContaining(['.env', '.env.*', '*.pem', '*.key', 'id_rsa*', '*.jks']),
    );
  });

  test('configured excludes are gitignore-style and relative to each root', async () => {
    const dir = tempDir();
    const all = 'a.gen.ts a.ts legacy/x.ts services/old/y.ts vendor/v.go x/services/old/z.ts';
    tree(dir, all);
    const excluded = await paths(dir, { exclude: ['*.gen.ts', 'legacy/', 'services/old'] });
    expect(excluded).toEqual(['a.ts', 'x/services/old/z.ts']);
    // A negation re-includes a default-excluded folder.
    expect(await paths(dir, { exclude: ['!vendor/'] })).toEqual(list(all));
  });
});

describe('walk', () => {
  test('symlinks to a file and to a folder outside the root are not followed', async () => {
    const outside = tempDir();
    write(outside, { 'secret.ts': '', 'lib/x.ts': '' });
    const dir = tempDir();
    write(dir, { 'a.ts': '' });
    symlinkSync(path.join(outside, 'secret.ts'), path.join(dir, 'linked.ts'));
    symlinkSync(path.join(outside, 'lib'), path.join(dir, 'lib'), 'dir');
    symlinkSync(path.join(dir, 'a.ts'), path.join(dir, 'inside-link.ts'));
    expect(await paths(dir)).toEqual(['a.ts']);
    expect(classifyPath([root('r', dir)], path.join(dir, 'linked.ts'))).toBeUndefined();
    expect(classifyPath([root('r', dir)], path.join(dir, 'lib', 'x.ts'))).toBeUndefined();
  });

  test('overlapping roots: a file belongs to its most specific root only, once, in root order', async () => {
    const dir = tempDir();
    write(dir, { 'top.ts': '', 'services/a/a.ts': '', 'services/a/deep/d.ts': '', 'services/b.ts': '' });
    const inner = path.join(dir, 'services', 'a');
    const files = await crawl([root('inner', inner), root('outer', dir), root('again', dir)]);
    expect(files.map((f) => `${f.root}:${f.path}`)).toEqual([
      'inner:a.ts',
      'inner:deep/d.ts',
      'outer:services/b.ts',
      'outer:top.ts',
    ]);
    const first = files[0];
    expect(first?.absolutePath).toBe(path.join(inner, 'a.ts'));
    expect(first?.size).toBe(0);
    expect(first?.mtimeMs).toBeGreaterThan(0);
    expect(
      classifyPath([root('outer', dir), root('inner', inner)], path.join(inner, 'deep', 'd.ts')),
    ).toEqual({ root: 'inner', path: 'deep/d.ts' });
    expect(classifyPath([root('outer', dir), root('again', dir)], path.join(dir, 'top.ts'))).toEqual({
      root: 'outer',
      path: 'top.ts',
    });
  });

  test('output is sorted by path in UTF-8 byte order', async () => {
    const dir = tempDir();
    const names = [...list('b.ts a/z.ts a.ts A.ts _x.ts a-b/c.ts é.ts z/\u{1F600}.ts z/\uFF21.ts'), 'a b.ts'];
    write(dir, Object.fromEntries(names.map((n) => [n, ''])));
    const expected = [...names].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect(await paths(dir)).toEqual(expected);
    // The emoji (a surrogate pair) sorts after U+FF21 in UTF-8, though not in UTF-16.
    expect(expected.indexOf('z/\uFF21.ts')).toBeLessThan(expected.indexOf('z/\u{1F600}.ts'));
  });

  test('an aborted signal rejects with an AbortError', async () => {
    const dir = tempDir();
    write(dir, { 'a.ts': '' });
    const controller = new AbortController();
    controller.abort();
    await expect(crawl([root('r', dir)], { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  test('a missing root is an error, not an empty index', async () => {
    await expect(crawl([root('r', path.join(tempDir(), 'nope'))])).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('classifyPath', () => {
  test('agrees with crawl on every path of a mixed tree, including deleted ones', async () => {
    const dir = tempDir();
    git(dir, 'init', '-q', '.');
    tree(dir, 'a.ts a.log keep.log x.tmp .env node_modules/m/i.js services/gen/g.ts services/local/l.ts', {
      '.git/info/exclude': '*.tmp\n',
      '.gitignore': '*.log\ngen/\n',
      '.ignore': '!keep.log\n',
      'services/.gitignore': '!gen/\n/local/\n',
    });
    tree(dir, 'services/a/local/l.ts web/gen/w.ts nested/inner.ts');
    const inner = path.join(dir, 'nested');
    const roots = [root('outer', dir), root('inner', inner)];
    const crawled = new Map(
      (await crawl(roots)).map((f) => [f.absolutePath, { root: f.root, path: f.path }]),
    );
    const everything = allFiles(dir);
    expect(everything.length).toBeGreaterThan(crawled.size);
    for (const file of everything) expect(classifyPath(roots, file), file).toEqual(crawled.get(file));

    // Deleted files are judged by name, so the watcher can drop them.
    expect(classifyPath(roots, path.join(dir, 'services', 'gone.ts'))).toEqual({
      root: 'outer',
      path: 'services/gone.ts',
    });
    expect(classifyPath(roots, path.join(dir, 'web', 'gen', 'gone.ts'))).toBeUndefined();
    // Folders, the root itself and paths outside every root are not candidates.
    expect(classifyPath(roots, path.join(dir, 'services'))).toBeUndefined();
    expect(classifyPath(roots, dir)).toBeUndefined();
    expect(classifyPath(roots, path.join(path.dirname(dir), 'elsewhere.ts'))).toBeUndefined();
  });
});

test('compareBytes orders by code point', () => {
  expect(compareBytes('a', 'b')).toBeLessThan(0);
  expect(compareBytes('ab', 'a')).toBeGreaterThan(0);
  expect(compareBytes('\u{1F600}', '\uFF21')).toBeGreaterThan(0);
  expect(compareBytes('x', 'x')).toBe(0);
});
