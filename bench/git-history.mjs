#!/usr/bin/env node
// The git domain's benchmark: a generated workspace given a history of many commits (written with
// `git fast-import`, seeded, so the same arguments give the same repository), served by the built CLI over
// stdio, then `commits_touching` and `blame_symbol` timed beside the git commands a shell would run for the
// same answer (`git log --follow -- path`, `git blame -L a,b -- path`).
//
//   npm run bench:git -- [--files 5000] [--commits 2000] [--samples 60] [--seed 42] [--keep]
//
// Prints one table and writes bench/results/<YYYY-MM-DD>-git-history-<files>.json.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Buffer } from 'node:buffer';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { generateWorkspace, truthPathFor } from './gen-workspace.mjs';
import { createRng } from './lib/rng.mjs';
import { fmt, percentile, round, textTable } from './lib/stats.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..');
/** Languages whose line comments start with `//`: an edit is a comment line inside a declaration. */
const SLASH_COMMENTS = new Set([
  'typescript',
  'go',
  'java',
  'kotlin',
  'csharp',
  'cpp',
  'rust',
  'scala',
  'php',
]);
const EDITABLE_KINDS = new Set(['function', 'method']);

function options(argv) {
  const o = {
    files: 5000,
    commits: 2000,
    samples: 60,
    seed: 42,
    keep: false,
    cli: path.join(REPO, 'dist/meshlens.js'),
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => Number(argv[++i]);
    if (flag === '--files') o.files = value();
    else if (flag === '--commits') o.commits = value();
    else if (flag === '--samples') o.samples = value();
    else if (flag === '--seed') o.seed = value();
    else if (flag === '--keep') o.keep = true;
    else throw new Error(`unknown option ${flag}`);
  }
  return o;
}

const gitEnv = () => {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1' };
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE']) delete env[name];
  return env;
};
const git = (cwd, args, input) =>
  execFileSync('git', args, { cwd, env: gitEnv(), input, maxBuffer: 1 << 30, encoding: 'utf8' });

/**
 * One commit of every file, then `commits` commits each inserting a comment line into 1–3 declarations: a
 * fast-import stream, so that thousands of commits take seconds, not minutes.
 */
function writeHistory(ws, truth, o) {
  const rng = createRng(o.seed);
  const editable = truth.symbols
    .filter(
      ([, kind, fileIndex]) =>
        EDITABLE_KINDS.has(kind) && SLASH_COMMENTS.has(truth.files[fileIndex]?.language),
    )
    .map(([name, , fileIndex, line]) => ({ name, file: truth.files[fileIndex].path, line }));
  const contents = new Map();
  const read = (file) => contents.get(file) ?? readFileSync(path.join(ws, file), 'utf8');
  git(ws, ['init', '-q', '-b', 'main']);
  git(ws, ['add', '-A']);
  git(ws, [
    '-c',
    'user.name=Bench',
    '-c',
    'user.email=bench@example.invalid',
    'commit',
    '-q',
    '-m',
    'workspace',
  ]);
  const chunks = [];
  const data = (text) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const shifted = new Map();
  for (let i = 1; i <= o.commits; i++) {
    const touched = rng.range(1, 3);
    const lines = [
      `commit refs/heads/main`,
      `committer Bench <bench@example.invalid> ${1_767_225_600 + i * 60} +0000`,
    ];
    const message = `edit ${i}: adjust ${touched} declaration(s)`;
    chunks.push(`${lines.join('\n')}\n${data(message)}${i === 1 ? 'from refs/heads/main^0\n' : ''}`);
    for (let t = 0; t < touched; t++) {
      const target = rng.pick(editable);
      // Earlier insertions above a declaration move it down; the truth's line is of the first version.
      const offset = shifted.get(`${target.file}:${target.line}`) ?? 0;
      const text = read(target.file).split('\n');
      text.splice(target.line + offset, 0, `  // edit ${i}`);
      for (const other of editable)
        if (other.file === target.file && other.line > target.line)
          shifted.set(`${other.file}:${other.line}`, (shifted.get(`${other.file}:${other.line}`) ?? 0) + 1);
      shifted.set(`${target.file}:${target.line}`, offset + 1);
      contents.set(target.file, text.join('\n'));
      chunks.push(`M 100644 inline ${target.file}\n${data(contents.get(target.file))}`);
    }
  }
  git(ws, ['fast-import', '--quiet', '--force'], chunks.join(''));
  git(ws, ['reset', '-q', '--hard', 'main']);
  return editable;
}

async function startServer(o, ws, cacheDir) {
  const env = {
    ...process.env,
    MESHLENS_CACHE_DIR: cacheDir,
    MESHLENS_AUDIT_DB: path.join(cacheDir, 'audit.db'),
    // The server process is the one measured, so it serves in-process rather than through a daemon.
    MESHLENS_NO_DAEMON: '1',
  };
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [o.cli, 'serve', '--surface', 'flat', '--workspace', ws],
    env,
    stderr: 'ignore',
    cwd: ws,
  });
  const client = new Client({ name: 'meshlens-bench-git', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function timedCall(client, name, args) {
  const t = performance.now();
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
  return { ms: performance.now() - t, result };
}

async function waitForIndex(client) {
  for (;;) {
    const { result } = await timedCall(client, 'recent_commits', { limit: 1 });
    if (!result.isError) return;
    await sleep(250);
  }
}

function timedGit(ws, args) {
  const t = performance.now();
  const run = spawnSync('git', args, { cwd: ws, env: gitEnv(), maxBuffer: 1 << 30 });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${run.stderr}`);
  return performance.now() - t;
}

const stats = (ms) => ({
  p50: round(percentile(ms, 50), 1),
  p95: round(percentile(ms, 95), 1),
  n: ms.length,
});

async function main() {
  const o = options(process.argv.slice(2));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'meshlens-bench-git-'));
  const ws = path.join(dir, 'ws');
  try {
    const t0 = performance.now();
    generateWorkspace({ out: ws, files: o.files, seed: o.seed, shape: 'realistic' });
    const truth = JSON.parse(readFileSync(truthPathFor(ws), 'utf8'));
    const editable = writeHistory(ws, truth, o);
    const historyMs = performance.now() - t0;
    const client = await startServer(o, ws, path.join(dir, 'cache'));
    await waitForIndex(client);
    const rng = createRng(o.seed + 1);
    const samples = Array.from({ length: o.samples }, () => rng.pick(editable));
    const times = { touching: [], logFollow: [], blameSymbol: [], blameL: [] };
    const errors = [];
    for (const s of samples) {
      const touching = await timedCall(client, 'commits_touching', { path: s.file, limit: 20 });
      times.touching.push(touching.ms);
      times.logFollow.push(
        timedGit(ws, ['log', '--follow', '-n', '20', '--name-status', '--format=%H %s', '--', s.file]),
      );
      const blame = await timedCall(client, 'blame_symbol', { path: s.file, name: s.name });
      const data = blame.result.structuredContent;
      if (blame.result.isError || !data) {
        errors.push(`${s.file}:${s.name}: ${(blame.result.content ?? [])[0]?.text ?? ''}`.slice(0, 300));
        continue;
      }
      times.blameSymbol.push(blame.ms);
      times.blameL.push(
        timedGit(ws, ['blame', '--porcelain', '-L', `${data.start_line},${data.end_line}`, '--', s.file]),
      );
    }
    await client.close();
    const summary = {
      files: o.files,
      commits: o.commits + 1,
      samples: o.samples,
      blame_symbol_errors: errors.length,
      blame_symbol_error_samples: errors.slice(0, 3),
      history_build_ms: Math.round(historyMs),
      commits_touching_ms: stats(times.touching),
      git_log_follow_ms: stats(times.logFollow),
      blame_symbol_ms: stats(times.blameSymbol),
      git_blame_L_ms: stats(times.blameL),
    };
    const rows = [
      ['commits_touching (limit 20)', summary.commits_touching_ms],
      ['git log --follow -n 20 -- path', summary.git_log_follow_ms],
      ['blame_symbol', summary.blame_symbol_ms],
      ['git blame --porcelain -L a,b', summary.git_blame_L_ms],
    ].map(([name, s]) => [name, fmt(s.p50), fmt(s.p95), String(s.n)]);
    process.stdout.write(`${textTable(['measure', 'p50 ms', 'p95 ms', 'n'], rows)}\n`);
    process.stdout.write(
      `history: ${summary.commits} commits over ${o.files} source files, built in ${summary.history_build_ms} ms; blame_symbol errors: ${errors.length}\n`,
    );
    const results = path.join(HERE, 'results');
    mkdirSync(results, { recursive: true });
    const out = path.join(results, `${new Date().toISOString().slice(0, 10)}-git-history-${o.files}.json`);
    writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
    process.stdout.write(`wrote ${path.relative(REPO, out)}\n`);
  } finally {
    if (!o.keep) rmSync(dir, { recursive: true, force: true });
    else process.stdout.write(`kept ${dir}\n`);
  }
}

await main();
