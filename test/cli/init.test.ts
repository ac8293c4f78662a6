import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { detectLayout, renderInitConfig } from '../../src/cli/init-command.js';
import { loadConfig } from '../../src/core/config.js';
import { CLI, runCli } from '../helpers/cli.js';

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

const POLYGLOT = [
  'services/orders/package.json',
  'services/orders/src/main.ts',
  'services/billing/pom.xml',
  'services/billing/src/main/java/B.java',
  'services/shipping/app.py',
  'proto/orders.proto',
  'protos/legacy.proto',
  'proto-registry/buf.yaml',
  'api-gateway/gateway.go',
  'gateway/nginx.conf',
  'docs/adr/0001.md',
  'deploy-prod/app.yaml',
  'k8s/base/kustomization.yaml',
  'frontend/package.json',
  'frontend/src/App.tsx',
  'dotnet-api/Api.csproj',
  'rust-core/Cargo.toml',
  'gradle-svc/build.gradle.kts',
  'py-tool/pyproject.toml',
  'scripts/run.sh',
  'README.md',
];

describe('layout detection', () => {
  test('a polyglot workspace: globs, fixed folders, deploy*/k8s*, folders with a manifest; nothing else', () => {
    const dir = tree(POLYGLOT);
    expect(patterns(dir)).toEqual([
      'api-gateway',
      'deploy-prod',
      'docs',
      'dotnet-api',
      'frontend',
      'gateway',
      'gradle-svc',
      'k8s',
      'proto',
      'proto-registry',
      'protos',
      'py-tool',
      'rust-core',
      'services/*',
    ]);
    expect(detectLayout(dir).docs).toEqual(['docs']);
    const loaded = proposalLoads(dir);
    expect(loaded.roots.map((r) => r.name)).toContain('services/shipping');
    expect(loaded.config.docs.paths).toEqual(['docs']);
  });

  test('a folder of any name holding .proto files is a contracts root (the OpenTelemetry demo keeps them in pb/)', () => {
    const dir = tree(['src/cart/main.go', 'src/checkout/main.go', 'pb/demo.proto', 'tools/notes.txt']);
    expect(patterns(dir)).toEqual(['pb', 'src/*']);
    proposalLoads(dir);
  });

  test('a container with an empty, dotfile-only or generated sub-folder is listed explicitly', () => {
    const dir = tree([
      'services/a/x.go',
      'services/b/y.go',
      'services/empty/',
      'services/only-dot/.gitkeep',
      'services/node_modules/pkg/index.js',
      'apps/web/index.ts',
      'apps/mobile/App.tsx',
      'packages/ui/package.json',
      'packages/ui/index.ts',
    ]);
    expect(patterns(dir)).toEqual(['apps/*', 'packages/*', 'services/a', 'services/b']);
    expect(proposalLoads(dir).roots.map((r) => r.name)).toEqual([
      'apps/mobile',
      'apps/web',
      'packages/ui',
      'services/a',
      'services/b',
    ]);
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
    expect(detectLayout(dir).docs).toEqual(['docs']);
    expect(proposalLoads(dir).roots).toEqual([{ name: '.', path: dir }]);
  });

  test('a top manifest with sub-project manifests splits into the sub-projects', () => {
    const dir = tree(['package.json', 'packages/a/package.json', 'packages/b/package.json', 'go.mod']);
    expect(patterns(dir)).toEqual(['packages/*']);
    const maven = tree(['pom.xml', 'orders/pom.xml', 'orders/src/O.java', 'billing/pom.xml', 'notes/x.md']);
    expect(patterns(maven)).toEqual(['billing', 'orders']);
  });

  test('code directly in src/ makes src the root; nothing recognised means "."', () => {
    expect(patterns(tree(['src/main.rs', 'src/lib/util.rs']))).toEqual(['src']);
    expect(patterns(tree(['src/a/x.ts', 'src/b/y.ts']))).toEqual(['src/*']);
    expect(patterns(tree(['notes/x.txt', 'README.md']))).toEqual(['.']);
    expect(patterns(tree([]))).toEqual(['.']);
  });

  test('never a root that does not exist, nor an empty one', () => {
    const dir = tree(['services/', 'proto/', 'docs/.keep', 'deploy/', 'k8s/empty/', 'api-gateway/main.go']);
    expect(patterns(dir)).toEqual(['api-gateway']);
    expect(detectLayout(dir).docs).toEqual([]);
  });

  test('the file is deterministic: the same layout created in another order gives the same bytes', () => {
    const a = tree(POLYGLOT);
    const b = tree([...POLYGLOT].reverse());
    const render = (dir: string) => renderInitConfig(detectLayout(dir), 'shop');
    expect(render(a)).toBe(render(b));
    expect(render(a)).toMatch(/^# meshlens configuration/);
    expect(render(a)).toContain('"services/*",      # every sub-folder of services/ (3)');
  });
});

describe('meshlens init (built CLI)', () => {
  test('without --auto the proposal goes to stdout and nothing is written', () => {
    const dir = tree(['services/a/x.go']);
    const result = runCli(['init', '--workspace', dir]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('"services/*",');
    expect(existsSync(path.join(dir, 'meshlens.toml'))).toBe(false);
  });

  test('--auto writes meshlens.toml; an existing one is kept without --force and replaced with it', () => {
    const dir = tree(['services/a/x.go', 'services/b/y.go']);
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
    const dir = tree(['services/a/x.go']);
    writeFileSync(path.join(dir, 'meshlens.toml'), '[workspace\nnot toml');
    const result = runCli(['init', '--auto', '--force'], { cwd: dir });
    expect(result.status).toBe(0);
    expect(loadConfig({ cwd: dir, env: {} }).roots.map((r) => r.name)).toEqual(['services/a']);
  });

  test('--write-ide-config merges into the three client configs, keeps the rest, leaves invalid JSON alone, and is idempotent', () => {
    const dir = tree(['services/a/x.go']);
    const mcp = path.join(dir, '.mcp.json');
    const cursor = path.join(dir, '.cursor', 'mcp.json');
    const vscode = path.join(dir, '.vscode', 'mcp.json');
    writeFileSync(
      mcp,
      JSON.stringify(
        { mcpServers: { other: { command: 'other-server', args: ['--x'] } }, customTopLevel: { keep: true } },
        null,
        4,
      ),
    );
    mkdirSync(path.dirname(cursor));
    const invalid = '{ "mcpServers": { // a comment makes this invalid JSON\n } }';
    writeFileSync(cursor, invalid);

    const first = runCli(['init', '--auto', '--write-ide-config', '--workspace', dir]);
    expect(first.status).toBe(0);
    expect(first.stdout).toContain(`${mcp}: updated`);
    expect(first.stdout).toContain(`${vscode}: created`);
    expect(first.stderr).toContain(`${cursor}: not valid JSON`);
    expect(first.stderr).toContain('left untouched');

    const args = [realpathSync(CLI), 'serve', '--workspace', dir];
    expect(JSON.parse(readFileSync(mcp, 'utf8'))).toEqual({
      mcpServers: { other: { command: 'other-server', args: ['--x'] }, meshlens: { command: 'node', args } },
      customTopLevel: { keep: true },
    });
    expect(JSON.parse(readFileSync(vscode, 'utf8'))).toEqual({
      servers: { meshlens: { type: 'stdio', command: 'node', args } },
    });
    expect(readFileSync(cursor, 'utf8')).toBe(invalid);

    const snapshot = () =>
      [mcp, cursor, vscode, path.join(dir, 'meshlens.toml')].map((f) => ({
        f,
        text: readFileSync(f, 'utf8'),
        mtime: statSync(f).mtimeMs,
      }));
    const before = snapshot();
    const second = runCli(['init', '--auto', '--write-ide-config', '--workspace', dir]);
    expect(second.status).toBe(0);
    expect(second.stdout).toContain(`${mcp}: unchanged`);
    expect(second.stdout).toContain(`${vscode}: unchanged`);
    expect(snapshot()).toEqual(before);
  });

  test('a user-added key in the meshlens entry survives an update of its path', () => {
    const dir = tree(['a/go.mod']);
    const mcp = path.join(dir, '.mcp.json');
    writeFileSync(
      mcp,
      JSON.stringify({
        mcpServers: { meshlens: { command: 'node', args: ['/old/meshlens.js'], env: { A: '1' } } },
      }),
    );
    const result = runCli(['init', '--write-ide-config', '--workspace', dir]);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain(`${mcp}: updated`);
    expect(JSON.parse(readFileSync(mcp, 'utf8')).mcpServers.meshlens).toEqual({
      command: 'node',
      args: [realpathSync(CLI), 'serve', '--workspace', dir],
      env: { A: '1' },
    });
  });
});
