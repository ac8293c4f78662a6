#!/usr/bin/env node
// Call-graph accuracy on local checkouts, judged by hand.
//
//   node scripts/accuracy/calls.mjs sample <out-folder> <checkout>... [--per-language 100] [--seed 1]
//        [--languages go,java] [--meshlens dist/meshlens.js]
//   node scripts/accuracy/calls.mjs score <checkouts-parent> <worksheet.json>... [--json OUT]
//
// `sample` indexes each checkout (`init --auto`, then `graph --format calls`) and draws a seeded random sample
// of call sites per language from each; minified lines (200 characters or more) are left out. It then takes up
// to --per-language sites per language, round-robin across the checkouts in the order given, and writes one
// worksheet per language into <out-folder>: each site with its checkout, file, line and source line, and an
// empty `truth` to fill in by reading the code. The worksheet never shows what meshlens bound the site to, so
// the judgement is made from the code alone. `truth` is one of:
//   "<file>:<line>"  the workspace declaration the call reaches (file checkout-relative, line where the declared
//                    name appears; several separated by " | " when the call dispatches to any of them),
//   "external"       a library, runtime or language built-in,
//   "unknown"        the code does not tell (a dynamic call, a callback parameter).
// `score` indexes each checkout named by the worksheets (folders of <checkouts-parent>) again and compares:
// precision of exact (resolved) bindings, of heuristic ones, and recall over the sites whose truth is a
// workspace declaration. A binding is right when it names the truth's file and line, or starts at most five
// lines above it under the same name (decorators and annotations open a declaration before its name).
// Exit 2 on bad arguments or a missing checkout.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDir, makeScratch, prepareConfig, runMeshlens } from './run-meshlens.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MINIFIED_LINE = 200;
const DECORATOR_LINES = 5;

function parseArgs(argv) {
  const [command, ...rest] = argv;
  const positional = [];
  const opts = {
    perLanguage: 100,
    seed: 1,
    languages: undefined,
    meshlens: path.resolve(HERE, '../../dist/meshlens.js'),
  };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const value = rest[++i];
    if (arg === '--per-language') opts.perLanguage = Number(value);
    else if (arg === '--seed') opts.seed = Number(value);
    else if (arg === '--languages') opts.languages = value.split(',');
    else if (arg === '--meshlens') opts.meshlens = path.resolve(value);
    else if (arg === '--json') opts.json = value;
    else usage(`unknown option ${arg}`);
  }
  if (!['sample', 'score'].includes(command) || positional.length < 2) usage('missing arguments');
  return { command, positional, opts };
}

function usage(why) {
  process.stderr.write(
    `${why}\nusage: calls.mjs sample <out-folder> <checkout>... | score <parent> <worksheet>...\n`,
  );
  process.exit(2);
}

function requireCheckout(dir) {
  if (!isDir(dir)) usage(`no checkout at ${dir}`);
  return path.resolve(dir);
}

/** Every call site of the checkout with its bindings, from a fresh index. */
function callSites(checkout, meshlens) {
  const scratch = makeScratch('calls');
  try {
    const config = prepareConfig({ meshlens, checkout, env: scratch.env, mode: 'auto' });
    const run = runMeshlens(meshlens, ['graph', '--format', 'calls', '--config', config.file], scratch.env);
    if (run.status !== 0) throw new Error(`meshlens graph failed (${run.status}): ${run.stderr}`);
    return JSON.parse(run.stdout).sites;
  } finally {
    scratch.remove();
  }
}

/** Mulberry32: a small seeded generator, so a worksheet can be drawn again identically. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const siteId = (site) => `${site.file}:${site.line}:${site.name}:${site.caller ?? ''}`;

/** One checkout's seeded draw: up to `perLanguage` rows per language, in draw order. */
function drawFromCheckout(checkout, opts) {
  const byLanguage = new Map();
  for (const site of callSites(checkout, opts.meshlens)) {
    if (opts.languages && !opts.languages.includes(site.language)) continue;
    if (!byLanguage.has(site.language)) byLanguage.set(site.language, []);
    byLanguage.get(site.language).push(site);
  }
  const next = random(opts.seed);
  const drawn = new Map();
  for (const [language, list] of [...byLanguage.entries()].sort()) {
    const pool = [...list];
    const rows = [];
    for (let n = 0; n < Math.min(opts.perLanguage, list.length); n++) {
      const [site] = pool.splice(Math.floor(next() * pool.length), 1);
      const text = readFileSync(path.join(checkout, site.file), 'utf8').split('\n')[site.line - 1] ?? '';
      const code = text.trim().slice(0, MINIFIED_LINE);
      if (code.length >= MINIFIED_LINE) continue;
      rows.push({
        corpus: path.basename(checkout),
        id: siteId(site),
        language,
        file: site.file,
        line: site.line,
        caller: site.caller,
        name: site.name,
        code,
        truth: '',
      });
    }
    drawn.set(language, rows);
  }
  return drawn;
}

function sample([outFolder, ...checkouts], opts) {
  const draws = checkouts.map((c) => drawFromCheckout(requireCheckout(c), opts));
  const languages = [...new Set(draws.flatMap((d) => [...d.keys()]))].sort();
  mkdirSync(outFolder, { recursive: true });
  for (const language of languages) {
    const queues = draws.map((d) => [...(d.get(language) ?? [])]);
    const sites = [];
    while (sites.length < opts.perLanguage && queues.some((q) => q.length > 0))
      for (const q of queues) if (q.length > 0 && sites.length < opts.perLanguage) sites.push(q.shift());
    const file = path.join(outFolder, `${language}.json`);
    writeFileSync(file, `${JSON.stringify({ language, seed: opts.seed, sites }, null, 1)}\n`);
    process.stdout.write(`${language}: ${sites.length} sites written to ${file}\n`);
  }
}

/**
 * Sites by id, and by `file:line:name` where that is unique: a later extraction may name the calling
 * declaration differently (a function newly recognised as a method) while the site stays the same.
 */
function siteLookup(sites) {
  const byId = new Map(sites.map((s) => [siteId(s), s]));
  const byPlace = new Map();
  for (const s of sites) {
    const place = `${s.file}:${s.line}:${s.name}`;
    byPlace.set(place, byPlace.has(place) ? null : s);
  }
  return {
    get: (id) => byId.get(id) ?? byPlace.get(id.split(':').slice(0, 3).join(':')) ?? undefined,
  };
}

const ratio = (n, d) => (d === 0 ? null : Math.round((n / d) * 1000) / 1000);
const lastSegment = (name) => name.split(/[.:#/]+/).pop();

function parseTruth(truth) {
  if (truth === 'external' || truth === 'unknown') return [];
  return truth.split('|').map((t) => {
    const at = t.trim().lastIndexOf(':');
    return { file: t.trim().slice(0, at), line: Number(t.trim().slice(at + 1)) };
  });
}

/** A binding is right on the truth's own line, or a few lines above it under the call's name. */
function rightBinding(binding, truths, callName) {
  return truths.some(
    (t) =>
      t.file === binding.file &&
      (t.line === binding.line ||
        (t.line > binding.line &&
          t.line - binding.line <= DECORATOR_LINES &&
          lastSegment(binding.name) === lastSegment(callName))),
  );
}

function tallyRow(tally, row, found, wrong) {
  tally.judged++;
  const truths = parseTruth(row.truth);
  if (truths.length > 0) tally.inWorkspace++;
  const targets = found.get(row.id)?.targets ?? [];
  const right = (t) => rightBinding(t, truths, row.name);
  const exact = targets.filter((t) => t.confidence === 'exact');
  const heuristic = targets.filter((t) => t.confidence !== 'exact');
  if (exact.length > 0) {
    tally.exact++;
    if (exact.every(right)) tally.exactRight++;
    else wrong.push({ ...row, bound: exact });
  } else if (heuristic.length > 0) {
    tally.heuristic++;
    if (heuristic.some(right)) tally.heuristicRight++;
  }
  if (truths.length > 0 && targets.some(right)) tally.recalled++;
}

function score([parent, ...worksheets], opts) {
  const rows = worksheets.flatMap((w) => JSON.parse(readFileSync(w, 'utf8')).sites.filter((r) => r.truth));
  const foundByCorpus = new Map();
  for (const corpus of new Set(rows.map((r) => r.corpus))) {
    const sites = callSites(requireCheckout(path.join(parent, corpus)), opts.meshlens);
    foundByCorpus.set(corpus, siteLookup(sites));
  }
  const perLanguage = new Map();
  const wrong = [];
  for (const row of rows) {
    if (!perLanguage.has(row.language))
      perLanguage.set(row.language, {
        judged: 0,
        inWorkspace: 0,
        exact: 0,
        exactRight: 0,
        heuristic: 0,
        heuristicRight: 0,
        recalled: 0,
      });
    tallyRow(perLanguage.get(row.language), row, foundByCorpus.get(row.corpus), wrong);
  }
  const report = [...perLanguage.entries()].map(([language, t]) => ({
    language,
    judged: t.judged,
    exact_precision: ratio(t.exactRight, t.exact),
    exact_bound: t.exact,
    heuristic_precision: ratio(t.heuristicRight, t.heuristic),
    heuristic_bound: t.heuristic,
    recall: ratio(t.recalled, t.inWorkspace),
    in_workspace: t.inWorkspace,
  }));
  for (const r of report) process.stdout.write(`${JSON.stringify(r)}\n`);
  for (const w of wrong)
    process.stdout.write(
      `wrong exact: ${w.corpus} ${w.file}:${w.line} ${w.name} -> ${w.bound.map((b) => `${b.file}:${b.line}`).join(', ')} (truth ${w.truth})\n`,
    );
  if (opts.json) writeFileSync(opts.json, `${JSON.stringify({ report, wrong }, null, 1)}\n`);
}

const { command, positional, opts } = parseArgs(process.argv.slice(2));
if (command === 'sample') sample(positional, opts);
else score(positional, opts);
