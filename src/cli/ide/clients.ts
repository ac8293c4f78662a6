import path from 'node:path';
import type { PathStyle } from './launcher.js';
import type { JsonObject } from './result.js';

/**
 * The MCP clients `init --write-ide-config` knows, where each keeps its servers and how its files may name
 * paths. Project clients keep their file in the workspace; user clients keep one file for every project in
 * the user's home, which meshlens writes only when the client is named with `--ide`.
 */
export type ConfigFormat =
  | { readonly kind: 'jsonc'; readonly serversKey: string; readonly fixed?: JsonObject }
  | { readonly kind: 'toml' }
  | { readonly kind: 'yaml' };

interface ClientBase {
  readonly name: string;
  readonly label: string;
  readonly format: ConfigFormat;
}

export interface ProjectClient extends ClientBase {
  readonly scope: 'project';
  /** The config file, '/'-separated, relative to the workspace folder. */
  readonly file: string;
  /** Written without `--ide`: always, or when this folder of the workspace exists (the client is in use). */
  readonly byDefault: 'always' | { readonly whenFolder: string };
  readonly style: PathStyle;
}

/** A user-level file and the client's own folder, whose existence says the client is installed. */
export interface UserFile {
  readonly file: string;
  readonly folder: string;
}

/** The folders user-level files are found from (taken from the environment, so tests can point them elsewhere). */
export interface UserDirs {
  readonly home: string;
  readonly platform: NodeJS.Platform;
  readonly xdgConfigHome?: string;
  readonly appData?: string;
}

export interface UserClient extends ClientBase {
  readonly scope: 'user';
  readonly files: (dirs: UserDirs) => readonly UserFile[];
}

export type IdeClient = ProjectClient | UserClient;

const MCP_SERVERS: ConfigFormat = { kind: 'jsonc', serversKey: 'mcpServers' };

/** Where VS Code and its forks keep each extension's global storage, per editor. */
function editorUserDir(dirs: UserDirs, editor: string): string {
  if (dirs.platform === 'darwin')
    return path.join(dirs.home, 'Library', 'Application Support', editor, 'User');
  if (dirs.platform === 'win32')
    return path.join(dirs.appData ?? path.join(dirs.home, 'AppData', 'Roaming'), editor, 'User');
  return path.join(dirs.xdgConfigHome || path.join(dirs.home, '.config'), editor, 'User');
}

// Cline is an extension: its settings live in the global storage of whichever editor it is installed in.
const CLINE_EDITORS = ['Code', 'Code - Insiders', 'VSCodium', 'Cursor', 'Windsurf'];
const CLINE_EXTENSION = 'saoudrizwan.claude-dev';

function clineFiles(dirs: UserDirs): UserFile[] {
  return CLINE_EDITORS.map((editor) => {
    const folder = path.join(editorUserDir(dirs, editor), 'globalStorage', CLINE_EXTENSION);
    return { folder, file: path.join(folder, 'settings', 'cline_mcp_settings.json') };
  });
}

export const IDE_CLIENTS: readonly IdeClient[] = [
  {
    name: 'claude',
    label: 'Claude Code',
    scope: 'project',
    file: '.mcp.json',
    byDefault: 'always',
    style: 'cwd',
    format: MCP_SERVERS,
  },
  {
    name: 'cursor',
    label: 'Cursor',
    scope: 'project',
    file: '.cursor/mcp.json',
    byDefault: 'always',
    style: 'variable',
    format: MCP_SERVERS,
  },
  {
    name: 'vscode',
    label: 'VS Code',
    scope: 'project',
    file: '.vscode/mcp.json',
    byDefault: 'always',
    style: 'variable',
    format: { kind: 'jsonc', serversKey: 'servers', fixed: { type: 'stdio' } },
  },
  {
    name: 'codex',
    label: 'Codex',
    scope: 'project',
    file: '.codex/config.toml',
    byDefault: { whenFolder: '.codex' },
    style: 'cwd',
    format: { kind: 'toml' },
  },
  {
    name: 'gemini',
    label: 'Gemini CLI',
    scope: 'project',
    file: '.gemini/settings.json',
    byDefault: { whenFolder: '.gemini' },
    style: 'cwd',
    format: MCP_SERVERS,
  },
  {
    name: 'zed',
    label: 'Zed',
    scope: 'project',
    file: '.zed/settings.json',
    byDefault: { whenFolder: '.zed' },
    style: 'cwd',
    format: { kind: 'jsonc', serversKey: 'context_servers' },
  },
  {
    name: 'continue',
    label: 'Continue',
    scope: 'project',
    file: '.continue/mcpServers/meshlens.yaml',
    byDefault: { whenFolder: '.continue' },
    style: 'cwd',
    format: { kind: 'yaml' },
  },
  {
    name: 'windsurf',
    label: 'Windsurf',
    scope: 'user',
    format: MCP_SERVERS,
    files: (dirs) => {
      const folder = path.join(dirs.home, '.codeium', 'windsurf');
      return [{ folder, file: path.join(folder, 'mcp_config.json') }];
    },
  },
  { name: 'cline', label: 'Cline', scope: 'user', format: MCP_SERVERS, files: clineFiles },
];

export const IDE_CLIENT_NAMES = IDE_CLIENTS.map((client) => client.name);

/** The clients a `--ide a,b` value names, or what is wrong with it. */
export function clientsNamed(value: string): { clients: IdeClient[] } | { error: string } {
  const names = value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  if (names.length === 0) return { error: `--ide needs client names: ${IDE_CLIENT_NAMES.join(', ')}` };
  const unknown = names.find((name) => !IDE_CLIENT_NAMES.includes(name));
  if (unknown !== undefined)
    return { error: `unknown --ide client "${unknown}"; known clients: ${IDE_CLIENT_NAMES.join(', ')}` };
  return { clients: IDE_CLIENTS.filter((client) => names.includes(client.name)) };
}
