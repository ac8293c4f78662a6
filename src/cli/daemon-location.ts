import { realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, configFileOf } from '../core/config-file.js';
import { daemonLocation, type DaemonLocation } from '../server/daemon/socket-path.js';
import { auditDbPath, cacheRoot } from '../store/cache-paths.js';
import { keysDbPath } from '../store/keys-paths.js';
import { dataRoot } from '../store/notes-paths.js';

type Env = Readonly<Record<string, string | undefined>>;

/** What a `serve` process and the daemon it starts both know: enough to name the same socket. */
export interface DaemonTarget {
  /** The workspace folder as given (`--workspace`, else the current folder), made absolute. */
  readonly workspaceDir: string;
  /** The config file the config loader found, if any. */
  readonly configFile: string | undefined;
  readonly watch: boolean;
  readonly allowOutsideWorkspace: boolean;
}

/** What decides a client's daemon, as given on its command line. */
export interface TargetArgs {
  readonly workspace?: string;
  readonly config?: string;
  readonly watch: boolean;
  readonly allowOutsideWorkspace: boolean;
}

/**
 * The workspace and config file as the config loader will find them from `cwd`; undefined when it would
 * refuse them (no such folder or file), which the client's own process then reports.
 */
export function daemonTargetOf(args: TargetArgs, cwd: string): DaemonTarget | undefined {
  const workspaceDir = path.resolve(cwd, args.workspace ?? '.');
  if (!statSync(workspaceDir, { throwIfNoEntry: false })?.isDirectory()) return undefined;
  try {
    const configFile = configFileOf(
      {
        cwd,
        ...(args.config ? { configPath: args.config } : {}),
        ...(args.workspace ? { workspaceDir: args.workspace } : {}),
      },
      workspaceDir,
    );
    return { workspaceDir, configFile, watch: args.watch, allowOutsideWorkspace: args.allowOutsideWorkspace };
  } catch (error) {
    if (error instanceof ConfigError) return undefined;
    throw error;
  }
}

const canonical = (file: string): string => {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
};

/**
 * The daemon's folder for this workspace, config and environment. The environment settings that change
 * where caches, audit records, notes and keys go, and the serve flags that change what is indexed, are part
 * of the key: clients that differ in any of them get daemons of their own.
 */
export function daemonLocationOf(target: DaemonTarget, env: Env = process.env): DaemonLocation {
  return daemonLocation(
    {
      workspaceDir: canonical(target.workspaceDir),
      configFile: target.configFile === undefined ? undefined : canonical(target.configFile),
      cacheDir: cacheRoot(env),
      settings: {
        audit: auditDbPath(env),
        data: dataRoot(env),
        keys: keysDbPath(env),
        workspaceRoot: env.WORKSPACE_ROOT ?? '',
        grammars: env.MESHLENS_GRAMMARS_DIR ?? '',
        watch: String(target.watch),
        allowOutsideWorkspace: String(target.allowOutsideWorkspace),
      },
    },
    { runtimeDir: env.XDG_RUNTIME_DIR, tmpDir: os.tmpdir(), uid: process.getuid?.() ?? 0 },
  );
}

/** The `meshlens daemon` arguments that make the daemon load the same config as the client did. */
export function daemonArgv(target: DaemonTarget): string[] {
  return [
    'daemon',
    '--workspace',
    canonical(target.workspaceDir),
    ...(target.configFile === undefined ? [] : ['--config', canonical(target.configFile)]),
    ...(target.watch ? [] : ['--no-watch']),
    ...(target.allowOutsideWorkspace ? ['--allow-outside-workspace'] : []),
  ];
}
