#!/usr/bin/env node
// Summarises V8 CPU profiles (`node --cpu-prof`, e.g. written by `node bench/run.mjs --profile DIR`):
// self time by function and by source file, mapped back through the bundle's source maps to `src/…`.
//
//   node bench/profile-summary.mjs DIR_OR_FILES… [--top 25] [--from MS] [--to MS]
//
// `--from/--to` keep only samples in that window (ms since the profile started), e.g. to separate the
// cold index from the queries that follow it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const B64 = new Map(
  [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].map((c, i) => [c, i]),
);

/** Decodes a source map's `mappings` into per-generated-line sorted segments [column, sourceIndex]. */
function decodeMappings(mappings) {
  const lines = [];
  let source = 0;
  for (const lineText of mappings.split(';')) {
    const segs = [];
    let col = 0;
    for (const seg of lineText.split(',')) {
      if (!seg) continue;
      const values = [];
      let value = 0;
      let shift = 0;
      for (const ch of seg) {
        const digit = B64.get(ch);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      col += values[0];
      if (values.length >= 4) {
        source += values[1];
        segs.push([col, source]);
      }
    }
    lines.push(segs);
  }
  return lines;
}

const maps = new Map();
function sourceOf(url, line, column) {
  if (!url.startsWith('file://')) return url || '(native)';
  const file = fileURLToPath(url);
  if (!maps.has(file)) {
    let map;
    try {
      const raw = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
      map = {
        sources: raw.sources.map((s) => path.normalize(path.join(path.dirname(file), s))),
        lines: decodeMappings(raw.mappings),
      };
    } catch {
      map = undefined;
    }
    maps.set(file, map);
  }
  const map = maps.get(file);
  if (!map) return shorten(file);
  const segs = map.lines[line] ?? [];
  let hit;
  for (const seg of segs) {
    if (seg[0] <= column) hit = seg;
    else break;
  }
  if (!hit) hit = segs[0];
  return hit ? shorten(map.sources[hit[1]]) : shorten(file);
}

function shorten(file) {
  const nm = file.lastIndexOf('node_modules/');
  if (nm >= 0)
    return (
      file
        .slice(nm + 'node_modules/'.length)
        .split('/')
        .slice(0, file.includes('/@', nm) ? 2 : 1)
        .join('/') + ' (dependency)'
    );
  const src = file.indexOf('/src/');
  if (src >= 0) return file.slice(src + 1);
  return path.basename(file);
}

function analyse(file, { from, to }) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let t = 0;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] / 1000;
    if (t < from || t > to) continue;
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
    total += dt;
  }
  const fns = new Map();
  const files = new Map();
  for (const [id, ms] of self) {
    const node = byId.get(id);
    const cf = node.callFrame;
    const where = sourceOf(cf.url, cf.lineNumber, cf.columnNumber);
    const name = cf.functionName || '(anonymous)';
    const key = `${name} — ${where}`;
    fns.set(key, (fns.get(key) ?? 0) + ms);
    const bucket = name.startsWith('(') ? name : where;
    files.set(bucket, (files.get(bucket) ?? 0) + ms);
  }
  return { file, durationMs: (profile.endTime - profile.startTime) / 1000, sampledMs: total, fns, files };
}

/** Busy share of each time bucket and its top source file, to see what runs when. */
function timeline(file, bucketMs) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const buckets = [];
  let t = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] / 1000;
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const b = (buckets[Math.floor(t / bucketMs)] ??= { busy: 0, total: 0, where: new Map() });
    const cf = byId.get(profile.samples[i]).callFrame;
    b.total += dt;
    if (cf.functionName === '(idle)' || cf.functionName === 'atomicsWaitLoop') continue;
    b.busy += dt;
    const where = cf.functionName.startsWith('(')
      ? cf.functionName
      : sourceOf(cf.url, cf.lineNumber, cf.columnNumber);
    b.where.set(where, (b.where.get(where) ?? 0) + dt);
  }
  process.stdout.write(
    `\n## timeline of ${path.basename(file)} (${bucketMs} ms buckets; idle = (idle) or piscina atomicsWaitLoop)\n`,
  );
  buckets.forEach((b, i) => {
    if (!b) return;
    const top = [...b.where]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 3)
      .map(([k, ms]) => `${k} ${ms.toFixed(0)}`)
      .join(', ');
    const pct = b.total ? (100 * b.busy) / b.total : 0;
    process.stdout.write(
      `${String(i * bucketMs).padStart(7)} ms  busy ${pct.toFixed(0).padStart(3)} %  ${top}\n`,
    );
  });
}

function main() {
  // `… | head` closes the pipe early: stop quietly.
  process.stdout.on('error', (error) => (error.code === 'EPIPE' ? process.exit(0) : undefined));
  const args = process.argv.slice(2);
  const opt = (name, fallback) => {
    const i = args.indexOf(name);
    if (i < 0) return fallback;
    const v = Number(args[i + 1]);
    args.splice(i, 2);
    return v;
  };
  const top = opt('--top', 25);
  const bucket = opt('--timeline', 0);
  const from = opt('--from', 0);
  const to = opt('--to', Infinity);
  const inputs = args.flatMap((a) =>
    existsSync(a) && statSync(a).isDirectory()
      ? readdirSync(a)
          .filter((f) => f.endsWith('.cpuprofile'))
          .sort()
          .map((f) => path.join(a, f))
      : [a],
  );
  if (inputs.length === 0) {
    process.stderr.write(
      'usage: node bench/profile-summary.mjs DIR_OR_FILES… [--top N] [--from MS] [--to MS]\n',
    );
    process.exit(2);
  }
  if (bucket > 0) {
    for (const input of inputs) timeline(input, bucket);
    return;
  }
  for (const input of inputs) {
    const r = analyse(input, { from, to });
    const busy = r.sampledMs - (r.files.get('(idle)') ?? 0);
    process.stdout.write(
      `\n## ${path.basename(r.file)}: ${r.durationMs.toFixed(0)} ms profiled, ${r.sampledMs.toFixed(0)} ms in window, ${busy.toFixed(0)} ms busy\n\n`,
    );
    process.stdout.write('Self time by source file (or V8 bucket):\n');
    for (const [k, ms] of [...r.files].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      process.stdout.write(
        `${ms.toFixed(0).padStart(8)} ms ${((100 * ms) / r.sampledMs).toFixed(1).padStart(5)} %  ${k}\n`,
      );
    }
    process.stdout.write('\nSelf time by function:\n');
    for (const [k, ms] of [...r.fns].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      process.stdout.write(
        `${ms.toFixed(0).padStart(8)} ms ${((100 * ms) / r.sampledMs).toFixed(1).padStart(5)} %  ${k}\n`,
      );
    }
  }
}

main();
