/**
 * The shipped deployment files (deploy/): the systemd unit and the compose file are checked as
 * configuration (systemd's own verifier, the compose structure, the nginx upstream), and their meshlens
 * command lines are run as written — beyond loopback, on the machine's PostgreSQL, with a key — so a flag
 * or variable they name that the CLI does not honour fails here.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { serveArgsOf } from '../../src/cli/serve-args.js';
import { parseStoreUrl } from '../../src/store/postgres/store-url.js';
import { CLI, runCli, tempEnv } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

const DEPLOY = path.resolve(import.meta.dirname, '../../deploy');
const EXAMPLE = path.resolve(import.meta.dirname, '../../examples/polyglot-shop');
const KEY_LINE = /^(ml_[0-9a-f]{48})$/m;

/** `Key=value` lines of one unit section, in order (a key may repeat, like Environment). */
function unitEntries(text: string, section: string): [string, string][] {
  const entries: [string, string][] = [];
  let current = '';
  for (const line of text.split('\n')) {
    const header = /^\[(\w+)\]$/.exec(line.trim());
    if (header) current = header[1] ?? '';
    else if (current === section && /^\w+=/.test(line)) {
      const at = line.indexOf('=');
      entries.push([line.slice(0, at), line.slice(at + 1)]);
    }
  }
  return entries;
}

let db: TestDatabase;
let workspace: string;
const running: ChildProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase('deploy');
  workspace = mkdtempSync(path.join(os.tmpdir(), 'meshlens-deploy-'));
  cpSync(EXAMPLE, workspace, { recursive: true });
  // A key's role sees nothing until the visibility table lists it.
  appendFileSync(
    path.join(workspace, 'meshlens.toml'),
    '\n[server.visibility.roles]\nreader = ["code", "contracts"]\n',
  );
}, 30_000);

afterAll(async () => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  await db.drop();
});

/** Starts the CLI with `args`; resolves with the endpoint it prints, or rejects with its stderr. */
function start(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: URL }> {
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  running.push(child);
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /^meshlens: listening on (\S+)$/m.exec(stderr)?.[1];
      if (url) resolve({ child, url: new URL(url) });
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
}

/** Connects to a server bound to 0.0.0.0 through loopback, with a bearer key. */
async function keyClient(url: URL, key: string): Promise<Client> {
  const local = new URL(url);
  local.hostname = '127.0.0.1';
  const client = new Client({ name: 'deploy-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(local, {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

function stopped(child: ChildProcess): Promise<number | null> {
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exit;
}

/** Replaces `:8808` by a free port: the tests run beside other servers. */
const freePort = (args: readonly string[]): string[] => args.map((a) => a.replace(/:8808$/, ':0'));

describe('deploy/meshlens.service', () => {
  const unit = readFileSync(path.join(DEPLOY, 'meshlens.service'), 'utf8');
  const service = unitEntries(unit, 'Service');
  const execStart = service.find(([k]) => k === 'ExecStart')?.[1]?.split(' ') ?? [];

  test.skipIf(spawnSync('systemd-analyze', ['--version']).status !== 0)(
    "passes systemd's own verifier, which refuses a bad unit",
    () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'meshlens-unit-'));
      const verify = (text: string) => {
        const file = path.join(dir, 'meshlens.service');
        writeFileSync(file, text);
        return spawnSync('systemd-analyze', ['verify', '--man=no', file], { encoding: 'utf8' });
      };
      const good = verify(unit.replace('/usr/bin/node', process.execPath));
      expect(good.stderr).toBe('');
      expect(good.status).toBe(0);
      expect(verify(unit.replace('/usr/bin/node', '/usr/bin/no-such-node')).status).not.toBe(0);
    },
  );

  test('its command line is a team server: HTTP beyond loopback, stopped by SIGTERM, store from the environment file', () => {
    expect(execStart.slice(0, 2)).toEqual(['/usr/bin/node', '/opt/meshlens/dist/meshlens.js']);
    const parsed = serveArgsOf(['node', 'meshlens', ...execStart.slice(2)]);
    expect(parsed?.http).toEqual({ listen: '0.0.0.0:8808', allowedOrigins: [] });
    expect(parsed?.workspace).toBe('/srv/checkout');
    expect(service).toContainEqual(['KillSignal', 'SIGTERM']);
    expect(service).toContainEqual(['EnvironmentFile', '/etc/meshlens/env']);
    expect(unit).toMatch(/^# \(MESHLENS_STORE=postgres:\/\/meshlens:PASSWORD@db\.internal:5432\/meshlens\)/m);
  });

  test(
    'runs as written: refuses to start without a key, then serves a key on PostgreSQL and stops cleanly',
    { timeout: 60_000 },
    async () => {
      const env = tempEnv({ MESHLENS_STORE: db.url });
      for (const [key, value] of service.filter(([k]) => k === 'Environment').map(([, v]) => v.split('=')))
        if (key && value && !key.endsWith('_DIR')) env[key] = value;
      const args = freePort(execStart.slice(2)).map((a) => (a === '/srv/checkout' ? workspace : a));

      const refused = runCli(args, { env });
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain('0.0.0.0');

      const created = runCli(['keys', 'create', '--tenant', 'acme', '--role', 'reader'], { env });
      expect(created.status, created.stderr).toBe(0);
      const key = KEY_LINE.exec(created.stdout)?.[1] ?? '';
      const { child, url } = await start(args, env);
      expect(url.hostname).toBe('0.0.0.0');
      const client = await keyClient(url, key);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['code', 'contracts']);
      await client.close();
      expect(await stopped(child)).toBe(0);
    },
  );
});

describe('deploy/compose.yaml', () => {
  interface Service {
    readonly command?: string[];
    readonly environment?: Record<string, string>;
    readonly volumes?: string[];
    readonly depends_on?: Record<string, { condition: string }> | string[];
    readonly image?: string;
  }
  const compose = parseYaml(readFileSync(path.join(DEPLOY, 'compose.yaml'), 'utf8'), { merge: true }) as {
    services: Record<string, Service>;
  };
  const replicas = Object.entries(compose.services).filter(([, s]) => s.command?.[0] === 'serve');
  const nginx = readFileSync(path.join(DEPLOY, 'nginx.conf'), 'utf8');
  /** `${NAME:?message}` as compose fills it in. */
  const filled = (value: string) =>
    value.replace(/\$\{(\w+):\?[^}]*\}/g, (_, name: string) => `${name.toLowerCase()}`);

  test('two replicas on one PostgreSQL database, each with its own cache, behind a balancer that keeps a client on one', () => {
    expect(replicas.map(([name]) => name)).toEqual(['replica-a', 'replica-b']);
    const stores = replicas.map(([, s]) => parseStoreUrl(filled(s.environment?.MESHLENS_STORE ?? '')));
    expect(stores.map((s) => (s.kind === 'postgres' ? s.displayUrl : s.kind))).toEqual([
      'postgres://meshlens:***@postgres:5432/meshlens',
      'postgres://meshlens:***@postgres:5432/meshlens',
    ]);
    const caches = replicas.map(([, s]) => s.volumes?.find((v) => v.endsWith(':/var/cache/meshlens')));
    expect(new Set(caches).size).toBe(2);
    for (const [, s] of replicas) {
      expect(serveArgsOf(['node', 'meshlens', ...(s.command ?? [])])?.http?.listen).toBe('0.0.0.0:8808');
      expect(s.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    }
    expect(compose.services.postgres?.image).toMatch(/^postgres:\d+$/);
    expect(nginx).toMatch(
      /upstream meshlens \{\s*ip_hash;\s*server replica-a:8808;\s*server replica-b:8808;\s*\}/,
    );
    expect(nginx).toContain('proxy_buffering off;');
  });

  test(
    "the replicas' command runs as written, twice on one database, and one key works on both",
    { timeout: 60_000 },
    async () => {
      const [, first] = replicas[0] ?? [];
      const args = freePort(first?.command ?? []).map((a) => (a === '/workspace' ? workspace : a));
      const envs = [tempEnv({ MESHLENS_STORE: db.url }), tempEnv({ MESHLENS_STORE: db.url })];
      const created = runCli(['keys', 'create', '--tenant', 'acme', '--role', 'reader'], { env: envs[0] });
      expect(created.status, created.stderr).toBe(0);
      const key = KEY_LINE.exec(created.stdout)?.[1] ?? '';
      const servers = await Promise.all(envs.map((env) => start(args, env)));
      for (const { url } of servers) {
        const client = await keyClient(url, key);
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['code', 'contracts']);
        await client.close();
      }
      expect(await Promise.all(servers.map(({ child }) => stopped(child)))).toEqual([0, 0]);
    },
  );
});
