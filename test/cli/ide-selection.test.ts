import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { CLI, runCli, tempEnv } from '../helpers/cli.js';

// The CLI under test lives outside every temp workspace and is not on PATH: entries name it absolutely.
const SCRIPT = realpathSync(CLI);
const REPO = path.resolve(SCRIPT, '..', '..');

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  temps.push(dir);
  return dir;
}

/** A canonical temp workspace holding `files` ('/'-separated paths to their text; a trailing '/' makes a folder). */
function workspace(files: Record<string, string> = {}): string {
  const dir = tempDir('meshlens-ide-');
  for (const [rel, text] of Object.entries(files)) {
    const target = path.join(dir, ...rel.split('/'));
    if (rel.endsWith('/')) mkdirSync(target, { recursive: true });
    else {
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
  }
  return dir;
}

const read = (dir: string, rel: string): string => readFileSync(path.join(dir, ...rel.split('/')), 'utf8');
const json = (dir: string, rel: string): unknown => JSON.parse(read(dir, rel));

describe('which clients init writes, and what it leaves alone', () => {
  test('by default: Claude Code, Cursor, VS Code, plus the clients whose folder the workspace has; a rerun touches nothing', () => {
    const dir = workspace({ '.zed/': '', '.codex/': '' });
    const first = runCli(['init', '--auto', '--write-ide-config', '--workspace', dir]);
    expect(first.status).toBe(0);
    const files = [
      '.mcp.json',
      '.cursor/mcp.json',
      '.vscode/mcp.json',
      '.codex/config.toml',
      '.zed/settings.json',
    ];
    for (const rel of files) expect(first.stdout).toContain(`${path.join(dir, ...rel.split('/'))}: created`);
    expect(existsSync(path.join(dir, '.gemini'))).toBe(false);
    expect(existsSync(path.join(dir, '.continue'))).toBe(false);
    expect(first.stdout).toContain(`the entries start meshlens by its absolute path ${SCRIPT}`);
    expect(json(dir, '.vscode/mcp.json')).toEqual({
      servers: {
        meshlens: {
          type: 'stdio',
          command: 'node',
          args: [SCRIPT, 'serve', '--workspace', '${workspaceFolder}'],
        },
      },
    });
    expect(json(dir, '.zed/settings.json')).toEqual({
      context_servers: { meshlens: { command: 'node', args: [SCRIPT, 'serve'] } },
    });

    const snapshot = () =>
      files.map((rel) => ({ rel, text: read(dir, rel), mtime: statSync(path.join(dir, rel)).mtimeMs }));
    const before = snapshot();
    const second = runCli(['init', '--auto', '--write-ide-config', '--workspace', dir]);
    expect(second.status).toBe(0);
    for (const rel of files)
      expect(second.stdout).toContain(`${path.join(dir, ...rel.split('/'))}: unchanged`);
    expect(snapshot()).toEqual(before);
  });

  test('a file that is not the client’s format, or an entry meshlens did not write, is left as it is', () => {
    const brokenJson = '{ "servers": { "a": } }';
    const brokenToml = '[mcp_servers\ncommand = 1\n';
    const docker = JSON.stringify({
      mcpServers: { meshlens: { command: 'docker', args: ['run', '-i', 'meshlens'] } },
    });
    const dir = workspace({
      '.vscode/mcp.json': brokenJson,
      '.codex/config.toml': brokenToml,
      '.mcp.json': docker,
    });
    const result = runCli(['init', '--ide', 'vscode,codex,claude,cursor', '--workspace', dir]);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain(
      `${path.join(dir, '.vscode', 'mcp.json')}: not valid JSON, even with comments (ValueExpected at line 1, column 21); left untouched`,
    );
    expect(result.stderr).toContain(`${path.join(dir, '.codex', 'config.toml')}: not valid TOML (`);
    expect(result.stderr).toContain(
      `${path.join(dir, '.mcp.json')}: its meshlens entry has no \`serve\` argument, so it is not one meshlens wrote; left as written`,
    );
    expect(result.stderr).toContain(`${path.join(dir, '.cursor', 'mcp.json')}: created`);
    expect(read(dir, '.vscode/mcp.json')).toBe(brokenJson);
    expect(read(dir, '.codex/config.toml')).toBe(brokenToml);
    expect(read(dir, '.mcp.json')).toBe(docker);
  });

  test('an unknown --ide name is a usage error naming the known ones', () => {
    const dir = workspace();
    const result = runCli(['init', '--ide', 'vscode,sublime', '--workspace', dir]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      'unknown --ide client "sublime"; known clients: claude, cursor, vscode, codex, gemini, zed, continue, windsurf, cline',
    );
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('user-level clients (Windsurf, Cline): only when named, only where installed, never silently', () => {
  const homeEnv = (home: string) => {
    const env = tempEnv({ HOME: home });
    delete env.XDG_CONFIG_HOME;
    return env;
  };

  test('without their folders nothing is created: the entry to add by hand is printed', () => {
    const dir = workspace();
    const home = tempDir('meshlens-home-');
    const result = runCli(['init', '--ide', 'windsurf', '--workspace', dir], { env: homeEnv(home) });
    expect(result.status).toBe(0);
    const file = path.join(home, '.codeium', 'windsurf', 'mcp_config.json');
    expect(result.stderr).toContain(
      `Windsurf: ${path.join(home, '.codeium', 'windsurf')} was not found (is Windsurf installed?); nothing was written. To register meshlens, add this to ${file}:\n${JSON.stringify(
        { mcpServers: { meshlens: { command: 'node', args: [SCRIPT, 'serve', '--workspace', dir] } } },
        null,
        2,
      )}`,
    );
    expect(readdirSync(home)).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  test.skipIf(process.platform !== 'linux')(
    'named and installed: their files are merged with absolute paths, and said to be outside the workspace',
    () => {
      const dir = workspace();
      const home = tempDir('meshlens-home-');
      const windsurf = path.join(home, '.codeium', 'windsurf', 'mcp_config.json');
      const clineDir = path.join(
        home,
        '.config',
        'Code',
        'User',
        'globalStorage',
        'saoudrizwan.claude-dev',
        'settings',
      );
      const cline = path.join(clineDir, 'cline_mcp_settings.json');
      mkdirSync(path.dirname(windsurf), { recursive: true });
      mkdirSync(clineDir, { recursive: true });
      writeFileSync(
        windsurf,
        '{\n  "mcpServers": {\n    "github": { "serverUrl": "https://api.example.com/mcp" }\n  }\n}\n',
      );
      writeFileSync(
        cline,
        JSON.stringify(
          {
            mcpServers: {
              fetch: { command: 'uvx', args: ['mcp-server-fetch'], disabled: false, autoApprove: [] },
            },
          },
          null,
          2,
        ),
      );

      const defaults = runCli(['init', '--write-ide-config', '--workspace', dir], { env: homeEnv(home) });
      expect(defaults.status).toBe(0);
      expect(json(home, '.codeium/windsurf/mcp_config.json')).toEqual({
        mcpServers: { github: { serverUrl: 'https://api.example.com/mcp' } },
      });

      const named = runCli(['init', '--ide', 'windsurf,cline', '--workspace', dir], { env: homeEnv(home) });
      expect(named.status).toBe(0);
      expect(named.stderr).toContain(`${windsurf}: updated (Windsurf, outside the workspace)`);
      expect(named.stderr).toContain(`${cline}: updated (Cline, outside the workspace)`);
      const entry = { command: 'node', args: [SCRIPT, 'serve', '--workspace', dir] };
      expect(readFileSync(windsurf, 'utf8')).toBe(
        `{\n  "mcpServers": {\n    "github": { "serverUrl": "https://api.example.com/mcp" },\n    "meshlens": {\n      "command": "node",\n      "args": [\n        "${SCRIPT}",\n        "serve",\n        "--workspace",\n        "${dir}"\n      ]\n    }\n  }\n}\n`,
      );
      expect(JSON.parse(readFileSync(cline, 'utf8'))).toEqual({
        mcpServers: {
          fetch: { command: 'uvx', args: ['mcp-server-fetch'], disabled: false, autoApprove: [] },
          meshlens: entry,
        },
      });
      expect(named.stderr).not.toContain('.mcp.json');
    },
  );
});

describe('the most portable command the installation allows', () => {
  const run = (script: string, dir: string, env = tempEnv()) =>
    spawnSync(process.execPath, [script, 'init', '--ide', 'vscode,claude,zed', '--workspace', dir], {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });

  test('meshlens installed in the workspace (run through node_modules/.bin): paths relative to the workspace', () => {
    const dir = workspace();
    mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(REPO, path.join(dir, 'node_modules', 'meshlens'), 'dir');
    symlinkSync('../meshlens/dist/meshlens.js', path.join(dir, 'node_modules', '.bin', 'meshlens'));
    const result = run(path.join(dir, 'node_modules', '.bin', 'meshlens'), dir);
    expect(result.status).toBe(0);
    expect(result.stderr).not.toContain('absolute path');
    expect(json(dir, '.vscode/mcp.json')).toEqual({
      servers: {
        meshlens: {
          type: 'stdio',
          command: 'node',
          args: [
            '${workspaceFolder}/node_modules/meshlens/dist/meshlens.js',
            'serve',
            '--workspace',
            '${workspaceFolder}',
          ],
        },
      },
    });
    const cwdEntry = {
      meshlens: { command: 'node', args: ['node_modules/meshlens/dist/meshlens.js', 'serve'] },
    };
    expect(json(dir, '.mcp.json')).toEqual({ mcpServers: cwdEntry });
    expect(json(dir, '.zed/settings.json')).toEqual({ context_servers: cwdEntry });
  });

  test('the `meshlens` on PATH is this script: the entries call `meshlens`', () => {
    const dir = workspace();
    const bin = tempDir('meshlens-bin-');
    symlinkSync(SCRIPT, path.join(bin, 'meshlens'));
    const env = tempEnv({ PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` });
    const result = run(SCRIPT, dir, env);
    expect(result.status).toBe(0);
    expect(json(dir, '.vscode/mcp.json')).toEqual({
      servers: {
        meshlens: {
          type: 'stdio',
          command: 'meshlens',
          args: ['serve', '--workspace', '${workspaceFolder}'],
        },
      },
    });
    expect(json(dir, '.mcp.json')).toEqual({
      mcpServers: { meshlens: { command: 'meshlens', args: ['serve'] } },
    });
  });
});
