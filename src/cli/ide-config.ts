import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  IDE_CLIENTS,
  type IdeClient,
  type ProjectClient,
  type UserClient,
  type UserDirs,
} from './ide/clients.js';
import { mergeJsoncConfig } from './ide/jsonc-config.js';
import { detectLauncher, ownedCommand, type Launcher, type PathStyle } from './ide/launcher.js';
import type { IdeConfigResult } from './ide/result.js';
import { IDE_SERVER_NAME, mergeServerCommand, type OwnedCommand } from './ide/server-command.js';
import { mergeCodexToml } from './ide/toml-config.js';
import { mergeContinueBlock } from './ide/yaml-config.js';

export { IDE_SERVER_NAME } from './ide/server-command.js';
export type { IdeConfigResult, IdeConfigStatus } from './ide/result.js';

export interface IdeClientResult extends IdeConfigResult {
  readonly client: IdeClient;
  /** True for a user-level file, outside the workspace. */
  readonly outside: boolean;
}

export interface IdeConfigOutcome {
  readonly launcher: Launcher;
  readonly results: readonly IdeClientResult[];
}

export interface IdeConfigRequest {
  /** The canonical workspace folder. */
  readonly workspaceDir: string;
  /** The running CLI script. */
  readonly cliPath: string;
  /** The clients named with `--ide`; undefined chooses the default ones. */
  readonly clients?: readonly IdeClient[];
  /** PATH, HOME, XDG_CONFIG_HOME and APPDATA are read from it. */
  readonly env: NodeJS.ProcessEnv;
}

/** Without `--ide`: the project clients written always, and those whose folder the workspace already has. */
export function defaultClients(workspaceDir: string): IdeClient[] {
  return IDE_CLIENTS.filter(
    (client) =>
      client.scope === 'project' &&
      (client.byDefault === 'always' || existsSync(path.join(workspaceDir, client.byDefault.whenFolder))),
  );
}

function userDirs(env: NodeJS.ProcessEnv): UserDirs {
  return {
    home: env.HOME || env.USERPROFILE || os.homedir(),
    platform: process.platform,
    ...(env.XDG_CONFIG_HOME ? { xdgConfigHome: env.XDG_CONFIG_HOME } : {}),
    ...(env.APPDATA ? { appData: env.APPDATA } : {}),
  };
}

function writeProjectClient(
  client: ProjectClient,
  workspaceDir: string,
  owned: OwnedCommand,
): IdeConfigResult {
  const file = path.join(workspaceDir, ...client.file.split('/'));
  if (client.format.kind === 'toml') return mergeCodexToml(file, owned);
  if (client.format.kind === 'yaml') return mergeContinueBlock(file, owned);
  return mergeJsoncConfig({ file, ...client.format }, owned);
}

/** The entry to add by hand when the client's folder is not there: a user's file is never created from nothing. */
function snippet(client: UserClient, owned: OwnedCommand): string {
  const { command, args } = mergeServerCommand(owned)!;
  const serversKey = client.format.kind === 'jsonc' ? client.format.serversKey : 'mcpServers';
  return JSON.stringify({ [serversKey]: { [IDE_SERVER_NAME]: { command, args } } }, null, 2);
}

function writeUserClient(client: UserClient, dirs: UserDirs, owned: OwnedCommand): IdeConfigResult[] {
  const files = client.files(dirs);
  const present = files.filter(({ folder }) => existsSync(folder));
  if (present.length === 0) {
    const first = files[0]!;
    const detail = `${first.folder} was not found (is ${client.label} installed?); nothing was written. To register meshlens, add this to ${first.file}:\n${snippet(client, owned)}`;
    return [{ file: first.file, status: 'skipped', detail }];
  }
  if (client.format.kind !== 'jsonc') throw new Error(`${client.name}: user-level files are JSON`);
  const format = client.format;
  return present.map(({ file }) => mergeJsoncConfig({ file, ...format }, owned));
}

/**
 * Registers the running meshlens with MCP clients: the default project clients, or those named with `--ide`.
 * Each file gets the most portable form its client supports (see `PathStyle`); user-level files, outside the
 * workspace, are written only for clients named explicitly, and only where the client is installed.
 */
export function writeIdeConfigs(request: IdeConfigRequest): IdeConfigOutcome {
  const { workspaceDir, env } = request;
  const launcher = detectLauncher(request.cliPath, workspaceDir, env.PATH);
  const owned = (style: PathStyle) => ownedCommand(launcher, style, workspaceDir);
  const results: IdeClientResult[] = [];
  for (const client of request.clients ?? defaultClients(workspaceDir)) {
    if (client.scope === 'project') {
      results.push({
        ...writeProjectClient(client, workspaceDir, owned(client.style)),
        client,
        outside: false,
      });
    } else {
      for (const result of writeUserClient(client, userDirs(env), owned('absolute')))
        results.push({ ...result, client, outside: true });
    }
  }
  return { launcher, results };
}
