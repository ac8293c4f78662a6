import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  ConfigError,
  discoverConfigFile,
  loadConfig,
  type LoadConfigOptions,
} from '../../src/core/config.js';

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A canonical temp folder holding `files` (relative '/' paths → content; a trailing '/' makes a folder). */
function workspace(files: Record<string, string> = {}): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'meshlens-config-')));
  temps.push(dir);
  for (const [rel, content] of Object.entries(files)) {
    const target = path.join(dir, ...rel.split('/'));
    if (rel.endsWith('/')) mkdirSync(target, { recursive: true });
    else {
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, content);
    }
  }
  return dir;
}

const load = (options: Partial<LoadConfigOptions> & { cwd: string }) => loadConfig({ env: {}, ...options });

/** The ConfigError `fn` throws (fails the test if it throws anything else, or nothing). */
function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

const rootNames = (dir: string, env: Record<string, string> = {}) =>
  load({ cwd: dir, env }).roots.map((r) => r.name);

describe('unknown keys are refused with the nearest valid one', () => {
  test('at the top level', () => {
    const dir = workspace({ 'meshlens.toml': '[workspace]\nroots = ["."]\n\n[contract]\nenabled = true\n' });
    const error = configError(() => load({ cwd: dir }));
    expect(error.message).toContain(path.join(dir, 'meshlens.toml'));
    expect(error.message).toContain('unknown key `contract` in the top level — did you mean `contracts`?');
  });

  test('in [workspace]', () => {
    const dir = workspace({ 'meshlens.toml': '[workspace]\nroot = ["."]\n' });
    const error = configError(() => load({ cwd: dir }));
    expect(error.message).toContain('unknown key `root` in [workspace] — did you mean `roots`?');
    expect(error.message).toContain('valid: name, roots, exclude');
  });

  test('in [[contracts.patterns]], naming the entry', () => {
    const dir = workspace({
      'meshlens.toml': [
        '[[contracts.patterns]]',
        'name = "ok"',
        'kind = "rpc"',
        'regex = "x(y)"',
        '',
        '[[contracts.patterns]]',
        'name = "typo"',
        'kind = "topic_producer"',
        'regex = "send\\\\((\\\\w+)"',
        'target_grop = 1',
        '',
      ].join('\n'),
    });
    const error = configError(() => load({ cwd: dir }));
    expect(error.message).toContain(
      'unknown key `target_grop` in [[contracts.patterns]] #2 — did you mean `target_group`?',
    );
  });

  test('a wrong value names where it is', () => {
    const dir = workspace({ 'meshlens.toml': '[cache]\nmax_size_mb = "big"\n' });
    expect(configError(() => load({ cwd: dir })).message).toMatch(/\[cache\.max_size_mb\]: .*number/);
  });
});

describe('paths', () => {
  test('${WORKSPACE_ROOT} is the variable when set, else the config folder', () => {
    const dir = workspace({
      'meshlens.toml': 'workspace.roots = ["${WORKSPACE_ROOT}/services/*"]\n',
      'services/a/x.ts': '',
    });
    expect(rootNames(dir)).toEqual(['services/a']);
    const elsewhere = workspace({ 'services/b/y.ts': '', 'services/c/z.ts': '' });
    const loaded = load({ cwd: dir, env: { WORKSPACE_ROOT: elsewhere } });
    expect(loaded.roots.map((r) => r.path)).toEqual([
      path.join(elsewhere, 'services/b'),
      path.join(elsewhere, 'services/c'),
    ]);
  });

  test('${WORKSPACE_ROOT:-..} falls back to the default, relative to the config folder', () => {
    const dir = workspace({
      '.agents/meshlens.toml': [
        'workspace.roots = ["${WORKSPACE_ROOT:-..}/services/*", "${workspace_root:-..}/docs"]',
        'docs.paths = ["${WORKSPACE_ROOT:-..}/docs"]',
        'contracts.proto_dirs = ["${WORKSPACE_ROOT:-..}/proto"]',
      ].join('\n'),
      'services/a/x.ts': '',
      'docs/adr.md': '',
    });
    const loaded = load({ cwd: dir, configPath: '.agents/meshlens.toml' });
    expect(loaded.roots.map((r) => r.path)).toEqual([path.join(dir, 'docs'), path.join(dir, 'services/a')]);
    expect(loaded.warnings).toEqual([]);
    // Outside the config folder, settings keep the absolute path (they are compared with root locations).
    expect(loaded.config.docs.paths).toEqual([path.join(dir, 'docs')]);
    const override = load({ cwd: dir, configPath: '.agents/meshlens.toml', env: { WORKSPACE_ROOT: '..' } });
    expect(override.roots.map((r) => r.path)).toEqual(loaded.roots.map((r) => r.path));
  });

  test('docs.paths and proto_dirs are substituted too, relative to the config folder when inside it', () => {
    const dir = workspace({
      'meshlens.toml':
        'docs.paths = ["${WORKSPACE_ROOT}/docs"]\ncontracts.proto_dirs = ["${WORKSPACE_ROOT}/proto", "api"]\n',
    });
    const { config } = load({ cwd: dir });
    expect(config.docs.paths).toEqual(['docs']);
    expect(config.contracts.proto_dirs).toEqual(['proto', 'api']);
  });

  test('a root glob expands to one root per matching folder, sorted; files never match', () => {
    const dir = workspace({
      'meshlens.toml': 'workspace.roots = ["services/*", "proto"]\n',
      'services/zeta/a.go': '',
      'services/alpha/b.go': '',
      'services/mid/': '',
      'services/readme.md': '',
      'proto/x.proto': '',
    });
    expect(rootNames(dir)).toEqual(['proto', 'services/alpha', 'services/mid', 'services/zeta']);
  });

  test('a root pattern matching nothing is a warning, not an error', () => {
    const dir = workspace({
      'meshlens.toml': 'workspace.roots = ["apps/*", "lib", "src"]\n',
      'src/a.ts': '',
    });
    const loaded = load({ cwd: dir });
    expect(loaded.roots.map((r) => r.name)).toEqual(['src']);
    expect(loaded.warnings).toEqual(['root `apps/*` matches no folder', 'root `lib` matches no folder']);
  });

  test('no config: the workspace folder itself is the one root', () => {
    const dir = workspace({ 'a.ts': '' });
    const loaded = load({ cwd: dir, workspaceDir: dir });
    expect(loaded.file).toBeUndefined();
    expect(loaded.roots).toEqual([{ name: '.', path: dir }]);
    expect(loaded.workspaceName).toBe(path.basename(dir));
  });
});

describe('discovery and precedence', () => {
  test('the config is found from a subfolder upward, and paths resolve against its folder', () => {
    const dir = workspace({
      'meshlens.toml': '[workspace]\nname = "shop"\nroots = ["services/*"]\n',
      'services/a/src/deep/x.ts': '',
    });
    const sub = path.join(dir, 'services/a/src/deep');
    expect(discoverConfigFile(sub)).toBe(path.join(dir, 'meshlens.toml'));
    const loaded = load({ cwd: sub });
    expect(loaded.file).toBe(path.join(dir, 'meshlens.toml'));
    expect(loaded.baseDir).toBe(dir);
    expect(loaded.workspaceName).toBe('shop');
    expect(loaded.roots.map((r) => r.name)).toEqual(['services/a']);
  });

  test('--config wins over --workspace and discovery; --workspace uses only its own meshlens.toml', () => {
    const outer = workspace({
      'meshlens.toml': 'workspace.name = "outer"\n',
      'inner/meshlens.toml': 'workspace.name = "inner"\n',
      'bare/x.ts': '',
      'other.toml': 'workspace.name = "explicit"\n',
    });
    expect(load({ cwd: path.join(outer, 'inner') }).workspaceName).toBe('inner');
    expect(load({ cwd: outer, workspaceDir: 'inner' }).workspaceName).toBe('inner');
    expect(load({ cwd: outer, workspaceDir: 'inner', configPath: 'other.toml' }).workspaceName).toBe(
      'explicit',
    );
    // A --workspace folder without its own file does not borrow the parent's: it is indexed as is.
    const bare = load({ cwd: outer, workspaceDir: 'bare' });
    expect(bare.file).toBeUndefined();
    expect(bare.roots).toEqual([{ name: '.', path: path.join(outer, 'bare') }]);
    // Discovery from a folder without a file walks up to the nearest one.
    expect(load({ cwd: path.join(outer, 'bare') }).workspaceName).toBe('outer');
  });

  test('a --config file that does not exist is an error naming it', () => {
    const dir = workspace();
    expect(configError(() => load({ cwd: dir, configPath: 'nope.toml' })).message).toContain(
      path.join(dir, 'nope.toml'),
    );
  });
});

describe('invalid files', () => {
  test('invalid TOML is a ConfigError naming the file and line', () => {
    const dir = workspace({ 'meshlens.toml': '[workspace]\nname = "x"\nroots = ["a",\n\n[docs\n' });
    const error = configError(() => load({ cwd: dir }));
    expect(error.message).toMatch(
      new RegExp(
        `Invalid TOML in ${path.join(dir, 'meshlens.toml').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: `,
      ),
    );
    const line = Number(/meshlens\.toml:(\d+)/.exec(error.message)?.[1]);
    expect(line).toBeGreaterThanOrEqual(3);
    expect(line).toBeLessThanOrEqual(5);
  });

  test('a pattern with an invalid regex is skipped with a warning naming it; the others stay', () => {
    const dir = workspace({
      'meshlens.toml': [
        '[[contracts.patterns]]',
        'name = "broken"',
        'kind = "topic_producer"',
        "regex = '''publish\\((['\"]'''",
        '',
        '[[contracts.patterns]]',
        'name = "too-few-groups"',
        'kind = "topic_consumer"',
        "regex = '''on\\((\\w+)\\)'''",
        'target_group = 2',
        '',
        '[[contracts.patterns]]',
        'name = "fine"',
        'kind = "rpc"',
        "regex = '''call\\((\\w+)\\)'''",
        '',
      ].join('\n'),
    });
    const loaded = load({ cwd: dir });
    expect(loaded.config.contracts.patterns.map((p) => p.name)).toEqual(['fine']);
    expect(loaded.warnings).toHaveLength(2);
    expect(loaded.warnings[0]).toMatch(
      /^\[\[contracts\.patterns\]\] `broken`: invalid regex \(.+\); pattern skipped$/,
    );
    expect(loaded.warnings[1]).toContain(
      '`too-few-groups`: the regex has 1 capture group(s) but group 2 is used',
    );
  });
});
