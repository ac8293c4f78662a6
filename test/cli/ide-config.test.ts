import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { CLI, runCli } from '../helpers/cli.js';

// The CLI under test lives outside every temp workspace and is not on PATH: entries name it absolutely.
const SCRIPT = realpathSync(CLI);

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A canonical temp workspace holding `files` ('/'-separated paths to their text). */
function workspace(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'meshlens-ide-')));
  temps.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    const target = path.join(dir, ...rel.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  return dir;
}

const read = (dir: string, rel: string): string => readFileSync(path.join(dir, ...rel.split('/')), 'utf8');

function init(dir: string, ide: string) {
  const result = runCli(['init', '--ide', ide, '--workspace', dir]);
  expect(result.status).toBe(0);
  return result;
}

describe('init --ide: each client’s own format, its comments, other servers and the user’s arguments survive', () => {
  test('VS Code: JSON with comments and trailing commas, `servers`, `${workspaceFolder}`', () => {
    const dir = workspace({
      '.vscode/mcp.json': `{
  // Servers shared by the team.
  "inputs": [],
  "servers": {
    "github": { "type": "http", "url": "https://api.example.com/mcp" }, // remote
    "meshlens": {
      "type": "stdio",
      "command": "node",
      "args": ["/old/place/meshlens.js", "serve", "--workspace", "/old/ws", "--watch"], // watch while editing
      "env": { "MESHLENS_LOG": "debug" },
    },
  },
}
`,
    });
    const result = init(dir, 'vscode');
    expect(result.stderr).toContain(`${path.join(dir, '.vscode', 'mcp.json')}: updated`);
    expect(read(dir, '.vscode/mcp.json')).toBe(`{
  // Servers shared by the team.
  "inputs": [],
  "servers": {
    "github": { "type": "http", "url": "https://api.example.com/mcp" }, // remote
    "meshlens": {
      "type": "stdio",
      "command": "node",
      "args": ["${SCRIPT}", "serve", "--workspace", "\${workspaceFolder}", "--watch"], // watch while editing
      "env": { "MESHLENS_LOG": "debug" },
    },
  },
}
`);
  });

  test('Cursor: a new entry beside the others, indented with the file’s tabs', () => {
    const dir = workspace({
      '.cursor/mcp.json':
        '{\n\t"mcpServers": {\n\t\t"docs": {\n\t\t\t"command": "docs-server",\n\t\t\t"args": ["--port", "7"]\n\t\t}\n\t}\n}\n',
    });
    init(dir, 'cursor');
    expect(read(dir, '.cursor/mcp.json')).toBe(
      '{\n\t"mcpServers": {\n\t\t"docs": {\n\t\t\t"command": "docs-server",\n\t\t\t"args": ["--port", "7"]\n\t\t},\n' +
        `\t\t"meshlens": {\n\t\t\t"command": "node",\n\t\t\t"args": [\n\t\t\t\t"${SCRIPT}",\n\t\t\t\t"serve",\n` +
        '\t\t\t\t"--workspace",\n\t\t\t\t"${workspaceFolder}"\n\t\t\t]\n\t\t}\n\t}\n}\n',
    );
  });

  test('Claude Code: .mcp.json runs in the project folder, so no --workspace; user keys stay', () => {
    const dir = workspace({
      '.mcp.json': JSON.stringify(
        {
          mcpServers: {
            meshlens: {
              type: 'stdio',
              command: 'node',
              args: ['/old/meshlens.js', 'serve', '--workspace', '/old'],
              env: { A: '1' },
            },
            other: { command: 'other-server', args: ['--x'] },
          },
        },
        null,
        4,
      ),
    });
    init(dir, 'claude');
    expect(JSON.parse(read(dir, '.mcp.json'))).toEqual({
      mcpServers: {
        meshlens: { type: 'stdio', command: 'node', args: [SCRIPT, 'serve'], env: { A: '1' } },
        other: { command: 'other-server', args: ['--x'] },
      },
    });
    expect(read(dir, '.mcp.json')).toContain(
      `        "meshlens": {\n            "type": "stdio",\n            "command": "node",\n            "args": [\n                "${SCRIPT}",\n                "serve"\n            ],`,
    );
  });

  test('Codex: the [mcp_servers.meshlens] table of .codex/config.toml is edited in place, comments kept', () => {
    const dir = workspace({
      '.codex/config.toml': `# Project settings for Codex.
model = "o4-mini"

[mcp_servers.meshlens]
# Started by Codex in the project folder.
command = "node" # Node on PATH
args = [
  "/old/meshlens.js",
  "--config", "alt.toml",
  "serve",
  "--watch",
]
startup_timeout_sec = 20

[mcp_servers.meshlens.env]
MESHLENS_LOG = "debug"

[mcp_servers.docs]
command = "docs-server" # the docs
`,
    });
    init(dir, 'codex');
    expect(read(dir, '.codex/config.toml')).toBe(`# Project settings for Codex.
model = "o4-mini"

[mcp_servers.meshlens]
# Started by Codex in the project folder.
command = "node" # Node on PATH
args = [
  "${SCRIPT}",
  "--config",
  "alt.toml",
  "serve",
  "--watch",
]
startup_timeout_sec = 20

[mcp_servers.meshlens.env]
MESHLENS_LOG = "debug"

[mcp_servers.docs]
command = "docs-server" # the docs
`);
  });

  test('Codex: a config without meshlens gets the table appended', () => {
    const dir = workspace({ '.codex/config.toml': '# mine\n[mcp_servers.docs]\ncommand = "docs-server"\n' });
    init(dir, 'codex');
    expect(read(dir, '.codex/config.toml')).toBe(
      `# mine\n[mcp_servers.docs]\ncommand = "docs-server"\n\n[mcp_servers.meshlens]\ncommand = "node"\nargs = ["${SCRIPT}", "serve"]\n`,
    );
    expect(parseToml(read(dir, '.codex/config.toml'))).toEqual({
      mcp_servers: {
        docs: { command: 'docs-server' },
        meshlens: { command: 'node', args: [SCRIPT, 'serve'] },
      },
    });
  });

  test('Gemini CLI: .gemini/settings.json keeps its other settings and comments', () => {
    const dir = workspace({
      '.gemini/settings.json': `{
  // Project settings.
  "general": { "vimMode": true },
  "mcpServers": {
    "pythonTools": { "command": "python", "args": ["-m", "tools"], "trust": false }
  }
}
`,
    });
    init(dir, 'gemini');
    expect(read(dir, '.gemini/settings.json')).toBe(`{
  // Project settings.
  "general": { "vimMode": true },
  "mcpServers": {
    "pythonTools": { "command": "python", "args": ["-m", "tools"], "trust": false },
    "meshlens": {
      "command": "node",
      "args": [
        "${SCRIPT}",
        "serve"
      ]
    }
  }
}
`);
  });

  test('Zed: `context_servers` is added to .zed/settings.json, the rest of the settings untouched', () => {
    const dir = workspace({
      '.zed/settings.json': `// Folder-specific settings
{
  "tab_size": 4,
  "format_on_save": "on", // always
}
`,
    });
    init(dir, 'zed');
    expect(read(dir, '.zed/settings.json')).toBe(`// Folder-specific settings
{
  "tab_size": 4,
  "format_on_save": "on", // always
  "context_servers": {
    "meshlens": {
      "command": "node",
      "args": [
        "${SCRIPT}",
        "serve"
      ]
    }
  },
}
`);
  });

  test('Continue: its block file keeps comments, other servers and the user’s arguments and env', () => {
    const dir = workspace({
      '.continue/mcpServers/meshlens.yaml': `# Local tools
name: Local tools
version: 0.0.1
schema: v1
mcpServers:
  - name: Browser search # playwright
    command: npx
    args:
      - "@playwright/mcp@latest"
  - name: meshlens
    command: node
    args:
      - /old/meshlens.js
      - serve
      - --watch
    env:
      MESHLENS_LOG: debug
`,
    });
    init(dir, 'continue');
    expect(read(dir, '.continue/mcpServers/meshlens.yaml')).toBe(`# Local tools
name: Local tools
version: 0.0.1
schema: v1
mcpServers:
  - name: Browser search # playwright
    command: npx
    args:
      - "@playwright/mcp@latest"
  - name: meshlens
    command: node
    args:
      - ${SCRIPT}
      - serve
      - --watch
    env:
      MESHLENS_LOG: debug
`);
  });

  test('Continue: a new block file has the block metadata and one server', () => {
    const dir = workspace({ '.continue/config.yaml': 'name: mine\n' });
    init(dir, 'continue');
    expect(parseYaml(read(dir, '.continue/mcpServers/meshlens.yaml'))).toEqual({
      name: 'meshlens',
      version: '0.0.1',
      schema: 'v1',
      mcpServers: [{ name: 'meshlens', command: 'node', args: [SCRIPT, 'serve'] }],
    });
    expect(read(dir, '.continue/config.yaml')).toBe('name: mine\n');
  });
});
