#!/usr/bin/env node
// Synthetic workspace generator for the meshlens benchmark.
//
//   node bench/gen-workspace.mjs --out DIR --files N [--roots R] [--seed S] [--shape small|realistic]
//
// Same arguments → byte-identical tree (a seeded PRNG, no Math.random, no clock). The ground truth — every
// declared symbol (name, kind, file, line) and every contract edge the generator wrote — goes to a sibling
// file `<DIR>.truth.json`, outside the tree, so the index never sees it. Also usable as a module:
// `generateWorkspace({ out, files, roots, seed, shape })`.
import { Buffer } from 'node:buffer';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createRng } from './lib/rng.mjs';
import { generateRealistic } from './lib/shape-realistic.mjs';
import { generateSmall } from './lib/shape-small.mjs';

export const SHAPES = ['small', 'realistic'];
const MARKER = '# meshlens benchmark workspace, written by bench/gen-workspace.mjs';

/** Where the ground truth of a workspace folder lives: beside it, never inside it. */
export const truthPathFor = (out) => `${path.resolve(out)}.truth.json`;

export function defaultRoots(shape) {
  return shape === 'realistic' ? 12 : 8;
}

/**
 * Writes the workspace and its truth file; returns a summary. Refuses to clear a non-empty folder it did
 * not write itself.
 */
export function generateWorkspace({ out, files, roots, seed = 42, shape = 'small' }) {
  if (!SHAPES.includes(shape)) throw new Error(`--shape must be one of ${SHAPES.join(', ')}`);
  if (!Number.isInteger(files) || files < 10) throw new Error('--files must be an integer >= 10');
  const r = roots ?? defaultRoots(shape);
  if (!Number.isInteger(r) || r < 1) throw new Error('--roots must be a positive integer');
  const dir = path.resolve(out);
  prepare(dir);
  const started = performance.now();
  const rng = createRng(`${shape}:${seed}:${files}:${r}`);
  const made = new Set();
  const fileTable = [];
  const symbols = [];
  const truth = { grpc: [], topics: [], http: [] };
  let bytes = 0;
  const byLanguage = {};

  const emit = (rel, lines, root, syms, language) => {
    const abs = path.join(dir, rel);
    const parent = path.dirname(abs);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    const text = `${lines.join('\n')}\n`;
    writeFileSync(abs, text);
    const size = Buffer.byteLength(text);
    bytes += size;
    byLanguage[language] = (byLanguage[language] ?? 0) + 1;
    const id = fileTable.length;
    fileTable.push({ path: rel, root, language, lines: lines.length, bytes: size });
    for (const s of syms) symbols.push([s.name, s.kind, id, s.line]);
  };

  const result =
    shape === 'small'
      ? generateSmall({ files, roots: r, rng, emit, truth })
      : generateRealistic({ files, roots: r, rng, emit, truth });
  writeFileSync(path.join(dir, 'meshlens.toml'), `${MARKER}\n${result.config.join('\n')}`);

  // Sorted, so the truth file is as deterministic as the tree.
  const order = fileTable.map((f, i) => i).sort((a, b) => (fileTable[a].path < fileTable[b].path ? -1 : 1));
  const rank = new Map(order.map((old, i) => [old, i]));
  const filesOut = order.map((i) => fileTable[i]);
  const symbolsOut = symbols
    .map(([name, kind, id, line]) => [name, kind, rank.get(id), line])
    .sort((a, b) => a[2] - b[2] || a[3] - b[3] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const byFileLine = (a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line);
  const rootsList = [...new Set(filesOut.map((f) => f.root))].sort();
  const summary = {
    shape,
    seed,
    requestedFiles: files,
    roots: r,
    files: filesOut.length,
    sourceFiles: filesOut.filter((f) => !['yaml', 'markdown', 'manifest', 'proto'].includes(f.language))
      .length,
    bytes,
    avgBytes: Math.round(bytes / filesOut.length),
    byLanguage: Object.fromEntries(Object.entries(byLanguage).sort()),
    extras: result.extras,
  };
  const truthDoc = {
    format: 'meshlens-bench-truth/1',
    note: 'symbols are [name, kind, fileIndex, line]; lines are 1-based; paths are workspace-relative',
    summary,
    rootsList,
    files: filesOut,
    symbols: symbolsOut,
    grpc: truth.grpc.sort(byFileLine),
    topics: truth.topics.sort(byFileLine),
    http: truth.http.sort(byFileLine),
    ...(result.services ? { services: result.services } : {}),
  };
  writeFileSync(truthPathFor(dir), `${JSON.stringify(truthDoc)}\n`);
  return { dir, truthPath: truthPathFor(dir), ms: Math.round(performance.now() - started), ...summary };
}

function prepare(dir) {
  if (existsSync(dir)) {
    const entries = readdirSync(dir);
    const ours = entries.includes('meshlens.toml') && entries.includes('services');
    if (entries.length > 0 && !ours)
      throw new Error(`${dir} is not empty and was not written by this generator; refusing to clear it`);
    rmSync(dir, { recursive: true, force: true });
  }
  mkdirSync(dir, { recursive: true });
}

export function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (!word.startsWith('--')) throw new Error(`unexpected argument ${word}`);
    const [key, inline] = word.slice(2).split('=', 2);
    const value = inline ?? argv[++i];
    out[key] = value;
  }
  return out;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!args.out || !args.files) {
    process.stderr.write(
      'usage: node bench/gen-workspace.mjs --out DIR --files N [--roots R] [--seed S] [--shape small|realistic]\n',
    );
    process.exit(2);
  }
  const summary = generateWorkspace({
    out: args.out,
    files: Number(args.files),
    roots: args.roots ? Number(args.roots) : undefined,
    seed: args.seed ?? 42,
    shape: args.shape ?? 'small',
  });
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`gen-workspace: ${error.message}\n`);
    process.exit(1);
  });
}
