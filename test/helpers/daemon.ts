import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import Database from 'better-sqlite3';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { daemonLocationOf } from '../../src/cli/daemon-location.js';
import type { DaemonLocation } from '../../src/server/daemon/socket-path.js';
import { CLI, tempEnv } from './cli.js';
import { waitFor } from './engine.js';
import { textOf } from './mcp.js';

/** A one-file workspace whose `serve` attaches to a daemon: the opt-out of the test config cleared. */
/** The version a built CLI and its daemon say in their hello: the package's. */
export const PACKAGE_VERSION = (
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as {
    version: string;
  }
).version;

/** The session of each audit record in the workspace's audit database, oldest first. */
export function auditSessions(ws: DaemonWorkspace): string[] {
  const db = new Database(ws.env.MESHLENS_AUDIT_DB, { readonly: true });
  try {
    return (db.prepare('SELECT session FROM audit_log ORDER BY id').all() as { session: string }[]).map(
      (row) => row.session,
    );
  } finally {
    db.close();
  }
}

export interface DaemonWorkspace {
  readonly dir: string;
  readonly env: Record<string, string>;
  /** The daemon's folder, as both the CLI and the test name it. */
  readonly location: DaemonLocation;
}

export function daemonWorkspace(idleMinutes = 0.5): DaemonWorkspace {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'meshlens-daemon-ws-')));
  mkdirSync(path.join(dir, 'svc'));
  writeFileSync(path.join(dir, 'svc', 'main.go'), 'package main\n\nfunc main() {}\n');
  writeFileSync(
    path.join(dir, 'meshlens.toml'),
    `[workspace]\nname = "daemon"\nroots = ["svc"]\n\n[server]\ndaemon_idle_minutes = ${idleMinutes}\n`,
  );
  // No runtime folder: the socket goes under the test's own cache folder.
  const env = tempEnv({ MESHLENS_NO_DAEMON: '', XDG_RUNTIME_DIR: '' });
  const location = daemonLocationOf(
    {
      workspaceDir: dir,
      configFile: path.join(dir, 'meshlens.toml'),
      watch: true,
      allowOutsideWorkspace: false,
    },
    env,
  );
  return { dir, env, location };
}

export interface StdioSession {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  /** Calls a tool of the flat surface and returns its text. */
  call(name: string, args?: Record<string, unknown>): Promise<string>;
  stderr(): string;
}

/** `meshlens serve --surface flat` (the built CLI) over stdio, with an SDK client. */
export async function connectServe(
  ws: DaemonWorkspace,
  extraArgs: readonly string[] = [],
): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--surface', 'flat', '--workspace', ws.dir, ...extraArgs],
    env: ws.env,
    cwd: ws.dir,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'daemon-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    transport,
    call: async (name, args = {}) => textOf(await client.callTool({ name, arguments: args })),
    stderr: () => stderr,
  };
}

/** Polls `index_status` until a snapshot is installed; returns the status text. */
export async function readyStatus(session: StdioSession): Promise<string> {
  let status = '';
  await waitFor('the first snapshot', async () => {
    status = await session.call('index_status');
    return /Snapshot generation \d+, ready/.test(status);
  });
  return status;
}

export function pidFileOf(ws: DaemonWorkspace): number | undefined {
  if (!existsSync(ws.location.pidFile)) return undefined;
  return Number(readFileSync(ws.location.pidFile, 'utf8').trim());
}

/** A process that exists and is not a zombie (a detached daemon's parent may never reap it). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

export const canListProcesses = existsSync('/proc/self/cmdline');

/** The pids of the running `meshlens daemon` processes serving this workspace (read from /proc). */
export function liveDaemons(ws: DaemonWorkspace): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const workspace = args[args.indexOf('--workspace') + 1];
    if (args.includes('daemon') && args.includes(CLI) && workspace !== undefined) {
      if (path.resolve(workspace) === path.resolve(ws.dir) && isRunning(Number(entry)))
        pids.push(Number(entry));
    }
  }
  return pids.sort((a, b) => a - b);
}

/** Ends every daemon of the workspace (SIGKILL) and removes its folders. */
export function removeDaemonWorkspace(ws: DaemonWorkspace): void {
  const pids = new Set([...(canListProcesses ? liveDaemons(ws) : []), pidFileOf(ws) ?? 0]);
  for (const pid of pids) {
    if (pid > 0 && isRunning(pid)) process.kill(pid, 'SIGKILL');
  }
  rmSync(ws.dir, { recursive: true, force: true });
  rmSync(ws.env.MESHLENS_CACHE_DIR as string, { recursive: true, force: true });
}

/**
 * A stand-in daemon on the workspace's socket that says hello with `version` and hands each line it gets to
 * `onLine` (nothing is answered unless `onLine` does). Close its server when done.
 */
export async function listenAsDaemon(
  ws: DaemonWorkspace,
  version: string,
  onLine: (line: string, socket: Socket) => void = () => undefined,
): Promise<{ server: Server; sockets: Socket[] }> {
  mkdirSync(ws.location.dir, { recursive: true, mode: 0o700 });
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.write(`${JSON.stringify({ meshlens: 'daemon', version, pid: process.pid })}\n`);
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let i = buffer.indexOf('\n'); i !== -1; i = buffer.indexOf('\n')) {
        onLine(buffer.slice(0, i), socket);
        buffer = buffer.slice(i + 1);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(ws.location.socket, resolve));
  return { server, sockets };
}
