import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createConnection, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';
import {
  canListProcesses,
  connectServe,
  daemonWorkspace,
  isRunning,
  listenAsDaemon,
  liveDaemons,
  pidFileOf,
  readyStatus,
  removeDaemonWorkspace,
  auditSessions,
  type DaemonWorkspace,
  PACKAGE_VERSION as VERSION,
} from '../helpers/daemon.js';
import { waitFor } from '../helpers/engine.js';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

const workspaces: DaemonWorkspace[] = [];
const fakes: Server[] = [];

function workspace(idleMinutes?: number): DaemonWorkspace {
  const ws = daemonWorkspace(idleMinutes);
  workspaces.push(ws);
  return ws;
}

afterEach(() => {
  for (const fake of fakes.splice(0)) fake.close();
  for (const ws of workspaces.splice(0)) removeDaemonWorkspace(ws);
});

async function fakeDaemon(
  ws: DaemonWorkspace,
  version: string,
  onLine?: (line: string, socket: Socket) => void,
): Promise<{ server: Server; sockets: Socket[] }> {
  const fake = await listenAsDaemon(ws, version, onLine);
  fakes.push(fake.server);
  return fake;
}

/** `serve` spawned with raw JSON-RPC lines on stdin and stdout. */
function spawnRaw(ws: DaemonWorkspace) {
  const child = spawn(process.execPath, [CLI, 'serve', '--surface', 'flat', '--workspace', ws.dir], {
    env: ws.env,
    cwd: ws.dir,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  let stderr = '';
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffer += chunk;
    for (let i = buffer.indexOf('\n'); i !== -1; i = buffer.indexOf('\n')) {
      lines.push(JSON.parse(buffer.slice(0, i)) as Record<string, unknown>);
      buffer = buffer.slice(i + 1);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const answer = async (id: unknown) => {
    await waitFor(`the answer to ${JSON.stringify(id)}`, () => lines.some((line) => line.id === id));
    return lines.find((line) => line.id === id) as Record<string, unknown>;
  };
  return { child, lines, send, answer, stderr: () => stderr };
}

const refused = (socket: string) =>
  new Promise<boolean>((resolve) => {
    const probe = createConnection(socket);
    probe.once('connect', () => (probe.destroy(), resolve(false)));
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });

describe('serve attaches to one daemon per workspace (built CLI, real sockets)', () => {
  it('two clients started at once share one daemon, one index and a private socket', async () => {
    const ws = workspace();
    const [a, b] = await Promise.all([connectServe(ws), connectServe(ws)]);
    await readyStatus(a);
    const pid = pidFileOf(ws);
    expect(pid).toBeGreaterThan(0);
    if (canListProcesses) expect(liveDaemons(ws)).toEqual([pid]);

    expect(statSync(ws.location.dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.dirname(ws.location.dir)).mode & 0o777).toBe(0o700);
    const socket = statSync(ws.location.socket);
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o777).toBe(0o600);
    expect(ws.location.socket.startsWith(path.join(ws.env.MESHLENS_CACHE_DIR as string, 'daemons'))).toBe(
      true,
    );

    expect(await b.call('index_status')).toContain('Snapshot generation 1, ready.');
    await a.client.close();
    await b.client.close();
    // Both clients' calls were served by the daemon's one registry: every audit record names its session
    // (a client serving in-process would record `stdio-<its pid>-…`).
    await waitFor(
      'the audit records',
      () => existsSync(ws.env.MESHLENS_AUDIT_DB as string) && auditSessions(ws).length >= 2,
    );
    expect(new Set(auditSessions(ws))).toEqual(new Set([`daemon-${pid}`]));
  });

  it('of three daemons started at once, one serves and the others exit 0; SIGTERM ends it cleanly', async () => {
    const ws = workspace();
    const args = [CLI, 'daemon', '--workspace', ws.dir, '--config', path.join(ws.dir, 'meshlens.toml')];
    const children = [1, 2, 3].map(() =>
      spawn(process.execPath, args, { env: ws.env, cwd: ws.dir, stdio: 'ignore' }),
    );
    const exited = children.map((child) => new Promise((resolve) => child.once('exit', resolve)));
    await waitFor('two daemons to leave', () => children.filter((c) => c.exitCode !== null).length === 2);
    expect(children.map((c) => c.exitCode).filter((code) => code !== null)).toEqual([0, 0]);
    const winner = children.find((c) => c.exitCode === null);
    await waitFor('the pid file', () => pidFileOf(ws) !== undefined);
    expect(pidFileOf(ws)).toBe(winner?.pid);
    if (canListProcesses) expect(liveDaemons(ws)).toEqual([winner?.pid]);
    winner?.kill('SIGTERM');
    await Promise.all(exited);
    expect(winner?.exitCode).toBe(0);
    expect(existsSync(ws.location.socket)).toBe(false);
    expect(existsSync(ws.location.pidFile)).toBe(false);
  });

  it('keeps the engine, SQLite, the MCP server and zod out of the stdio process', async () => {
    const ws = workspace();
    const probe = path.resolve(import.meta.dirname, '../fixtures/boot-probe/probe.mjs');
    const child = spawn(process.execPath, ['--import', probe, CLI, 'serve', '--workspace', ws.dir], {
      env: ws.env,
      cwd: ws.dir,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const loaded = await new Promise<string[]>((resolve, reject) => {
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const line = /BOOT-PROBE (.*)/.exec(stderr)?.[1];
        if (line) resolve((JSON.parse(line) as { loaded: string[] }).loaded);
      });
      child.on('exit', () => reject(new Error(`serve exited before answering: ${stderr}`)));
      child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
    });
    child.kill();
    const ours = loaded.filter((url) => url.startsWith('file:') && url.includes('/dist/'));
    const sources = ours.flatMap((url) => {
      const map = JSON.parse(readFileSync(`${new URL(url).pathname}.map`, 'utf8')) as { sources: string[] };
      return map.sources.map((s) => s.replace(/^(\.\.\/)+/, ''));
    });
    expect(sources).toContain('src/server/daemon/thin-client.ts');
    expect(sources.filter((s) => /^src\/(index|ops|render|trust)\//.test(s))).toEqual([]);
    expect(sources).not.toContain('src/server/mcp-server.ts');
    expect(sources.filter((s) => /node_modules\/(@modelcontextprotocol|zod|smol-toml)\//.test(s))).toEqual(
      [],
    );
    expect(loaded.filter((url) => /better-sqlite3|web-tree-sitter|piscina/.test(url))).toEqual([]);
  });

  it('refuses a daemon of another version with a message on stderr, and serves in-process', async () => {
    const ws = workspace();
    const heard: string[] = [];
    await fakeDaemon(ws, '0.0.0-other', (line) => heard.push(line));
    const session = await connectServe(ws);
    expect(session.client.getServerVersion()?.version).toBe(VERSION);
    expect(await readyStatus(session)).toContain('# Index status: workspace `daemon`');
    expect(session.stderr().split('\n')).toContain(
      `meshlens: the daemon for this workspace (pid ${process.pid}) runs version 0.0.0-other, this client is ` +
        `version ${VERSION}: not attaching to it. Serving in this process instead; the old daemon exits once ` +
        `no client is attached (or end it now: kill ${process.pid}).`,
    );
    // The client said nothing to it: no hello, no JSON-RPC.
    expect(heard).toEqual([]);
    await session.client.close();
  });

  it('answers the request a dying daemon held with an error, then replays initialize to a new daemon', async () => {
    const ws = workspace();
    const fake = await fakeDaemon(ws, VERSION, (line, socket) => {
      const message = JSON.parse(line) as { id?: number; method?: string };
      if (message.method === 'initialize') {
        const result = {
          protocolVersion: '2025-06-18',
          capabilities: {},
          serverInfo: { name: 'fake', version: '0' },
        };
        socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n`);
      }
      // Everything else is held, never answered.
    });
    const raw = spawnRaw(ws);
    raw.send(INITIALIZE);
    expect(await raw.answer(1)).toMatchObject({ result: { serverInfo: { name: 'fake' } } });
    raw.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    raw.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'index_status', arguments: {} },
    });
    await waitFor('the held request to reach the fake daemon', () => fake.sockets.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    fake.server.close();
    for (const socket of fake.sockets) socket.destroy();

    expect(await raw.answer(2)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: {
        code: -32603,
        message:
          'The meshlens daemon serving this session stopped before answering this request; the session is ' +
          'being attached to a new daemon. Send the request again.',
      },
    });
    await waitFor('a real daemon', () => pidFileOf(ws) !== undefined, 30_000);
    let status = '';
    for (let id = 3; !status.includes('Snapshot generation 1, ready.'); id++) {
      raw.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'index_status', arguments: {} } });
      status = JSON.stringify(await raw.answer(id));
    }
    // The new daemon's answer to the replayed initialize was swallowed: one answer to id 1, no replay ids.
    expect(raw.lines.filter((line) => line.id === 1)).toHaveLength(1);
    expect(raw.lines.filter((line) => typeof line.id === 'string')).toEqual([]);
    expect(raw.stderr()).toContain(
      'meshlens: the daemon serving this session ended; attaching to a new one.',
    );
    raw.child.stdin.end();
  });

  it(
    'after SIGKILL of the daemon, both attached clients reattach to one new daemon and the audit log verifies',
    { timeout: 60_000 },
    async () => {
      const ws = workspace();
      const a = await connectServe(ws);
      const b = await connectServe(ws);
      await readyStatus(a);
      await readyStatus(b);
      const first = pidFileOf(ws) as number;
      process.kill(first, 'SIGKILL');
      await waitFor('a new daemon', () => {
        const pid = pidFileOf(ws);
        return pid !== undefined && pid !== first && isRunning(pid);
      });
      expect(await readyStatus(a)).toContain('# Index status: workspace `daemon`');
      expect(await readyStatus(b)).toContain('# Index status: workspace `daemon`');
      const second = pidFileOf(ws) as number;
      if (canListProcesses) {
        // Both clients started a daemon; the one that lost the start lock leaves once it sees the winner,
        // which under load can be after both clients are answered. Two that stay would fail here.
        await waitFor('the daemon that lost the start to leave', () => liveDaemons(ws).length === 1, 20_000);
        expect(liveDaemons(ws)).toEqual([second]);
      }
      await a.client.close();
      await b.client.close();
      const verify = runCli(['audit', 'verify'], { env: ws.env });
      expect(verify.stdout).toMatch(/^audit log OK: \d+ rows, head /);
      expect(verify.status).toBe(0);
    },
  );

  it('exits once no client has been attached for daemon_idle_minutes', async () => {
    const ws = workspace(0.03);
    const session = await connectServe(ws);
    await readyStatus(session);
    const pid = pidFileOf(ws) as number;
    await session.client.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Not at once: the idle time (1.8 s) runs from the last client's going.
    expect(isRunning(pid)).toBe(true);
    await waitFor('the idle daemon to exit', () => !isRunning(pid), 15_000);
    expect(existsSync(ws.location.socket)).toBe(false);
    expect(existsSync(ws.location.pidFile)).toBe(false);
    expect(readFileSync(ws.location.logFile, 'utf8')).toContain(`meshlens daemon (pid ${pid}) stopped`);
  });

  it('replaces a stale socket left by a killed daemon', async () => {
    const ws = workspace();
    const first = await connectServe(ws);
    await readyStatus(first);
    await first.client.close();
    const dead = pidFileOf(ws) as number;
    process.kill(dead, 'SIGKILL');
    // Until the last of its threads is gone, a killed process's socket still takes connections.
    await waitFor('the socket to refuse connections', () => refused(ws.location.socket));
    expect(statSync(ws.location.socket).isSocket()).toBe(true);

    const next = await connectServe(ws);
    expect(await readyStatus(next)).toContain('# Index status: workspace `daemon`');
    const pid = pidFileOf(ws);
    expect(pid).not.toBe(dead);
    if (canListProcesses) expect(liveDaemons(ws)).toEqual([pid]);
    await next.client.close();
  });

  it('reports a config error exactly as without a daemon (exit 2)', () => {
    const ws = workspace();
    writeFileSync(path.join(ws.dir, 'meshlens.toml'), '[workspace]\nnmae = "typo"\n');
    const serve = (env: Record<string, string>) =>
      spawnSync(process.execPath, [CLI, 'serve', '--workspace', ws.dir], {
        env,
        input: '',
        encoding: 'utf8',
      });
    const attached = serve(ws.env);
    const inProcess = serve({ ...ws.env, MESHLENS_NO_DAEMON: '1' });
    expect(inProcess.status).toBe(2);
    expect(inProcess.stderr).toContain('unknown key `nmae` in [workspace]');
    expect({ status: attached.status, stderr: attached.stderr }).toEqual({
      status: 2,
      stderr: inProcess.stderr,
    });
  });

  it('serves in-process with --no-daemon or MESHLENS_NO_DAEMON=1', async () => {
    const ws = workspace();
    const flag = await connectServe(ws, ['--no-daemon']);
    expect(await readyStatus(flag)).toContain('Snapshot generation 1, ready.');
    await flag.client.close();
    const byEnv = await connectServe({ ...ws, env: { ...ws.env, MESHLENS_NO_DAEMON: '1' } });
    expect(await readyStatus(byEnv)).toContain('Snapshot generation 1, ready.');
    await byEnv.client.close();
    expect(existsSync(path.dirname(ws.location.dir))).toBe(false);
    if (canListProcesses) expect(liveDaemons(ws)).toEqual([]);
  });
});
