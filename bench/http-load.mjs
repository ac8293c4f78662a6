#!/usr/bin/env node
// Load on the team server: N concurrent MCP clients over Streamable HTTP, each making M tool calls, against
// one `serve --http` (SQLite store) and against two replicas on one PostgreSQL database, clients split
// between them as a load balancer would. Reports p50/p95 per operation, errors, throughput, and each
// server's CPU time and peak RSS.
//
//   node bench/http-load.mjs [--clients 50] [--calls 1000] [--setups single,replicas] [--workspace DIR]
//                            [--postgres postgres://postgres@127.0.0.1:5432/postgres] [--results DIR] [--cli FILE]
//
// The replicas get a database of their own, created through --postgres (an admin URL) and dropped at the
// end. Exit status: 0 when every call answered without error, 1 otherwise, 2 on bad usage.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { cpuMsOf, peakRssMbOf } from './lib/process-stats.mjs';
import { percentile, round } from './lib/stats.mjs';

const root = path.resolve(import.meta.dirname, '..');

/** The operation mix each client cycles through, on the bundled example workspace. */
const OPERATIONS = [
  ['smart_search', { query: 'Payment' }],
  ['outline_file', { path: 'services/payment/server.go' }],
  ['find_definition', { path: 'services/order-gateway/src/orders/order.service.ts', line: 20 }],
  ['find_dependents', { target: 'PaymentService' }],
  ['analyze_grpc', { target: 'PaymentService.ProcessPayment' }],
  ['find_callers', { symbol: 'services/payment/server.go:ProcessPayment' }],
  ['grep_code', { pattern: 'orders\\.created' }],
  ['search_docs', { query: 'refund' }],
];

function options(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      clients: { type: 'string', default: '50' },
      calls: { type: 'string', default: '1000' },
      setups: { type: 'string', default: 'single,replicas' },
      workspace: { type: 'string', default: path.join(root, 'examples/polyglot-shop') },
      postgres: {
        type: 'string',
        default: process.env.MESHLENS_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      },
      results: { type: 'string' },
      cli: { type: 'string', default: path.join(root, 'dist/meshlens.js') },
    },
  });
  if (!existsSync(values.cli)) throw new Error(`${values.cli} does not exist: run npm run build first`);
  const setups = values.setups.split(',').filter(Boolean);
  for (const s of setups) if (s !== 'single' && s !== 'replicas') throw new Error(`unknown setup "${s}"`);
  return { ...values, clients: Number(values.clients), calls: Number(values.calls), setups };
}

function startServer(o, workspace, env, extraArgs) {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.MESHLENS_LOAD_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
      o.cli,
      'serve',
      '--http',
      '--listen',
      '127.0.0.1:0',
      '--surface',
      'flat',
      '--workspace',
      workspace,
      ...extraArgs,
    ],
    { env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk.toString();
      const url = /^meshlens: listening on (\S+)$/m.exec(stderr)?.[1];
      if (url) resolve({ child, url, pid: child.pid, stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`serve --http exited with ${code}: ${stderr}`)));
  });
}

async function connect(url, name) {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function waitUntilIndexed(url) {
  const client = await connect(url, 'load-wait');
  try {
    for (let i = 0; i < 600; i++) {
      const r = await client.callTool({ name: 'index_status', arguments: {} });
      const text = (r.content ?? []).map((c) => c.text ?? '').join('\n');
      if (/Snapshot generation [1-9]/.test(text)) return;
      await sleep(200);
    }
    throw new Error(`${url} did not index within two minutes`);
  } finally {
    await client.close();
  }
}

/** One client's calls, in sequence, starting at its own place in the mix. */
async function clientRun(url, index, calls, samples, failures) {
  const client = await connect(url, `load-${index}`);
  try {
    for (let i = 0; i < calls; i++) {
      const [name, args] = OPERATIONS[(index + i) % OPERATIONS.length];
      const t = performance.now();
      try {
        const r = await client.callTool({ name, arguments: args });
        if (r.isError) failures.push(`${name}: ${(r.content?.[0]?.text ?? '').slice(0, 200)}`);
      } catch (error) {
        failures.push(`${name}: ${error.message}`);
      }
      samples.get(name).push(performance.now() - t);
    }
  } finally {
    await client.close().catch(() => undefined);
  }
}

async function runSetup(o, setup, workspace, baseEnv) {
  let database;
  const servers = [];
  try {
    const extra = [];
    if (setup === 'replicas') {
      database = await createDatabase(o.postgres);
      extra.push('--store', database.url);
    }
    const count = setup === 'replicas' ? 2 : 1;
    for (let i = 0; i < count; i++) {
      const home = mkdtempSync(path.join(os.tmpdir(), `meshlens-load-${setup}-${i}-`));
      const env = {
        ...baseEnv,
        MESHLENS_CACHE_DIR: path.join(home, 'cache'),
        MESHLENS_DATA_DIR: path.join(home, 'data'),
        MESHLENS_AUDIT_DB: path.join(home, 'audit.db'),
        MESHLENS_KEYS_DB: path.join(home, 'keys.db'),
      };
      servers.push({ ...(await startServer(o, workspace, env, extra)), home });
    }
    for (const s of servers) await waitUntilIndexed(s.url);
    const samples = new Map(OPERATIONS.map(([name]) => [name, []]));
    const failures = [];
    const cpuBefore = servers.map((s) => cpuMsOf(s.pid));
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: o.clients }, (_, i) =>
        clientRun(servers[i % servers.length].url, i, o.calls, samples, failures),
      ),
    );
    const wallMs = performance.now() - t0;
    const total = o.clients * o.calls;
    return {
      setup,
      servers: servers.length,
      clients: o.clients,
      callsPerClient: o.calls,
      calls: total,
      errors: failures.length,
      firstErrors: failures.slice(0, 5),
      wallS: round(wallMs / 1000, 1),
      callsPerS: round(total / (wallMs / 1000), 0),
      operations: Object.fromEntries(
        [...samples].map(([name, ms]) => [
          name,
          { n: ms.length, p50: round(percentile(ms, 50), 2), p95: round(percentile(ms, 95), 2) },
        ]),
      ),
      serverCpuS: servers.map((s, i) => round((cpuMsOf(s.pid) - cpuBefore[i]) / 1000, 1)),
      serverPeakRssMb: servers.map((s) => round(peakRssMbOf(s.pid), 0)),
    };
  } finally {
    for (const s of servers) {
      const exited = new Promise((resolve) => s.child.once('exit', resolve));
      s.child.kill('SIGTERM');
      await exited;
      rmSync(s.home, { recursive: true, force: true });
    }
    await database?.drop();
  }
}

async function createDatabase(adminUrl) {
  const name = `meshlens_load_${randomBytes(4).toString('hex')}`;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

function print(result) {
  const { setup, servers, clients, calls, errors, wallS, callsPerS } = result;
  process.stdout.write(
    `\n${setup}: ${servers} server(s), ${clients} clients, ${calls} calls in ${wallS} s ` +
      `(${callsPerS} calls/s), ${errors} errors; server CPU ${result.serverCpuS.join(' + ')} s, ` +
      `peak RSS ${result.serverPeakRssMb.join(' / ')} MB\n`,
  );
  for (const [name, s] of Object.entries(result.operations))
    process.stdout.write(`  ${name.padEnd(16)} n=${s.n}  p50 ${s.p50} ms  p95 ${s.p95} ms\n`);
  for (const e of result.firstErrors) process.stdout.write(`  error: ${e}\n`);
}

async function main() {
  let o;
  try {
    o = options(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`http-load: ${error.message}\n`);
    process.exit(2);
  }
  // A copy, so that nothing the servers write lands in the example.
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'meshlens-load-ws-'));
  cpSync(o.workspace, workspace, { recursive: true });
  const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([, v]) => typeof v === 'string'));
  delete baseEnv.MESHLENS_STORE;
  const results = [];
  try {
    for (const setup of o.setups) {
      const result = await runSetup(o, setup, workspace, baseEnv);
      print(result);
      results.push(result);
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, load1: round(os.loadavg()[0], 2), node: process.version },
    results,
  };
  if (o.results) {
    mkdirSync(o.results, { recursive: true });
    const file = path.join(o.results, `${report.date.slice(0, 10)}-http-load.json`);
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`\nwritten ${path.relative(process.cwd(), file)}\n`);
  }
  process.exit(results.every((r) => r.errors === 0) ? 0 : 1);
}

await main();
