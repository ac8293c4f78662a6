#!/usr/bin/env node
// Spawn → `initialize` answered, paired with `node -e ''` in the same loop: the ratio between the two is
// what the boot target is set in (at most 2×), because the absolute figures move with the machine's load.
//
//   node bench/boot.mjs [--runs 15] [--cli dist/meshlens.js]… [--workspace DIR] [--tools] [--json FILE]
//
// Each round spawns `node -e ''` and then every `--cli` given (e.g. a build before and after a change), in
// that order, so that all of them see the same load. The server is sent one `initialize` line on stdin and
// the clock stops at the first byte of its answer; then stdin is closed and the process killed. Prints the
// median, min and max of each and the ratio of the medians to `node -e ''`. With `--tools` the client then
// says it is initialized and asks for `tools/list`, and a second row per build times that answer too (what
// the server defers past the handshake is paid there). Before the rounds, each build runs one session to its
// end (initialize, tools/list, stdin closed), as a client's earlier use would: on Node 22+ that fills the
// compile cache the later spawns read.
import { spawn, spawnSync } from 'node:child_process';
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
    cli: { type: 'string', multiple: true },
    workspace: { type: 'string', default: path.join(REPO, 'examples/polyglot-shop') },
    json: { type: 'string' },
    tools: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const clis = (values.cli ?? [path.join(REPO, 'dist/meshlens.js')]).map((c) => path.resolve(c));

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'boot-bench', version: '1' },
  },
})}\n`;
const TOOLS_LIST = `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`;

/** A scratch cache and audit database, so that the runs neither read nor write the user's. */
const scratch = mkdtempSync(path.join(os.tmpdir(), 'meshlens-boot-'));
const env = {
  ...process.env,
  MESHLENS_CACHE_DIR: scratch,
  MESHLENS_AUDIT_DB: path.join(scratch, 'audit.db'),
  // The boot of a whole server is what is measured, not a client attaching to a warm daemon.
  MESHLENS_NO_DAEMON: '1',
};

function nodeAlone() {
  const t0 = performance.now();
  spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  return performance.now() - t0;
}

/** Milliseconds from spawn to the answer to `initialize`, and with `--tools` to the answer to `tools/list`. */
function serve(cli) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [cli, 'serve', '--no-watch', '--workspace', values.workspace], {
      env,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    child.once('error', reject);
    const times = [];
    let pending = '';
    child.stdout.on('data', (chunk) => {
      if (times.length === 0) {
        times.push(performance.now() - t0);
        if (values.tools) child.stdin.write(TOOLS_LIST);
      }
      pending += chunk;
      if (values.tools && times.length === 1 && /"id":2[,}]/.test(pending))
        times.push(performance.now() - t0);
      if (times.length === (values.tools ? 2 : 1)) {
        child.stdout.removeAllListeners('data');
        child.stdin.end();
        child.kill('SIGKILL');
        child.once('exit', () => resolve(times));
      }
    });
    child.stdin.write(INITIALIZE);
  });
}

/** One whole session: answered, listed, then stdin closed and the server left to exit on its own. */
function warmUp(cli) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'serve', '--no-watch', '--workspace', values.workspace], {
      env,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    child.once('error', reject);
    let pending = '';
    child.stdout.on('data', (chunk) => {
      pending += chunk;
      if (/"id":1[,}]/.test(pending) && !pending.includes('"id":2')) child.stdin.write(TOOLS_LIST);
      if (/"id":2[,}]/.test(pending)) child.stdin.end();
    });
    child.once('exit', resolve);
    child.stdin.write(INITIALIZE);
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const samples = { node: [] };
try {
  for (const cli of clis) await warmUp(cli);
  for (let i = 0; i < runs; i++) {
    samples.node.push(nodeAlone());
    for (const cli of clis) {
      const [initialized, listed] = await serve(cli);
      (samples[cli] ??= []).push(initialized);
      if (listed !== undefined) (samples[`${cli} (tools/list)`] ??= []).push(listed);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const base = median(samples.node);
const rows = Object.entries(samples).map(([name, ms]) => ({
  name: name === 'node' ? "node -e ''" : path.relative(process.cwd(), name) || name,
  median: median(ms),
  min: Math.min(...ms),
  max: Math.max(...ms),
  ratio: median(ms) / base,
}));
const load = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
const width = Math.max(...rows.map((r) => r.name.length));
const lines = rows.map(
  (r) =>
    `${r.name.padEnd(width)} median ${r.median.toFixed(1).padStart(6)} ms  (${r.min.toFixed(0)}–${r.max.toFixed(0)})  ${r.ratio.toFixed(2)}×`,
);
process.stdout.write(`${runs} rounds, load average ${load}\n${lines.join('\n')}\n`);
if (values.json) writeFileSync(values.json, `${JSON.stringify({ runs, rows, samples }, null, 2)}\n`);
