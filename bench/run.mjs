#!/usr/bin/env node
// The meshlens benchmark: generates a synthetic workspace, runs the built CLI as a real MCP stdio server
// (`node dist/meshlens.js serve`) and drives it with the SDK client, measuring boot, cold and warm indexing,
// tool latency with correctness checks against the generator's ground truth, reload latency and peak RSS,
// beside ripgrep and universal-ctags when they are installed.
//
//   npm run bench -- --files 5000 --shape small|realistic [--runs 3] [--searches 200] [--keep]
//
// After the table, the team server's load test runs (bench/http-load.mjs: --load-clients N, 50, and
// --load-calls N, 1000, over HTTP against one server and two replicas on PostgreSQL); --no-load skips it.
// Other options: --impacts N (analyze_impact and find_dependents calls, 50), --reloads N (probes, 5),
// (--searches also sets how many find_definition and find_callers calls are timed),
// --seed S, --roots R, --cli FILE (another build), --ws-dir DIR (where workspaces are generated; default
// the OS temp folder, outside any repository; bench/workspaces/ is git-ignored and works too),
// --results DIR (bench/results), --no-baselines (skip rg and ctags), --no-ctags (keep rg, skip ctags, which
// takes minutes on the realistic shape), --reuse (keep an existing workspace),
// --nice N (process priority, inherited by the server), --profile DIR (`node --cpu-prof` for the server;
// read with bench/profile-summary.mjs), --node-flags "…" (the server's Node flags; default: the workspace
// daemon's, src/cli/daemon-node-flags.json; "" for none), --index-timeout-ms N, --note TEXT,
// --settle-ms N (how long the cold server idles after its snapshot before its idle RSS is read, 10000; 0
// skips it), --memory-probe (the server also logs its main thread's heap and external memory, see
// bench/lib/memory-probe.mjs, so that the idle RSS can be split).
//
// Prints one table and writes bench/results/<YYYY-MM-DD>-<shape>-<files>.json. Exit status: 0 when the run
// completed and the answers were correct (missed performance targets are reported, not fatal); 1 when
// correctness fell below 99 %, a reload probe never became visible or the server crashed; 2 on bad usage.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { cpuMsOf, rssOf } from './lib/process-stats.mjs';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { generateWorkspace, parseArgs, truthPathFor } from './gen-workspace.mjs';
import { buildCodePlan, codeProbes } from './lib/code-probes.mjs';
import { grepRows, outlineRows } from './lib/code-modes.mjs';
import { buildPlan, probeDeclaration } from './lib/plan.mjs';
import { fmt, percentile, round, spread, textTable } from './lib/stats.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..');
/** The V8 flags the workspace daemon runs with (see src/cli/daemon-spawn.ts). */
const DAEMON_NODE_FLAGS = JSON.parse(readFileSync(path.join(REPO, 'src/cli/daemon-node-flags.json'), 'utf8'));

/** Targets on this 2-core machine (docs/performance.md). Relative ones are ratios to rg / ctags. */
export const TARGETS = {
  'small-5k': {
    boot_ms: 150,
    cold_index_ms: 3000,
    warm_index_ms: 500,
    search_p50_ms: 1,
    search_p95_ms: 3,
    reload_ms: 100,
    rss_peak_mb: 150,
  },
  'small-50k': {
    boot_ms: 200,
    cold_index_ms: 20000,
    warm_index_ms: 3000,
    search_p50_ms: 5,
    search_p95_ms: 15,
    reload_ms: 250,
    rss_peak_mb: 600,
  },
  'realistic-5k': {
    boot_ms: 200,
    cold_vs_ctags: 4,
    warm_index_ms: 1500,
    search_vs_rg: 1 / 20,
    reload_ms: 150,
    rss_peak_mb: 400,
    definition_p95_ms: 5,
    callers_p95_ms: 5,
    outline_p95_ms: 5,
    grep_vs_rg: 1,
  },
  // No absolute figures were set for realistic 50k; the scale-free ratios still apply.
  'realistic-50k': { cold_vs_ctags: 4, search_vs_rg: 1 / 20 },
};
export const tierOf = (shape, files) => `${shape}-${files <= 10_000 ? '5k' : '50k'}`;
const CORRECT_MIN = 99;

const log = (text) => process.stderr.write(`[bench] ${text}\n`);

const USAGE = `usage: node bench/run.mjs [options]   (npm run bench -- [options] builds first)

Generates a synthetic workspace, serves it with the built CLI over MCP stdio and measures boot, cold and
warm indexing, tool latency (checked against the generator's ground truth), reloads and memory, beside
ripgrep and universal-ctags when installed. Prints a table and writes bench/results/<date>-<shape>-<files>.json.

workspace   --files N (5000)  --shape small|realistic (small)  --seed S (42)  --roots R
            --ws-dir DIR (OS temp folder)  --reuse (keep an existing workspace)  --keep
runs        --runs N (3)  --searches N (200)  --impacts N (50)  --reloads N (5)  --settle-ms N (10000)
            --index-timeout-ms N  --note TEXT
server      --cli FILE (dist/meshlens.js)  --node-flags "..." (the daemon's; "" for none)  --nice N
            --profile DIR  --memory-probe
baselines   --no-baselines (skip rg and ctags)  --no-ctags (keep rg)
load test   --load-clients N (50)  --load-calls N (1000)  --no-load (skip it)
output      --results DIR (bench/results)
            --help (this text)

Exit status: 0 when the answers were correct, 1 when correctness fell below 99 % or the server failed,
2 on bad usage.`;

/** Options that take a value; every other option is a flag in `FLAGS`. */
const VALUE_OPTIONS = new Set([
  'files',
  'shape',
  'runs',
  'searches',
  'impacts',
  'reloads',
  'seed',
  'roots',
  'cli',
  'node-flags',
  'profile',
  'ws-dir',
  'results',
  'index-timeout-ms',
  'settle-ms',
  'nice',
  'note',
  'load-clients',
  'load-calls',
]);
const FLAGS = new Set(['--keep', '--no-baselines', '--no-ctags', '--reuse', '--no-load', '--memory-probe']);

/** Thrown for `--help`: main prints the usage and exits 0. */
class HelpRequested extends Error {}

/** Refuses what the benchmark would otherwise ignore: an unknown option, or a value option without its value. */
function checkArgv(argv) {
  if (argv.includes('--help') || argv.includes('-h')) throw new HelpRequested();
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (FLAGS.has(word)) continue;
    const [key, inline] = word.startsWith('--') ? word.slice(2).split('=', 2) : [undefined];
    if (key === undefined || !VALUE_OPTIONS.has(key))
      throw new Error(`unknown option ${word}; run node bench/run.mjs --help for the options`);
    if (inline !== undefined) continue;
    const value = argv[i + 1];
    if (value === undefined || (value.startsWith('--') && key !== 'node-flags'))
      throw new Error(`--${key} needs a value; run node bench/run.mjs --help for the options`);
    i++;
  }
}

function options(argv) {
  checkArgv(argv);
  const a = parseArgs(argv.filter((w) => !FLAGS.has(w)));
  const num = (key, fallback) => (a[key] === undefined ? fallback : Number(a[key]));
  const o = {
    files: num('files', 5000),
    shape: a.shape ?? 'small',
    runs: num('runs', 3),
    searches: num('searches', 200),
    impacts: num('impacts', 50),
    reloads: num('reloads', 5),
    seed: a.seed ?? '42',
    roots: a.roots === undefined ? undefined : Number(a.roots),
    cli: path.resolve(a.cli ?? path.join(REPO, 'dist/meshlens.js')),
    // The server measured is the process a workspace daemon runs, so it gets the daemon's V8 flags unless told.
    nodeFlags: (a['node-flags'] ?? DAEMON_NODE_FLAGS.join(' ')).split(' ').filter(Boolean),
    profile: a.profile ? path.resolve(a.profile) : undefined,
    wsDir: path.resolve(a['ws-dir'] ?? path.join(os.tmpdir(), 'meshlens-bench')),
    results: path.resolve(a.results ?? path.join(HERE, 'results')),
    indexTimeoutMs: num('index-timeout-ms', 20 * 60_000),
    settleMs: num('settle-ms', 10_000),
    memoryProbe: argv.includes('--memory-probe'),
    keep: argv.includes('--keep'),
    baselines: !argv.includes('--no-baselines'),
    ctags: !argv.includes('--no-ctags'),
    reuse: argv.includes('--reuse'),
    nice: a.nice === undefined ? undefined : Number(a.nice),
    note: a.note,
    load: !argv.includes('--no-load'),
    loadClients: num('load-clients', 50),
    loadCalls: num('load-calls', 1000),
  };
  if (o.profile) o.nodeFlags.push('--cpu-prof', `--cpu-prof-dir=${o.profile}`);
  for (const key of ['files', 'runs', 'searches', 'impacts', 'reloads', 'settleMs']) {
    if (!Number.isInteger(o[key]) || o[key] < (key === 'files' ? 10 : key === 'runs' ? 1 : 0))
      throw new Error(`--${key === 'settleMs' ? 'settle-ms' : key} must be an integer`);
  }
  if (!['small', 'realistic'].includes(o.shape)) throw new Error('--shape must be small or realistic');
  if (!existsSync(o.cli))
    throw new Error(`${o.cli} does not exist: run npm run build first (npm run bench does)`);
  return o;
}

// ------------------------------------------------------------------------------------------- the server

/** Spawns the server and completes the MCP handshake; `boot` is spawn → `initialize` answered. */
async function startServer(o, ws, cacheDir, logFile) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (typeof v === 'string') env[k] = v;
  // The server process is the one measured (its memory above all), so it serves in-process, not via a daemon.
  Object.assign(env, {
    MESHLENS_CACHE_DIR: cacheDir,
    MESHLENS_AUDIT_DB: path.join(cacheDir, 'audit.db'),
    MESHLENS_NO_DAEMON: '1',
  });
  if (o.memoryProbe) env.MESHLENS_BENCH_MEMORY_LOG = `${logFile}.memory.jsonl`;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      ...o.nodeFlags,
      // Kept out of nodeFlags: the result file records `memoryProbe` rather than an absolute path.
      ...(o.memoryProbe ? ['--import', path.join(HERE, 'lib/memory-probe.mjs')] : []),
      o.cli,
      'serve',
      '--surface',
      'flat',
      '--workspace',
      ws,
    ],
    env,
    stderr: 'pipe',
    cwd: ws,
  });
  const stderr = createWriteStream(logFile);
  transport.stderr?.pipe(stderr);
  const client = new Client({ name: 'meshlens-bench', version: '1.0.0' });
  const session = { client, transport, stderr, logFile, closing: false, crashed: false };
  if (o.memoryProbe) session.memoryLog = env.MESHLENS_BENCH_MEMORY_LOG;
  const t0 = performance.now();
  await client.connect(transport);
  session.t0 = t0;
  session.boot = performance.now() - t0;
  session.pid = transport.pid;
  client.onclose = () => {
    if (!session.closing) session.crashed = true;
  };
  return session;
}

async function stopServer(session) {
  session.closing = true;
  // End stdin ourselves and wait: the server exits on its own (a CPU profile is written then). The SDK's
  // close() would send SIGTERM after 2 s.
  const child = session.transport._process;
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin?.end();
    await Promise.race([exited, sleep(120_000)]);
  }
  await session.client.close().catch(() => undefined);
  await new Promise((resolve) => session.stderr.end(resolve));
}

async function call(session, name, args) {
  if (session.crashed) throw new Error(`the server exited (see ${session.logFile})`);
  const t = performance.now();
  const result = await session.client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
  const ms = performance.now() - t;
  const text = (result.content ?? []).map((c) => c.text ?? '').join('\n');
  return { ms, text, isError: result.isError === true };
}

function statusOf(text) {
  const gen = /Snapshot generation (\d+)/.exec(text);
  const files = /\*\*Files:\*\* (\d+) indexed/.exec(text);
  // `**Last run:** full at <time>, 1234 ms; 6200 files seen, [6200 read,] 6200 parsed, 0 from cache, …`:
  // read field by field, so that a field added to the line does not hide the others.
  const line = /\*\*Last run:\*\* (full|incremental) at \S+, (\d+) ms;([^\n]*)/.exec(text);
  const field = (name) => {
    const m = line ? new RegExp(`(\\d+) ${name}`).exec(line[3]) : null;
    return m ? Number(m[1]) : undefined;
  };
  return {
    generation: gen ? Number(gen[1]) : 0,
    files: files ? Number(files[1]) : undefined,
    lastRun: line
      ? {
          full: line[1] === 'full',
          wallMs: Number(line[2]),
          seen: field('files seen'),
          read: field('read'),
          parsed: field('parsed'),
          fromCache: field('from cache'),
        }
      : undefined,
  };
}

/** Polls index_status until a snapshot is installed; returns spawn → first answer saying so. */
async function waitForSnapshot(session, o) {
  // Resident memory while indexing, every 250 ms from a timer (a status call may wait seconds for a busy
  // server): shows which phase sets the peak. Also the longest wait for one status answer.
  const rss = [];
  const sample = () =>
    rss.push([Math.round(performance.now() - session.t0), round(rssOf(session.pid).rssMb, 1)]);
  sample();
  const timer = setInterval(sample, 250);
  let longestCallMs = 0;
  try {
    for (;;) {
      const r = await call(session, 'index_status', {});
      longestCallMs = Math.max(longestCallMs, r.ms);
      const status = statusOf(r.text);
      const elapsed = performance.now() - session.t0;
      if (status.generation >= 1)
        return { ms: elapsed, cpuMs: cpuMsOf(session.pid), status, rss, longestCallMs };
      if (elapsed > o.indexTimeoutMs) throw new Error(`no snapshot after ${o.indexTimeoutMs} ms`);
      // Fine-grained while a warm boot could finish; coarser later, so polling does not load the server.
      await sleep(elapsed < 3000 ? 10 : 50);
    }
  } finally {
    clearInterval(timer);
  }
}

/**
 * Leaves the server idle for `ms` after its snapshot (parse workers time out, the server finishes what it
 * builds after a snapshot, V8 shrinks its heap) and reads its RSS then: the steady state of a server that
 * indexed and now waits for questions. With the memory probe, also the main thread's last heap reading.
 */
async function idleRss(session, ms) {
  const timeline = [];
  const t = performance.now();
  for (;;) {
    const { rssMb, threads } = rssOf(session.pid);
    timeline.push([Math.round(performance.now() - t), round(rssMb, 1), threads]);
    if (performance.now() - t >= ms) break;
    await sleep(Math.min(250, ms - (performance.now() - t)));
  }
  const [, rssMb, threads] = timeline[timeline.length - 1];
  // Anonymous memory (heaps, thread stacks, wasm, malloc) against pages mapped from files (code, data).
  const rollup = safeRead(`/proc/${session.pid}/smaps_rollup`);
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1]);
  const anonMb = round(kb('Anonymous') / 1024, 1);
  const fileMb = round((kb('Rss') - kb('Anonymous')) / 1024, 1);
  let main;
  if (session.memoryLog && existsSync(session.memoryLog)) {
    const lines = readFileSync(session.memoryLog, 'utf8').trim().split('\n');
    main = JSON.parse(lines[lines.length - 1]);
  }
  return { rssMb, threads, anonMb, fileMb, timeline, main };
}

const load1 = () => round(os.loadavg()[0], 2);

// ------------------------------------------------------------------------------------------- checks

const headings = (text) => [...text.matchAll(/^### \[\d+\] `([^`]+)`/gm)].map((m) => m[1]);
const locations = (text) => new Set([...text.matchAll(/`([^`\s]+):(\d+)`/g)].map((m) => m[1]));

async function searches(session, plan) {
  const ms = [];
  const wrong = [];
  let ok = 0;
  const calls = [];
  for (const q of plan.queries) {
    const r = await call(session, 'smart_search', { query: q.query, ...(q.scope ? { scope: q.scope } : {}) });
    ms.push(r.ms);
    const shown = headings(r.text);
    calls.push({
      query: q.query,
      scope: q.scope,
      ms: round(r.ms, 2),
      shown: shown.length,
      bytes: r.text.length,
    });
    if (!r.isError && shown.includes(q.file)) ok++;
    else if (wrong.length < 5)
      wrong.push({ query: q.query, scope: q.scope, expected: q.file, got: r.text.slice(0, 300) });
  }
  // The slowest calls and how many files they rendered: what the tail is made of.
  const slowest = [...calls].sort((a, b) => b.ms - a.ms).slice(0, Math.max(5, Math.ceil(calls.length / 20)));
  return {
    ms,
    ok,
    total: plan.queries.length,
    wrong,
    slowest,
    medianShown: spread(calls.map((c) => c.shown)).median,
  };
}

async function contractCalls(session, plan, tool) {
  const ms = [];
  const wrong = [];
  let ok = 0;
  for (const t of plan.targets) {
    const r = await call(session, tool, { target: t.target });
    ms.push(r.ms);
    const seen = locations(r.text);
    const missing = t.expected.filter((f) => !seen.has(f));
    if (!r.isError && missing.length === 0) ok++;
    else if (wrong.length < 5) wrong.push({ target: t.target, missing, got: r.text.slice(0, 400) });
  }
  return { ms, ok, total: plan.targets.length, wrong };
}

/** Appends a unique declaration, then searches for it until a result heading lists the file. */
async function reloadProbes(session, ws, plan) {
  const probes = [];
  const originals = new Map();
  for (const p of plan.probes) {
    const abs = path.join(ws, p.file);
    if (!originals.has(abs)) originals.set(abs, readFileSync(abs));
    const decl = probeDeclaration(p.language, randomBytes(4).toString('hex'));
    await sleep(150);
    const t = performance.now();
    appendFileSync(abs, decl.text);
    let visibleMs;
    let polls = 0;
    while (performance.now() - t < 10_000) {
      const r = await call(session, 'smart_search', { query: decl.name });
      polls++;
      // Only a result heading naming the file counts: the "no results" text repeats the query.
      if (headings(r.text).includes(p.file)) {
        visibleMs = performance.now() - t;
        break;
      }
      await sleep(2);
    }
    probes.push({ file: p.file, name: decl.name, ms: visibleMs, polls });
  }
  return { probes, restore: () => originals.forEach((buf, abs) => writeFileSync(abs, buf)) };
}

// ------------------------------------------------------------------------------------------- baselines

const hasBinary = (bin) => spawnSync('which', [bin]).status === 0;

function baselines(o, ws, plan) {
  const out = { rg: undefined, ctags: undefined };
  const has = hasBinary;
  // The floor under `boot`: spawning a Node process that does nothing.
  const nodeMs = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
    nodeMs.push(performance.now() - t);
  }
  out.node = { ms: nodeMs, ...spread(nodeMs) };
  if (!o.baselines) return out;
  if (has('rg')) {
    const symbols = [...new Set(plan.queries.map((q) => q.query))].slice(0, 20);
    const run = (s) => {
      const t = performance.now();
      // stdout is a pipe, not /dev/null: ripgrep stops at the first match when it writes to /dev/null.
      spawnSync('rg', ['-n', '--', s, ws], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 });
      return performance.now() - t;
    };
    symbols.forEach(run);
    const ms = symbols.map(run);
    out.rg = { version: firstLine('rg', ['--version']), symbols: symbols.length, ms, ...spread(ms) };
  }
  if (o.ctags && has('ctags')) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'meshlens-ctags-'));
    const ms = [];
    for (let i = 0; i < Math.min(3, o.runs); i++) {
      const t = performance.now();
      spawnSync('ctags', ['-R', '-f', path.join(dir, 'tags'), ws], { stdio: 'ignore' });
      ms.push(performance.now() - t);
    }
    let tags;
    try {
      tags = readFileSync(path.join(dir, 'tags'), 'utf8')
        .split('\n')
        .filter((l) => l && !l.startsWith('!')).length;
    } catch {
      tags = undefined;
    }
    out.ctags = { version: firstLine('ctags', ['--version']), tags, ms, ...spread(ms) };
    // universal-ctags' Kotlin parser (packcc) costs ~0.5 ms per line, far more than any other language here:
    // also time it without Kotlin so the ratio can be read both ways.
    if (plan.languages.includes('kotlin')) {
      const noKotlin = [];
      for (let i = 0; i < Math.min(3, o.runs); i++) {
        const t = performance.now();
        spawnSync('ctags', ['-R', '--languages=-Kotlin', '-f', path.join(dir, 'tags'), ws], {
          stdio: 'ignore',
        });
        noKotlin.push(performance.now() - t);
      }
      out.ctagsNoKotlin = { ms: noKotlin, ...spread(noKotlin) };
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

function firstLine(bin, args) {
  try {
    return execFileSync(bin, args, { encoding: 'utf8' }).split('\n')[0];
  } catch {
    return undefined;
  }
}

// ------------------------------------------------------------------------------------------- one run

async function runOnce(o, ws, plan, index, workDir) {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'meshlens-bench-cache-'));
  const run = { run: index + 1, cacheDir, load_start: load1() };
  log(`run ${index + 1}/${o.runs}: cold start (empty cache ${cacheDir})`);
  const cold = await startServer(o, ws, cacheDir, path.join(workDir, `server-run${index + 1}-cold.log`));
  run.pid = cold.pid;
  run.boot_ms = cold.boot;
  let restore = () => undefined;
  try {
    const ready = await waitForSnapshot(cold, o);
    run.cold_index_ms = ready.ms;
    run.cold_index_cpu_ms = ready.cpuMs;
    // Phase boundaries in ms since spawn, to cut a CPU profile of this session into phases.
    const at = () => round(performance.now() - cold.t0, 1);
    run.phases = { snapshot: at() };
    run.cold_status = ready.status;
    run.cold_rss_timeline = ready.rss;
    run.cold_longest_status_ms = ready.longestCallMs;
    log(
      `  boot ${fmt(cold.boot)} ms, snapshot after ${fmt(ready.ms)} ms (${ready.status.files} files; server says ${ready.status.lastRun?.wallMs} ms)`,
    );
    if (o.settleMs > 0) {
      run.phases.settle = at();
      const idle = await idleRss(cold, o.settleMs);
      run.idle_rss_mb = idle.rssMb;
      run.idle_threads = idle.threads;
      run.idle_rss_split_mb = { anonymous: idle.anonMb, file: idle.fileMb };
      run.idle_rss_timeline = idle.timeline;
      if (idle.main) run.idle_main_thread_memory_mb = idle.main;
      const heap = idle.main
        ? ` (main thread: heap ${fmt(idle.main.heapUsed)} of ${fmt(idle.main.heapTotal)} MB, external ${fmt(idle.main.external)} MB)`
        : '';
      log(
        `  idle ${fmt(o.settleMs)} ms after the snapshot: RSS ${fmt(idle.rssMb)} MB (anonymous ${fmt(idle.anonMb)}, from files ${fmt(idle.fileMb)}), ${idle.threads} threads${heap}`,
      );
    }
    const cpuBefore = cpuMsOf(cold.pid);
    run.phases.searches = at();
    const s = await searches(cold, plan);
    const cpuPerSearch = (cpuMsOf(cold.pid) - cpuBefore) / Math.max(1, s.total);
    run.search = {
      first_ms: s.ms[0],
      p50_ms: percentile(s.ms, 50),
      p95_ms: percentile(s.ms, 95),
      max_ms: Math.max(...s.ms),
      server_cpu_ms_per_call: cpuPerSearch,
      ok: s.ok,
      total: s.total,
      wrong: s.wrong,
      median_files_shown: s.medianShown,
      slowest: s.slowest,
    };
    log(
      `  smart_search ×${s.total}: p50 ${fmt(run.search.p50_ms)} ms, p95 ${fmt(run.search.p95_ms)} ms, first ${fmt(s.ms[0])} ms, correct ${s.ok}/${s.total}`,
    );
    run.phases.impact = at();
    const im = await contractCalls(cold, plan, 'analyze_impact');
    run.impact = {
      p50_ms: percentile(im.ms, 50),
      p95_ms: percentile(im.ms, 95),
      ok: im.ok,
      total: im.total,
      wrong: im.wrong,
    };
    run.phases.dependents = at();
    const de = await contractCalls(cold, plan, 'find_dependents');
    run.dependents = {
      p50_ms: percentile(de.ms, 50),
      p95_ms: percentile(de.ms, 95),
      ok: de.ok,
      total: de.total,
      wrong: de.wrong,
    };
    log(
      `  analyze_impact ×${im.total}: p50 ${fmt(run.impact.p50_ms)} ms, correct ${im.ok}; find_dependents ×${de.total}: p50 ${fmt(run.dependents.p50_ms)} ms, correct ${de.ok}`,
    );
    run.phases.code = at();
    const cp = await codeProbes(cold, plan.code, call);
    run.code = Object.fromEntries(
      Object.entries(cp).map(([tool, r]) => [
        tool,
        {
          p50_ms: percentile(r.ms, 50),
          p95_ms: percentile(r.ms, 95),
          ok: r.ok,
          total: r.total,
          rows: r.rows,
        },
      ]),
    );
    log(
      `  find_definition ×${cp.definition.total}: p95 ${fmt(run.code.definition.p95_ms)} ms, declaring file named ${cp.definition.ok}; find_callers ×${cp.callers.total}: p95 ${fmt(run.code.callers.p95_ms)} ms, ${cp.callers.rows} rows`,
    );
    // Server CPU per call beside wall time: on a loaded machine the wall time mostly measures the wait.
    const serverCpu = () => cpuMsOf(cold.pid);
    run.outline = await outlineRows(call, cold, plan, 200, serverCpu);
    run.grep = await grepRows(call, cold, ws, plan, { rg: o.baselines && hasBinary('rg'), cpu: serverCpu });
    log(
      `  outline_file ×${run.outline.total}: p50 ${fmt(run.outline.p50_ms)} ms, p95 ${fmt(run.outline.p95_ms)} ms, correct ${run.outline.ok}; ` +
        `grep_code: first ${fmt(run.grep.first_ms)} ms, p50 ${fmt(run.grep.p50_ms)} ms beside rg p50 ${fmt(run.grep.rg_p50_ms)} ms`,
    );
    run.phases.reloads = at();
    const rl = await reloadProbes(cold, ws, plan);
    run.phases.end = at();
    restore = rl.restore;
    run.reload = {
      probes: rl.probes,
      median_ms: spread(rl.probes.map((p) => p.ms)).median,
      missed: rl.probes.filter((p) => p.ms === undefined).length,
    };
    log(
      `  reload probes: ${rl.probes.map((p) => (p.ms === undefined ? 'MISSED' : fmt(p.ms))).join(', ')} ms`,
    );
    const rss = rssOf(cold.pid);
    run.cold_session_cpu_ms = cpuMsOf(cold.pid);
    run.rss_peak_mb = rss.hwmMb;
    run.rss_end_mb = rss.rssMb;
    if (cold.crashed) throw new Error(`the server exited during the run (see ${cold.logFile})`);
  } finally {
    await stopServer(cold);
    restore();
  }

  log(`run ${index + 1}/${o.runs}: warm start (same cache)`);
  const warm = await startServer(o, ws, cacheDir, path.join(workDir, `server-run${index + 1}-warm.log`));
  try {
    run.warm_boot_ms = warm.boot;
    const ready = await waitForSnapshot(warm, o);
    run.warm_index_ms = ready.ms;
    run.warm_index_cpu_ms = ready.cpuMs;
    run.warm_status = ready.status;
    run.warm_rss_timeline = ready.rss;
    run.warm_longest_status_ms = ready.longestCallMs;
    const first = await call(warm, 'smart_search', { query: plan.queries[0].query });
    run.warm_first_search_ms = first.ms;
    run.warm_rss_peak_mb = rssOf(warm.pid).hwmMb;
    log(
      `  boot ${fmt(warm.boot)} ms, snapshot after ${fmt(ready.ms)} ms (${ready.status.lastRun?.fromCache} from cache, ${ready.status.lastRun?.parsed} parsed)`,
    );
    if (warm.crashed) throw new Error(`the server exited during the warm start (see ${warm.logFile})`);
  } finally {
    await stopServer(warm);
  }
  if (!o.keep) rmSync(cacheDir, { recursive: true, force: true });
  run.load_end = load1();
  return run;
}

// ------------------------------------------------------------------------------------------- report

const METRICS = [
  ['boot_ms', 'boot: spawn → initialize (ms)', (r) => r.boot_ms],
  ['cold_index_ms', 'cold index: spawn → snapshot (ms)', (r) => r.cold_index_ms],
  ['cold_server_ms', '  server-reported full run (ms)', (r) => r.cold_status?.lastRun?.wallMs],
  ['cold_index_cpu_ms', '  server CPU until snapshot (ms)', (r) => r.cold_index_cpu_ms],
  ['cold_blocked_ms', '  longest index_status wait while indexing (ms)', (r) => r.cold_longest_status_ms],
  ['warm_index_ms', 'warm boot: spawn → snapshot (ms)', (r) => r.warm_index_ms],
  ['warm_index_cpu_ms', '  server CPU until snapshot (ms)', (r) => r.warm_index_cpu_ms],
  ['search_p50_ms', 'smart_search p50 (ms)', (r) => r.search?.p50_ms],
  ['search_p95_ms', 'smart_search p95 (ms)', (r) => r.search?.p95_ms],
  ['search_first_ms', '  first smart_search (ms)', (r) => r.search?.first_ms],
  ['search_cpu_ms', '  server CPU per smart_search (ms)', (r) => r.search?.server_cpu_ms_per_call],
  ['impact_p50_ms', 'analyze_impact p50 (ms)', (r) => r.impact?.p50_ms],
  ['impact_p95_ms', 'analyze_impact p95 (ms)', (r) => r.impact?.p95_ms],
  ['dependents_p50_ms', 'find_dependents p50 (ms)', (r) => r.dependents?.p50_ms],
  ['dependents_p95_ms', 'find_dependents p95 (ms)', (r) => r.dependents?.p95_ms],
  ['definition_p50_ms', 'find_definition p50 (ms)', (r) => r.code?.definition.p50_ms],
  ['definition_p95_ms', 'find_definition p95 (ms)', (r) => r.code?.definition.p95_ms],
  [
    'definition_named_pct',
    '  declaring file named (%)',
    (r) => r.code && (100 * r.code.definition.ok) / Math.max(1, r.code.definition.total),
  ],
  ['callers_p50_ms', 'find_callers depth 2 p50 (ms)', (r) => r.code?.callers.p50_ms],
  ['callers_p95_ms', 'find_callers depth 2 p95 (ms)', (r) => r.code?.callers.p95_ms],
  ['callers_rows', '  rows over all find_callers calls', (r) => r.code?.callers.rows],
  ['outline_p50_ms', 'outline_file p50 (ms)', (r) => r.outline?.p50_ms],
  ['outline_p95_ms', 'outline_file p95 (ms)', (r) => r.outline?.p95_ms],
  ['outline_cpu_ms', '  server CPU per outline_file, mean (ms)', (r) => r.outline?.server_cpu_ms_per_call],
  ['grep_first_ms', '  first grep_code, builds its filters (ms)', (r) => r.grep?.first_ms],
  ['grep_p50_ms', 'grep_code p50 (ms)', (r) => r.grep?.p50_ms],
  ['grep_p95_ms', 'grep_code p95 (ms)', (r) => r.grep?.p95_ms],
  ['grep_cpu_ms', '  server CPU per grep_code, mean (ms)', (r) => r.grep?.server_cpu_ms_per_call],
  ['grep_rg_p50_ms', '  rg -n -S, same patterns, side by side, p50 (ms)', (r) => r.grep?.rg_p50_ms],
  ['grep_vs_rg', 'grep_code p50 ÷ rg p50 (same patterns)', (r) => r.grep?.p50_ms / r.grep?.rg_p50_ms],
  ['reload_ms', 'reload: write → searchable (ms)', (r) => r.reload?.median_ms],
  ['rss_peak_mb', 'peak RSS, cold run (MB)', (r) => r.rss_peak_mb],
  ['idle_rss_mb', 'idle RSS after the cold index settles (MB)', (r) => r.idle_rss_mb],
  ['warm_rss_peak_mb', 'peak RSS, warm boot (MB)', (r) => r.warm_rss_peak_mb],
  ['load_avg', 'machine load average (1 min)', (r) => r.load_start],
];

function summarize(o, runs, base, tier) {
  const targets = TARGETS[tier] ?? {};
  const metrics = {};
  for (const [key, label, pick] of METRICS) {
    const values = runs.map(pick);
    metrics[key] = {
      label,
      values: values.map((v) => round(v, 3)),
      ...mapRound(spread(values)),
      target: targets[key],
    };
  }
  if (base.node) {
    metrics.node_spawn_ms = {
      label: "baseline: spawn `node -e ''` (ms)",
      values: base.node.ms.map((v) => round(v, 1)),
      ...mapRound(spread(base.node.ms)),
    };
  }
  if (base.rg) {
    metrics.rg_ms = {
      label: `rg -n <symbol> over ${base.rg.symbols} symbols (ms)`,
      values: base.rg.ms.map((v) => round(v, 3)),
      ...mapRound(spread(base.rg.ms)),
    };
    const values = runs.map((r) => r.search?.p50_ms / base.rg.median);
    metrics.search_vs_rg = {
      label: 'smart_search p50 ÷ rg median',
      values: values.map((v) => round(v, 4)),
      ...mapRound(spread(values), 4),
      target: targets.search_vs_rg,
    };
  }
  if (base.ctags) {
    metrics.ctags_ms = {
      label: 'ctags -R (ms)',
      values: base.ctags.ms.map((v) => round(v, 1)),
      ...mapRound(spread(base.ctags.ms)),
    };
    const values = runs.map((r) => r.cold_index_ms / base.ctags.median);
    metrics.cold_vs_ctags = {
      label: 'cold index ÷ ctags median',
      values: values.map((v) => round(v, 3)),
      ...mapRound(spread(values), 3),
      target: targets.cold_vs_ctags,
    };
  }
  if (base.ctagsNoKotlin) {
    metrics.ctags_no_kotlin_ms = {
      label: 'ctags -R --languages=-Kotlin (ms)',
      values: base.ctagsNoKotlin.ms.map((v) => round(v, 1)),
      ...mapRound(spread(base.ctagsNoKotlin.ms)),
    };
    const values = runs.map((r) => r.cold_index_ms / base.ctagsNoKotlin.median);
    metrics.cold_vs_ctags_no_kotlin = {
      label: 'cold index ÷ ctags-without-Kotlin',
      values: values.map((v) => round(v, 3)),
      ...mapRound(spread(values), 3),
    };
  }
  for (const m of Object.values(metrics))
    if (m.target !== undefined && m.median !== undefined) m.pass = m.median <= m.target;
  const sum = (pick) => runs.reduce((s, r) => s + (pick(r) ?? 0), 0);
  const pct = (ok, total) => (total === 0 ? 100 : (100 * ok) / total);
  const correctness = {
    search: { ok: sum((r) => r.search?.ok), total: sum((r) => r.search?.total) },
    impact: { ok: sum((r) => r.impact?.ok), total: sum((r) => r.impact?.total) },
    dependents: { ok: sum((r) => r.dependents?.ok), total: sum((r) => r.dependents?.total) },
    outline: { ok: sum((r) => r.outline?.ok), total: sum((r) => r.outline?.total) },
    reload: {
      ok: sum((r) => r.reload?.probes.length - r.reload?.missed),
      total: sum((r) => r.reload?.probes.length),
    },
  };
  for (const c of Object.values(correctness)) c.pct = round(pct(c.ok, c.total), 2);
  const failures = [];
  for (const [k, c] of Object.entries(correctness)) {
    const min = k === 'reload' ? 100 : CORRECT_MIN;
    if (c.pct < min) failures.push(`${k} correctness ${c.pct}% (${c.ok}/${c.total}) is below ${min}%`);
  }
  return { metrics, correctness, failures };
}

function mapRound(s, digits = 3) {
  return { median: round(s.median, digits), min: round(s.min, digits), max: round(s.max, digits), n: s.n };
}

function targetText(key, target) {
  if (target === undefined) return '—';
  if (key === 'search_vs_rg') return `≤ 1/${Math.round(1 / target)}`;
  if (key === 'cold_vs_ctags' || key === 'grep_vs_rg') return `≤ ${target}×`;
  return `≤ ${target}`;
}

function printReport(o, tier, summary, base, gen) {
  const rows = [];
  for (const [key, m] of Object.entries(summary.metrics)) {
    if (m.median === undefined) continue;
    rows.push([
      m.label,
      fmt(m.median),
      fmt(m.min),
      fmt(m.max),
      targetText(key, m.target),
      m.pass === undefined ? '' : m.pass ? 'pass' : 'FAIL',
    ]);
  }
  for (const [k, c] of Object.entries(summary.correctness)) {
    rows.push([
      `correct: ${k}`,
      `${c.pct}%`,
      '',
      '',
      k === 'reload' ? '100%' : `≥ ${CORRECT_MIN}%`,
      c.pct >= (k === 'reload' ? 100 : CORRECT_MIN) ? 'pass' : 'FAIL',
    ]);
  }
  process.stdout.write(
    `\nmeshlens bench — ${o.shape}, ${gen.files} files (${gen.requestedFiles} requested, ${gen.roots} roots, ${(gen.bytes / 1e6).toFixed(1)} MB), tier ${tier}, ${o.runs} run(s)\n`,
  );
  process.stdout.write(`${textTable(['metric', 'median', 'min', 'max', 'target', 'result'], rows)}\n`);
  if (base.rg) process.stdout.write(`rg: ${base.rg.version}; `);
  if (base.ctags) process.stdout.write(`ctags: ${base.ctags.version} (${base.ctags.tags} tags)`);
  if (base.rg || base.ctags) process.stdout.write('\n');
  else if (o.baselines) process.stdout.write('rg and ctags not installed: baselines skipped\n');
  for (const f of summary.failures) process.stdout.write(`CORRECTNESS FAILURE: ${f}\n`);
}

function machine() {
  const mem = /MemTotal:\s+(\d+) kB/.exec(safeRead('/proc/meminfo'))?.[1];
  const git = (args) => {
    try {
      return execFileSync('git', args, {
        cwd: REPO,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    } catch {
      return undefined;
    }
  };
  return {
    nproc: os.availableParallelism?.() ?? os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memTotalMb: mem ? Math.round(Number(mem) / 1024) : undefined,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    gitHead: git(['rev-parse', '--short', 'HEAD']),
    gitDirty: (git(['status', '--porcelain', '--', 'src', 'scripts', 'package.json']) ?? '').length > 0,
  };
}

const safeRead = (file) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

// ------------------------------------------------------------------------------------------- main

async function main() {
  let o;
  try {
    o = options(process.argv.slice(2));
  } catch (error) {
    if (error instanceof HelpRequested) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    process.stderr.write(`bench: ${error.message}\n`);
    return 2;
  }
  const tier = tierOf(o.shape, o.files);
  // On a shared machine: a higher priority for the harness, inherited by the server it spawns.
  if (o.nice !== undefined) os.setPriority(0, o.nice);
  mkdirSync(o.wsDir, { recursive: true });
  const ws = path.join(o.wsDir, `${o.shape}-${o.files}-s${o.seed}`);
  let gen;
  if (o.reuse && existsSync(truthPathFor(ws))) {
    gen = JSON.parse(readFileSync(truthPathFor(ws), 'utf8')).summary;
    log(`reusing ${ws}`);
  } else {
    log(`generating ${o.shape} workspace with ${o.files} files in ${ws}`);
    gen = generateWorkspace({ out: ws, files: o.files, roots: o.roots, seed: o.seed, shape: o.shape });
    log(`  ${gen.files} files, ${(gen.bytes / 1e6).toFixed(1)} MB in ${gen.ms} ms`);
  }
  const truth = JSON.parse(readFileSync(truthPathFor(ws), 'utf8'));
  const plan = buildPlan(truth, {
    searches: o.searches,
    impacts: o.impacts,
    reloads: o.reloads,
    seed: o.seed,
  });
  plan.code = buildCodePlan(ws, truth, { count: o.searches, seed: o.seed });
  log(
    `plan: ${plan.queries.length} searches, ${plan.targets.length} contract targets, ${plan.probes.length} reload probes`,
  );
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'meshlens-bench-run-'));
  if (o.profile) mkdirSync(o.profile, { recursive: true });

  const base = baselines(o, ws, plan);
  if (base.rg) log(`rg: median ${fmt(base.rg.median)} ms over ${base.rg.symbols} symbols`);
  if (base.ctags) log(`ctags: median ${fmt(base.ctags.median)} ms`);

  const runs = [];
  let fatal;
  for (let i = 0; i < o.runs; i++) {
    try {
      runs.push(await runOnce(o, ws, plan, i, workDir));
    } catch (error) {
      fatal = `run ${i + 1}: ${error.message}`;
      log(`FATAL ${fatal} (server logs in ${workDir})`);
      break;
    }
  }
  const summary = summarize(o, runs, base, tier);
  if (fatal) summary.failures.push(fatal);
  printReport(o, tier, summary, base, gen);

  const date = new Date().toISOString().slice(0, 10);
  const report = {
    format: 'meshlens-bench-result/1',
    date,
    machine: machine(),
    params: {
      shape: o.shape,
      files: o.files,
      roots: gen.roots,
      seed: o.seed,
      runs: o.runs,
      searches: o.searches,
      impacts: o.impacts,
      reloads: o.reloads,
      nodeFlags: o.nodeFlags,
      nice: o.nice,
      settleMs: o.settleMs,
      memoryProbe: o.memoryProbe,
    },
    cli: {
      path: path.relative(REPO, o.cli),
      sha256: createHash('sha256').update(readFileSync(o.cli)).digest('hex').slice(0, 16),
      ...(o.note ? { note: o.note } : {}),
    },
    workspace: gen,
    tier,
    targets: TARGETS[tier] ?? {},
    metrics: summary.metrics,
    correctness: summary.correctness,
    failures: summary.failures,
    baselines: base,
    runs: runs.map((r) => ({ ...r, cacheDir: undefined })),
  };
  mkdirSync(o.results, { recursive: true });
  const out = path.join(o.results, `${date}-${o.shape}-${o.files}.json`);
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`results: ${out}\n`);
  if (o.keep || o.reuse || summary.failures.length > 0) {
    process.stdout.write(`kept: workspace ${ws}, server logs ${workDir}\n`);
  } else {
    rmSync(workDir, { recursive: true, force: true });
    rmSync(ws, { recursive: true, force: true });
    rmSync(truthPathFor(ws), { force: true });
  }
  const loadFailed = o.load && !loadTest(o);
  return summary.failures.length > 0 || loadFailed ? 1 : 0;
}

/** The team server under load (bench/http-load.mjs), one server and two replicas; true when no call failed. */
function loadTest(o) {
  log(
    `load: ${o.loadClients} HTTP clients x ${o.loadCalls} calls, one server, then two replicas on PostgreSQL`,
  );
  const args = ['--clients', o.loadClients, '--calls', o.loadCalls, '--results', o.results, '--cli', o.cli];
  const run = spawnSync(process.execPath, [path.join(HERE, 'http-load.mjs'), ...args.map(String)], {
    stdio: 'inherit',
  });
  return run.status === 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`bench: ${error.stack ?? error.message}\n`);
    process.exit(1);
  },
);
