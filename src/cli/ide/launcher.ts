import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { OwnedCommand } from './server-command.js';

/**
 * How the running meshlens can be started again, from the most portable to the least:
 * - `workspace`: its script lives in the workspace (a dependency in node_modules, or a checkout of meshlens
 *   itself), so a path relative to the workspace folder names it on every machine;
 * - `path`: the `meshlens` command on PATH is this same script (a global install);
 * - `absolute`: neither; the script's absolute path works on this machine only.
 */
export type Launcher =
  | { readonly kind: 'workspace'; readonly relative: string }
  | { readonly kind: 'path' }
  | { readonly kind: 'absolute'; readonly script: string };

/**
 * How a client's file may name the workspace:
 * - `variable`: the client substitutes `${workspaceFolder}` (VS Code, Cursor);
 * - `cwd`: the client starts the server in the project folder, so relative paths and meshlens's own search
 *   for meshlens.toml from the current folder upward find it (Claude Code, Codex, Gemini CLI, Zed, Continue);
 * - `absolute`: a user-level file shared by every project, so only absolute paths (Windsurf, Cline).
 */
export type PathStyle = 'variable' | 'cwd' | 'absolute';

const WORKSPACE_VARIABLE = '${workspaceFolder}';

const toPosix = (relative: string): string => relative.split(path.sep).join('/');

function insideWorkspace(workspaceDir: string, file: string): string | undefined {
  const relative = path.relative(workspaceDir, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative;
}

const realpathOrUndefined = (file: string): string | undefined => {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
};

/**
 * The script as the workspace's own node_modules names it: run through `node_modules/.bin/meshlens` or a
 * pnpm store, the package is still `node_modules/meshlens/dist/meshlens.js` next to that node_modules folder.
 */
function packageScript(workspaceDir: string, invoked: string, real: string): string | undefined {
  const relative = insideWorkspace(workspaceDir, invoked);
  if (relative === undefined) return undefined;
  const parts = relative.split(path.sep);
  const last = parts.lastIndexOf('node_modules');
  if (last < 0) return undefined;
  const candidate = path.join(workspaceDir, ...parts.slice(0, last + 1), 'meshlens', 'dist', 'meshlens.js');
  return realpathOrUndefined(candidate) === real ? candidate : undefined;
}

/** True when a `meshlens` command on PATH runs this very script. */
function onPath(real: string, pathVariable: string | undefined): boolean {
  for (const dir of (pathVariable ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, 'meshlens');
    if (existsSync(candidate) && realpathOrUndefined(candidate) === real) return true;
  }
  return false;
}

/** How `cliPath` (the running CLI script) can be started by a client of `workspaceDir` (a canonical path). */
export function detectLauncher(
  cliPath: string,
  workspaceDir: string,
  pathVariable: string | undefined,
): Launcher {
  const invoked = path.resolve(cliPath);
  const real = realpathSync(invoked);
  const script = packageScript(workspaceDir, invoked, real) ?? real;
  const relative = insideWorkspace(workspaceDir, script);
  if (relative !== undefined) return { kind: 'workspace', relative: toPosix(relative) };
  if (onPath(real, pathVariable)) return { kind: 'path' };
  return { kind: 'absolute', script: real };
}

function workspaceArgs(style: PathStyle, workspaceDir: string): string[] {
  if (style === 'variable') return ['--workspace', WORKSPACE_VARIABLE];
  if (style === 'absolute') return ['--workspace', workspaceDir];
  return [];
}

function scriptPath(launcher: Launcher, style: PathStyle, workspaceDir: string): string {
  if (launcher.kind === 'absolute') return launcher.script;
  if (launcher.kind !== 'workspace') throw new Error('a PATH launcher has no script');
  if (style === 'variable') return `${WORKSPACE_VARIABLE}/${launcher.relative}`;
  if (style === 'absolute') return path.join(workspaceDir, ...launcher.relative.split('/'));
  return launcher.relative;
}

/** The command meshlens owns in a client's entry, for that client's way of naming paths. */
export function ownedCommand(launcher: Launcher, style: PathStyle, workspaceDir: string): OwnedCommand {
  const workspace = workspaceArgs(style, workspaceDir);
  if (launcher.kind === 'path') return { command: 'meshlens', launch: [], workspace };
  return { command: 'node', launch: [scriptPath(launcher, style, workspaceDir)], workspace };
}
