import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { detectLayout, renderInitConfig } from '../../src/cli/init-command.js';
import { loadConfig } from '../../src/core/config.js';
import { runCli } from '../helpers/cli.js';

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A canonical temp folder holding `files` ('/' paths; a trailing '/' makes an empty folder), created in the given order. */
function tree(files: readonly string[]): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'meshlens-init-')));
  temps.push(dir);
  for (const rel of files) {
    const target = path.join(dir, ...rel.split('/'));
    if (rel.endsWith('/')) mkdirSync(target, { recursive: true });
    else {
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, rel.endsWith('.json') ? '{}' : `// ${rel}\n`);
    }
  }
  return dir;
}

const patterns = (dir: string) => detectLayout(dir).roots.map((r) => r.pattern);

/** Every file under `dir` (absolute paths). */
const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );

/** The proposal, loaded as meshlens would load it: valid, every root exists, no warning. */
function proposalLoads(dir: string) {
  const text = renderInitConfig(detectLayout(dir), path.basename(dir));
  writeFileSync(path.join(dir, 'meshlens.toml'), text);
  const loaded = loadConfig({ cwd: dir, env: {} });
  rmSync(path.join(dir, 'meshlens.toml'));
  expect(loaded.warnings).toEqual([]);
  for (const root of loaded.roots) expect(statSync(root.path).isDirectory()).toBe(true);
  return loaded;
}

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/services');
const EXPECTED = path.resolve(FIXTURES, '../services-expected');
const CASES = [
  'libs-and-services',
  'maven-modules',
  'docker-only',
  'grouped',
  'go-cmd',
  'nested-units',
  'cmake-and-mounts',
  'dapr-readme',
  'cargo-bins',
];

/** A copy of a fixture workspace in a temp folder, so that init may write into it. */
function copyOf(name: string): string {
  const dir = tree([]);
  cpSync(path.join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

describe('roots proposed from the service model', () => {
  test.each(CASES)('%s: the exact proposed file', (name) => {
    const text = renderInitConfig(detectLayout(path.join(FIXTURES, name)), name);
    expect(text).toBe(readFileSync(path.join(EXPECTED, `${name}.toml`), 'utf8'));
  });

  test.each(CASES)(
    '%s: the proposal loads, every root exists, and every folder holding code is in a root',
    (name) => {
      const dir = copyOf(name);
      const loaded = proposalLoads(dir);
      const sources = ['.ts', '.go', '.py', '.java', '.rs', '.cs', '.js', '.proto'];
      const codeFolders = walk(dir)
        .filter((file) => sources.some((ext) => file.endsWith(ext)))
        .map((f) => path.dirname(f));
      for (const folder of codeFolders)
        expect(
          loaded.roots.some((root) => folder === root.path || folder.startsWith(`${root.path}${path.sep}`)),
          folder,
        ).toBe(true);
    },
  );

  test('shared libraries are roots beside the services (libs/<lang> each with its own manifest)', () => {
    expect(patterns(path.join(FIXTURES, 'libs-and-services'))).toEqual([
      'docs',
      'libs/*',
      'proto',
      'services/*',
    ]);
    expect(detectLayout(path.join(FIXTURES, 'libs-and-services')).docs).toEqual(['docs']);
  });

  test('a Maven build listing six modules gives six roots, not one', () => {
    expect(patterns(path.join(FIXTURES, 'maven-modules'))).toEqual([
      'common',
      'gateway',
      'k8s',
      'loadtest',
      'orders',
      'payments',
      'users',
    ]);
  });

  test('services two levels down (src/<group>/<service>) are roots at their own depth', () => {
    expect(patterns(path.join(FIXTURES, 'grouped'))).toEqual(['chart', 'src/admin/users', 'src/shop/*']);
  });

  test('one project with its manifest only at the top is one root "."', () => {
    const dir = tree([
      'package.json',
      'src/cli/main.ts',
      'src/core/config.ts',
      'docs/guide.md',
      'test/a.test.ts',
    ]);
    expect(patterns(dir)).toEqual(['.']);
    expect(proposalLoads(dir).roots).toEqual([{ name: '.', path: dir }]);
  });

  test('code without any declaration is still covered: its top folder is a root; nothing at all means "."', () => {
    expect(patterns(tree(['src/main.rs', 'src/lib/util.rs']))).toEqual(['src']);
    expect(patterns(tree(['notes/x.txt', 'README.md']))).toEqual(['.']);
    expect(patterns(tree([]))).toEqual(['.']);
  });

  test('a glob only when every folder it matches is one unit', () => {
    const dir = tree([
      'services/a/Dockerfile',
      'services/a/x.go',
      'services/b/Dockerfile',
      'services/b/y.go',
      'services/notes/x.md',
    ]);
    expect(patterns(dir)).toEqual(['services/a', 'services/b']);
    expect(
      patterns(
        tree(['services/a/Dockerfile', 'services/a/x.go', 'services/b/Dockerfile', 'services/b/y.go']),
      ),
    ).toEqual(['services/*']);
  });

  test('the file is deterministic: the same tree created in another order gives the same bytes', () => {
    const files = [
      'services/a/Dockerfile',
      'services/a/x.go',
      'services/b/go.mod',
      'services/b/main.go',
      'libs/c/pom.xml',
      'libs/c/C.java',
    ];
    const render = (dir: string) => renderInitConfig(detectLayout(dir), 'shop');
    expect(render(tree(files))).toBe(render(tree([...files].reverse())));
  });
});

describe('meshlens init (built CLI)', () => {
  test('without --auto the proposal goes to stdout and nothing is written', () => {
    const dir = tree([
      'services/a/Dockerfile',
      'services/a/x.go',
      'services/b/Dockerfile',
      'services/b/y.go',
    ]);
    const result = runCli(['init', '--workspace', dir]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('"services/*",');
    expect(existsSync(path.join(dir, 'meshlens.toml'))).toBe(false);
  });

  test('--auto writes meshlens.toml; an existing one is kept without --force and replaced with it', () => {
    const dir = tree([
      'services/a/Dockerfile',
      'services/a/x.go',
      'services/b/Dockerfile',
      'services/b/y.go',
    ]);
    const file = path.join(dir, 'meshlens.toml');
    const first = runCli(['init', '--auto'], { cwd: dir });
    expect(first.status).toBe(0);
    expect(first.stdout).toContain(`wrote ${file}`);
    const written = readFileSync(file, 'utf8');
    expect(written).toBe(renderInitConfig(detectLayout(dir), path.basename(dir)));

    writeFileSync(file, '[workspace]\nroots = ["services/a"]  # tuned by hand\n');
    const kept = runCli(['init', '--auto', '--workspace', dir]);
    expect(kept.status).toBe(0);
    expect(kept.stdout).toBe(`${file} already exists; kept it (use --force to regenerate it).\n`);
    expect(readFileSync(file, 'utf8')).toContain('tuned by hand');

    const forced = runCli(['init', '--auto', '--force', '--workspace', dir]);
    expect(forced.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(written);
  });

  test('an existing broken config does not stop init --force', () => {
    const dir = tree(['services/a/Dockerfile', 'services/a/x.go']);
    writeFileSync(path.join(dir, 'meshlens.toml'), '[workspace\nnot toml');
    const result = runCli(['init', '--auto', '--force'], { cwd: dir });
    expect(result.status).toBe(0);
    expect(loadConfig({ cwd: dir, env: {} }).roots.map((r) => r.name)).toEqual(['services/a']);
  });
});
