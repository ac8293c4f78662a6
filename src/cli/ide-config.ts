import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The name the server is registered under in every client config. */
export const IDE_SERVER_NAME = 'meshlens';

/** The MCP client configs `init --write-ide-config` maintains, and the key each keeps its servers under. */
export const IDE_CONFIGS = [
  { file: '.mcp.json', key: 'mcpServers', vscode: false },
  { file: '.cursor/mcp.json', key: 'mcpServers', vscode: false },
  { file: '.vscode/mcp.json', key: 'servers', vscode: true },
] as const;

export type IdeConfigStatus = 'created' | 'updated' | 'unchanged' | 'invalid';

export interface IdeConfigResult {
  /** Absolute path of the file. */
  readonly file: string;
  readonly status: IdeConfigStatus;
  readonly detail?: string;
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Merges the meshlens entry into one client config. Everything else in the file (other servers, unknown
 * keys, their order) is kept; keys the user added to the meshlens entry itself (e.g. `env`) are kept too.
 * A file that is not a JSON object is never rewritten: losing a user's other servers is worse than a
 * missing entry.
 */
export function mergeIdeConfig(file: string, key: string, entry: JsonObject): IdeConfigResult {
  let document: JsonObject = {};
  let before: string | undefined;
  if (existsSync(file)) {
    before = readFileSync(file, 'utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(before);
    } catch (error) {
      return { file, status: 'invalid', detail: `not valid JSON (${(error as Error).message})` };
    }
    if (!isObject(parsed)) return { file, status: 'invalid', detail: 'not a JSON object' };
    document = parsed;
  }
  const servers = document[key] ?? {};
  if (!isObject(servers)) return { file, status: 'invalid', detail: `\`${key}\` is not an object` };
  const previous = servers[IDE_SERVER_NAME];
  const merged = { ...(isObject(previous) ? previous : {}), ...entry };
  const next = { ...document, [key]: { ...servers, [IDE_SERVER_NAME]: merged } };
  const text = `${JSON.stringify(next, null, 2)}\n`;
  // Same content (whatever its formatting): the file is not touched at all, so a re-run changes nothing.
  if (before !== undefined && JSON.stringify(previous) === JSON.stringify(merged))
    return { file, status: 'unchanged' };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return { file, status: before === undefined ? 'created' : 'updated' };
}

/** Registers `node <serverArgs…>` as the meshlens server in every client config of the workspace. */
export function writeIdeConfigs(workspaceDir: string, serverArgs: readonly string[]): IdeConfigResult[] {
  return IDE_CONFIGS.map(({ file, key, vscode }) => {
    const entry: JsonObject = {
      ...(vscode ? { type: 'stdio' } : {}),
      command: 'node',
      args: [...serverArgs],
    };
    return mergeIdeConfig(path.join(workspaceDir, ...file.split('/')), key, entry);
  });
}
