#!/usr/bin/env node
// The cold index of two replicas on one PostgreSQL store: replica A builds the workspace's index and shares
// its facts, replica B (started after A finished, with a cache of its own) pulls them.
//
//   node bench/shared-index.mjs [--files 5000] [--shape realistic] [--workspace DIR]
//                               [--admin postgres://postgres@127.0.0.1:5432/postgres] [--json FILE]
//
// A database of its own is created through the admin URL and dropped at the end. Before the replicas,
// `meshlens index` indexes the workspace with no store and an empty cache: the figure a replica without a
// team store would show. Each replica is the built CLI's `serve --http --store …`; its figures come from the
// run it records in `index_runs` (parsed, pulled, shared, run time), from the clock (spawn → run done) and
// from /proc (CPU time of every thread until then), so the figures compare under load too.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { generateWorkspace } from './gen-workspace.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(REPO, 'dist/meshlens.js');

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '5000' },
    shape: { type: 'string', default: 'realistic' },
    workspace: { type: 'string' },
    admin: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    json: { type: 'string' },
  },
});

const scratch = mkdtempSync(path.join(os.tmpdir(), 'meshlens-shared-bench-'));
/** A cache, audit log and data folder of its own for each process. */
function freshEnv(name) {
  const dir = path.join(scratch, name);
  return {
    ...process.env,
    MESHLENS_CACHE_DIR: dir,
    MESHLENS_AUDIT_DB: path.join(dir, 'audit.db'),
    MESHLENS_DATA_DIR: path.join(dir, 'data'),
  };
}

async function admin(sql) {
  const client = new pg.Client({ connectionString: values.admin });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** CPU time (user + system, every thread) a live process has used so far, from /proc (Linux). */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of the line, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** `meshlens index` with no store and an empty cache; its CPU time is the last reading before it exits. */
async function noStore(workspace) {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, 'index', '--json', '--workspace', workspace], {
    env: freshEnv('no-store'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let cpu = 0;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  while (child.exitCode === null) {
    cpu = cpuMs(child.pid) ?? cpu;
    await Promise.race([exited, sleep(50)]);
  }
  if (child.exitCode !== 0) throw new Error(`meshlens index failed: ${stderr}`);
  const status = JSON.parse(stdout);
  return {
    replica: 'no store',
    processMs: Math.round(performance.now() - started),
    cpuMs: cpu,
    runMs: status.lastRun.wallMs,
    files: status.files,
    parsed: status.lastRun.parsed,
    pulled: 0,
    uploaded: 0,
  };
}

/** Starts a replica, waits for the run it records as done, stops it. */
async function replica(name, workspace, url, pool) {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      CLI,
      'serve',
      '--http',
      '--no-watch',
      '--listen',
      '127.0.0.1:0',
      '--workspace',
      workspace,
      '--store',
      url,
    ],
    { env: freshEnv(name), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const id = `meshlens-${child.pid}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited: ${stderr}`);
    // Until the replica has migrated the new database, the table is not there yet.
    const { rows } = await pool
      .query(
        `SELECT files, parsed, pulled, uploaded,
              round(extract(epoch FROM finished_at - started_at) * 1000)::int AS run_ms
         FROM index_runs WHERE replica = $1 AND state = 'done'`,
        [id],
      )
      .catch((error) => (error.code === '42P01' ? { rows: [] } : Promise.reject(error)));
    if (rows[0]) {
      const processMs = Math.round(performance.now() - started);
      const cpu = cpuMs(child.pid);
      child.kill('SIGTERM');
      await exited;
      return { replica: name, processMs, cpuMs: cpu, runMs: rows[0].run_ms, ...rows[0], run_ms: undefined };
    }
    await sleep(100);
  }
}

async function main() {
  const workspace = values.workspace ?? path.join(scratch, `${values.shape}-${values.files}`, 'workspace');
  if (!values.workspace)
    generateWorkspace({ out: workspace, files: Number(values.files), shape: values.shape });
  const database = `meshlens_bench_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${database}`);
  const url = new URL(values.admin);
  url.pathname = `/${database}`;
  const pool = new pg.Pool({ connectionString: url.href, max: 2 });
  try {
    const rows = [await noStore(workspace)];
    rows.push(await replica('A (builds)', workspace, url.href, pool));
    rows.push(await replica('B (pulls)', workspace, url.href, pool));
    const load = os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
    const label = values.workspace ? path.basename(workspace) : `${values.shape}-${values.files} (seed 42)`;
    const report = {
      at: new Date().toISOString(),
      workspace: label,
      files: Number(values.files),
      load,
      rows,
    };
    process.stdout.write(`load average ${load}\n`);
    process.stdout.write(
      'replica       | spawn → done ms | CPU ms | run ms | files | parsed | pulled | shared\n',
    );
    for (const r of rows) {
      process.stdout.write(
        `${r.replica.padEnd(13)} | ${String(r.processMs).padStart(15)} | ${String(r.cpuMs).padStart(6)} | ${String(r.runMs).padStart(6)} | ${String(r.files).padStart(5)} | ${String(r.parsed).padStart(6)} | ${String(r.pulled).padStart(6)} | ${String(r.uploaded).padStart(6)}\n`,
      );
    }
    if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await pool.end();
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`shared-index bench: ${error.stack ?? error}\n`);
  process.exit(1);
});
