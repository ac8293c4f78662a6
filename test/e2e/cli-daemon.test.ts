import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection, type Server } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, runCli, type CliResult } from '../helpers/cli.js';
import {
  canListProcesses,
  daemonWorkspace,
  isRunning,
  listenAsDaemon,
  liveDaemons,
  pidFileOf,
  removeDaemonWorkspace,
  auditSessions,
  type DaemonWorkspace,
  PACKAGE_VERSION as VERSION,
} from '../helpers/daemon.js';
import { waitFor } from '../helpers/engine.js';

const workspaces: DaemonWorkspace[] = [];
const fakes: Server[] = [];

afterEach(() => {
  for (const fake of fakes.splice(0)) fake.close();
  for (const ws of workspaces.splice(0)) removeDaemonWorkspace(ws);
});

/** The daemon test workspace, with a declaration to find, a proto and a document beside it. */
function workspace(): DaemonWorkspace {
  const ws = daemonWorkspace();
  workspaces.push(ws);
  writeFileSync(
    path.join(ws.dir, 'svc', 'orders.go'),
    'package main\n\n// OrderService places orders.\ntype OrderService struct{}\n\nfunc (s *OrderService) PlaceOrder(id string) error {\n\treturn nil\n}\n',
  );
  mkdirSync(path.join(ws.dir, 'svc', 'docs'));
  writeFileSync(
    path.join(ws.dir, 'svc', 'docs', 'payments.md'),
    '# Payments\n\nHow an order is paid: the payment service charges the card.\n',
  );
  return ws;
}

/** The built CLI, spawned without waiting (for calls made at the same time). */
function cli(args: readonly string[], ws: DaemonWorkspace, cwd = ws.dir): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: ws.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** `elapsed_ms` differs from call to call whoever answers. */
const sameCall = (result: CliResult): CliResult => ({
  ...result,
  stdout: result.stdout.replace(/"elapsed_ms": [\d.]+/g, '"elapsed_ms": 0'),
});

/** The command in the CLI's own process, beside the same command answered by the daemon. */
async function bothWays(ws: DaemonWorkspace, args: readonly string[], cwd = ws.dir) {
  const viaDaemon = await cli(args, ws, cwd);
  const inProcess = await cli([...args, '--no-daemon'], ws, cwd);
  return { viaDaemon: sameCall(viaDaemon), inProcess: sameCall(inProcess) };
}

/**
 * A CLI command sent straight to the daemon's socket, as a CLI process that started just now would: the
 * lines the daemon sends back, its answer last.
 */
function askDaemon(
  ws: DaemonWorkspace,
  argv: readonly string[],
  columns: { stderr?: number } = {},
): Promise<Record<string, unknown>[]> {
  const hello = { meshlens: 'cli', version: VERSION, argv, cwd: ws.dir, pid: process.pid, columns };
  return new Promise((resolve, reject) => {
    const socket = createConnection(ws.location.socket);
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      if (received === '' && chunk.includes('\n')) {
        socket.write(`${JSON.stringify({ ...hello, started: Date.now() })}\n`);
      }
      received += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const lines = received.trim().split('\n').slice(1);
      resolve(lines.map((line) => JSON.parse(line) as Record<string, unknown>));
    });
  });
}

const lastRunLine = (status: string): string | undefined =>
  status.split('\n').find((line) => line.startsWith('**Last run:**'));

const SEARCH = ['code', 'search', '--query', 'Order'];

describe('operation commands answered by the workspace daemon (built CLI, real sockets)', () => {
  it(
    'print byte for byte what the command prints in its own process, errors included',
    { timeout: 120_000 },
    async () => {
      const ws = workspace();
      const cases: (readonly string[])[] = [
        SEARCH,
        [...SEARCH, '--json'],
        ['code', 'outline', '--path', 'svc/orders.go'],
        ['docs', 'search', '--query', 'payment'],
        // A field the operation does not have: the registry's message on stderr, exit 1.
        ['code', 'search', '--quer', 'Order'],
        // An option without its value: commander's error and the command's help on stderr, exit 2.
        ['code', 'search', '--query'],
        ['memory', 'get', '--key', 'nothing/here'],
      ];
      for (const args of cases) {
        const { viaDaemon, inProcess } = await bothWays(ws, args);
        expect(viaDaemon, args.join(' ')).toEqual(inProcess);
      }
      const { viaDaemon } = await bothWays(ws, SEARCH);
      expect(viaDaemon.stdout).toContain('`svc/orders.go`');
      expect((await bothWays(ws, ['code', 'search', '--quer', 'Order'])).viaDaemon.status).toBe(1);
      expect((await bothWays(ws, ['code', 'search', '--query'])).viaDaemon.status).toBe(2);

      // One daemon answered them all from one index run, which a process of its own would not have.
      const pid = pidFileOf(ws) as number;
      expect(isRunning(pid)).toBe(true);
      if (canListProcesses) {
        expect(liveDaemons(ws)).toEqual([pid]);
        // The daemon runs with its own V8 settings (a small young generation), given before the script.
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        expect(args.slice(1, args.indexOf(CLI))).toEqual(['--max-semi-space-size=2']);
      }
      const first = await cli(['admin', 'status'], ws);
      const second = await cli(['admin', 'status'], ws);
      expect(lastRunLine(second.stdout)).toBe(lastRunLine(first.stdout));
      const own = await cli(['admin', 'status', '--no-daemon'], ws);
      expect(lastRunLine(own.stdout)).not.toBe(lastRunLine(first.stdout));
      // Each call is audited under the session of the CLI process that made it, wherever it ran.
      expect(auditSessions(ws).every((session) => /^cli-\d+$/.test(session))).toBe(true);
      const verify = runCli(['audit', 'verify'], { env: ws.env });
      expect(verify.status).toBe(0);
    },
  );

  it('reads --workspace and --config against the CLI’s folder, not the daemon’s', async () => {
    const ws = workspace();
    const parent = path.dirname(ws.dir);
    const name = path.basename(ws.dir);
    const args = [...SEARCH, '--workspace', name, '--config', `${name}/meshlens.toml`];
    const { viaDaemon, inProcess } = await bothWays(ws, args, parent);
    expect(viaDaemon).toEqual(inProcess);
    expect(viaDaemon.status).toBe(0);
    expect(viaDaemon.stdout).toContain('`svc/orders.go`');
    // The workspace's daemon answered (its index run, not one of the CLI's own), though it runs in the
    // workspace folder, where `<name>/meshlens.toml` does not exist.
    const status = await cli(
      ['admin', 'status', '--workspace', name, '--config', `${name}/meshlens.toml`],
      ws,
      parent,
    );
    expect(lastRunLine(status.stdout)).toBe(lastRunLine((await cli(['admin', 'status'], ws)).stdout));
    expect(pidFileOf(ws)).toBeGreaterThan(0);
  });

  it('answers calls made at the same time, all through one daemon started for them', async () => {
    const ws = workspace();
    const expected = sameCall(await cli([...SEARCH, '--no-daemon'], ws));
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => cli(SEARCH, ws)));
    for (const answer of answers) expect(sameCall(answer)).toEqual(expected);
    if (canListProcesses) {
      // Each call may start a daemon; all but the one that bound the socket leave at once.
      await waitFor('one daemon', () => liveDaemons(ws).length === 1);
      expect(liveDaemons(ws)).toEqual([pidFileOf(ws)]);
    }
  });

  it('sees a file written just before the command', async () => {
    const ws = workspace();
    await cli(SEARCH, ws);
    const pid = pidFileOf(ws);
    writeFileSync(path.join(ws.dir, 'svc', 'fresh.go'), 'package main\n\nfunc FreshlyWritten() {}\n');
    const answer = await cli(['code', 'search', '--query', 'FreshlyWritten'], ws);
    expect(answer.stdout).toContain('`svc/fresh.go`');
    expect(pidFileOf(ws)).toBe(pid);
    // Asked the moment the file is written, without a CLI process's start in between: the daemon waits
    // for the watcher to report it.
    writeFileSync(path.join(ws.dir, 'svc', 'fresher.go'), 'package main\n\nfunc WrittenThisInstant() {}\n');
    const [asked] = await askDaemon(ws, ['code', 'search', '--query', 'WrittenThisInstant']);
    expect(asked).toMatchObject({ meshlens: 'answer', status: 0, stderr: '' });
    expect(asked?.stdout).toContain('`svc/fresher.go`');
  });

  it('reports the progress of the first index to a CLI with a terminal, then answers', async () => {
    const ws = workspace();
    for (let i = 0; i < 400; i++) {
      writeFileSync(path.join(ws.dir, 'svc', `gen${i}.go`), `package main\n\nfunc Generated${i}() {}\n`);
    }
    const args = [CLI, 'daemon', '--workspace', ws.dir, '--config', path.join(ws.dir, 'meshlens.toml')];
    spawn(process.execPath, args, { env: ws.env, cwd: ws.dir, stdio: 'ignore', detached: true }).unref();
    await waitFor('the daemon to listen', () => pidFileOf(ws) !== undefined);
    const lines = await askDaemon(ws, ['code', 'search', '--query', 'Generated399'], { stderr: 80 });
    const answer = lines.pop();
    expect(answer).toMatchObject({ meshlens: 'answer', status: 0, stderr: '' });
    expect(answer?.stdout).toContain('`svc/gen399.go`');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).toEqual({ meshlens: 'progress', done: expect.any(Number), total: expect.any(Number) });
    }
    // Without a terminal, only the answer.
    expect(await askDaemon(ws, ['code', 'search', '--query', 'Generated1'])).toHaveLength(1);
  });

  it('leaves writes to the CLI’s process; the daemon reads what they wrote', async () => {
    const ws = workspace();
    await cli(SEARCH, ws);
    const put = await cli(['memory', 'put', '--key', 'ops/drain', '--value', 'drain the queue first'], ws);
    expect(put.status).toBe(0);
    const { viaDaemon, inProcess } = await bothWays(ws, ['memory', 'get', '--key', 'ops/drain']);
    expect(viaDaemon).toEqual(inProcess);
    expect(viaDaemon.stdout).toContain('drain the queue first');
    const sessions = auditSessions(ws);
    expect(sessions.length).toBeGreaterThan(0);
  });

  it('answers in its own process once the config changed in a way the daemon applies only on restart', async () => {
    const ws = workspace();
    await cli(SEARCH, ws);
    mkdirSync(path.join(ws.dir, 'lib'));
    writeFileSync(path.join(ws.dir, 'lib', 'lib.go'), 'package lib\n\nfunc OnlyInLib() {}\n');
    writeFileSync(
      path.join(ws.dir, 'meshlens.toml'),
      '[workspace]\nname = "daemon"\nroots = ["svc", "lib"]\n\n[server]\ndaemon_idle_minutes = 0.5\n',
    );
    const { viaDaemon, inProcess } = await bothWays(ws, ['code', 'search', '--query', 'OnlyInLib']);
    expect(viaDaemon).toEqual(inProcess);
    expect(viaDaemon.stdout).toContain('`lib/lib.go`');
  });

  it('answers in its own process, with nothing said to the daemon, when asked to or on another version', async () => {
    const ws = workspace();
    const expected = sameCall(await cli([...SEARCH, '--no-daemon'], ws));
    const byEnv = await cli(SEARCH, { ...ws, env: { ...ws.env, MESHLENS_NO_DAEMON: '1' } });
    expect(sameCall(byEnv)).toEqual(expected);
    expect(existsSync(path.dirname(ws.location.dir))).toBe(false);

    const heard: string[] = [];
    const fake = await listenAsDaemon(ws, '0.0.0-other', (line) => heard.push(line));
    fakes.push(fake.server);
    const answer = sameCall(await cli(SEARCH, ws));
    expect(answer).toEqual({
      ...expected,
      stderr:
        `meshlens: the daemon for this workspace (pid ${process.pid}) runs version 0.0.0-other, this client is ` +
        `version ${VERSION}: not attaching to it. Answering in this process instead; the old daemon exits once ` +
        `no client is attached (or end it now: kill ${process.pid}).\n`,
    });
    expect(heard).toEqual([]);
  });

  it('answers in its own process when the daemon dies before answering', async () => {
    const ws = workspace();
    const expected = sameCall(await cli([...SEARCH, '--no-daemon'], ws));
    const heard: Record<string, unknown>[] = [];
    // A daemon that takes the command and dies with it.
    const fake = await listenAsDaemon(ws, VERSION, (line, socket) => {
      heard.push(JSON.parse(line) as Record<string, unknown>);
      socket.destroy();
    });
    fakes.push(fake.server);
    const answer = sameCall(await cli(SEARCH, ws));
    expect(answer).toEqual({
      ...expected,
      stderr: 'meshlens: the workspace daemon ended before answering; answering in this process instead.\n',
    });
    expect(heard).toEqual([
      {
        meshlens: 'cli',
        version: VERSION,
        argv: SEARCH,
        cwd: ws.dir,
        pid: expect.any(Number),
        started: expect.any(Number),
        columns: {},
      },
    ]);
  });

  it('starts a new daemon after the last one was killed, and `daemon status` and `daemon stop` name it', async () => {
    const ws = workspace();
    expect(runCli(['daemon', 'status'], { cwd: ws.dir, env: ws.env }).stdout).toBe(
      `no daemon runs for ${ws.dir}\n`,
    );
    await cli(SEARCH, ws);
    const first = pidFileOf(ws) as number;
    process.kill(first, 'SIGKILL');
    await waitFor('the killed daemon to go', () => !isRunning(first));
    const { viaDaemon, inProcess } = await bothWays(ws, SEARCH);
    expect(viaDaemon).toEqual(inProcess);
    const second = pidFileOf(ws) as number;
    expect(second).not.toBe(first);

    const status = runCli(['daemon', 'status'], { cwd: ws.dir, env: ws.env });
    expect(status.stdout).toBe(
      `daemon for ${ws.dir}: pid ${second}, version ${VERSION}; socket ${ws.location.socket}, log ${ws.location.logFile}\n`,
    );
    const stop = runCli(['daemon', 'stop'], { cwd: ws.dir, env: ws.env });
    expect(stop).toEqual({
      status: 0,
      stdout: `stopped the daemon for ${ws.dir} (pid ${second})\n`,
      stderr: '',
    });
    expect(isRunning(second)).toBe(false);
    expect(existsSync(ws.location.socket)).toBe(false);
  });

  it('keeps zod, the MCP SDK, the engine and SQLite out of the CLI process the daemon answers for', async () => {
    const ws = workspace();
    await cli(SEARCH, ws);
    const probe = path.resolve(import.meta.dirname, '../fixtures/boot-probe/probe.mjs');
    const probed = await new Promise<{ loaded: string[]; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', probe, CLI, ...SEARCH], {
        cwd: ws.dir,
        env: ws.env,
      });
      let stderr = '';
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', () => {
        const line = /BOOT-PROBE (.*)/.exec(stderr)?.[1] ?? '{"loaded":[]}';
        resolve({ loaded: (JSON.parse(line) as { loaded: string[] }).loaded, stdout });
      });
    });
    expect(probed.stdout).toContain('`svc/orders.go`');
    const ours = probed.loaded.filter((url) => url.startsWith('file:') && url.includes('/dist/'));
    const sources = ours.flatMap((url) => {
      const map = JSON.parse(readFileSync(`${new URL(url).pathname}.map`, 'utf8')) as { sources: string[] };
      return map.sources.map((s) => s.replace(/^(\.\.\/)+/, ''));
    });
    expect(sources).toContain('src/cli/cli-attach.ts');
    expect(sources).not.toContain('src/cli/main.ts');
    expect(sources.filter((s) => /^src\/(index|ops|render|trust)\//.test(s))).toEqual([]);
    expect(sources.filter((s) => /node_modules\//.test(s))).toEqual([]);
    expect(probed.loaded.filter((url) => /better-sqlite3|web-tree-sitter|piscina/.test(url))).toEqual([]);
    const bytes = ours.reduce((sum, url) => sum + readFileSync(new URL(url)).length, 0);
    // 33 KB: the socket, handshake and daemon start of `serve`'s thin client, and the argument reading.
    expect(bytes).toBeLessThan(40_000);
  });
});
