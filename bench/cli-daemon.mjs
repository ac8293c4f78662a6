#!/usr/bin/env node
// A CLI operation command answered by a warm workspace daemon, beside `node -e ''` and the same command in
// its own process (`--no-daemon`), each spawned to its exit in the same loop so that all three see the
// same load. The target is set as a ratio to `node -e ''` (at most 2×), because the absolute figures move
// with the machine's load.
//
//   node bench/cli-daemon.mjs [--runs 15] [--cli dist/meshlens.js] [--workspace DIR] [--query order]
//                             [--daemon-node PATH] [--no-in-process] [--json FILE]
//
// Before the rounds, one call starts the daemon and waits for its index (the cache is scratch, so that is a
// cold index), and two more warm it; the in-process command reads the fact cache that left. After the
// rounds the daemon is stopped. Each round checks that both commands printed the same bytes.
// `--daemon-node` starts the daemon with another Node binary than the one running this script (the clients'
// Node): a Node whose native modules are not built for it can then still time the client side, with
// `--no-in-process` (an in-process command would have no SQLite cache there).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    cli: { type: 'string', default: path.join(REPO, 'dist/meshlens.js') },
    workspace: { type: 'string', default: path.join(REPO, 'examples/polyglot-shop') },
    query: { type: 'string', default: 'order' },
    'daemon-node': { type: 'string' },
    'no-in-process': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const inProcess = !values['no-in-process'];
const runs = Number(values.runs);
const cli = path.resolve(values.cli);
const workspace = path.resolve(values.workspace);

/** A scratch cache, audit database and daemon folder, so that the runs neither read nor write the user's. */
const scratch = mkdtempSync(path.join(os.tmpdir(), 'meshlens-cli-daemon-'));
const env = {
  ...process.env,
  MESHLENS_CACHE_DIR: scratch,
  MESHLENS_AUDIT_DB: path.join(scratch, 'audit.db'),
  MESHLENS_DATA_DIR: path.join(scratch, 'data'),
  MESHLENS_NO_DAEMON: '',
  XDG_RUNTIME_DIR: '',
};
const search = ['code', 'search', '--query', values.query, '--workspace', workspace];

function timed(args, node = process.execPath) {
  const t0 = performance.now();
  const result = spawnSync(node, args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { ms, stdout: result.stdout };
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

try {
  for (let i = 0; i < 3; i++) timed([cli, ...search], values['daemon-node']);
  const rows = { node: [], daemon: [], ...(inProcess ? { inProcess: [] } : {}) };
  for (let round = 0; round < runs; round++) {
    rows.node.push(timed(['-e', '']).ms);
    const daemon = timed([cli, ...search]);
    rows.daemon.push(daemon.ms);
    if (!inProcess) continue;
    const own = timed([cli, ...search, '--no-daemon']);
    if (daemon.stdout !== own.stdout)
      throw new Error('the daemon and the CLI process printed different answers');
    rows.inProcess.push(own.ms);
  }
  const base = median(rows.node);
  const summary = Object.fromEntries(
    Object.entries(rows).map(([name, xs]) => [
      name,
      { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), ratio: median(xs) / base },
    ]),
  );
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const lines = Object.entries(summary).map(
    ([name, s]) =>
      `${name.padEnd(10)} median ${s.median.toFixed(0)} ms (min ${s.min.toFixed(0)}, max ${s.max.toFixed(0)}), ${s.ratio.toFixed(2)}× node -e ''`,
  );
  process.stdout.write(
    `node ${process.version}, ${runs} rounds, load average ${load}\n${lines.join('\n')}\n`,
  );
  if (values.json)
    writeFileSync(values.json, `${JSON.stringify({ node: process.version, runs, summary }, null, 2)}\n`);
} finally {
  spawnSync(process.execPath, [cli, 'daemon', 'stop', '--workspace', workspace], { env, stdio: 'ignore' });
  rmSync(scratch, { recursive: true, force: true });
}
