#!/usr/bin/env node
// Call-graph accuracy on a local checkout, judged by hand.
//
//   node scripts/accuracy/calls.mjs sample <checkout> <worksheet.json> [--per-language 100] [--seed 1]
//        [--languages go,java] [--meshlens dist/meshlens.js]
//   node scripts/accuracy/calls.mjs score <checkout> <worksheet.json> [--json OUT]
//
// `sample` indexes the checkout (`init --auto`, then `graph --format calls`), draws a seeded random sample of
// call sites per language and writes a worksheet: each site with its file, line and source line, and an empty
// `truth` to fill in by reading the code. The worksheet never shows what meshlens bound the site to, so the
// judgement is made from the code alone. `truth` is one of:
//   "<file>:<line>"  the workspace declaration the call reaches (file workspace-relative, line of the
//                    declaration; several separated by " | " when the call dispatches to any of them),
//   "external"       a library, runtime or language built-in,
//   "unknown"        the code does not tell (a dynamic call, a callback parameter).
// `score` indexes again and compares: precision of exact (resolved) bindings, of heuristic ones, and recall
// over the sites whose truth is a workspace declaration. Exit 2 on bad arguments or a missing checkout.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDir, makeScratch, prepareConfig, runMeshlens } from './run-meshlens.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const [command, checkout, worksheet, ...rest] = argv;
  const opts = {
    perLanguage: 100,
    seed: 1,
    languages: undefined,
    meshlens: path.resolve(HERE, '../../dist/meshlens.js'),
  };
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i];
    const value = rest[++i];
    if (flag === '--per-language') opts.perLanguage = Number(value);
    else if (flag === '--seed') opts.seed = Number(value);
    else if (flag === '--languages') opts.languages = value.split(',');
    else if (flag === '--meshlens') opts.meshlens = path.resolve(value);
    else if (flag === '--json') opts.json = value;
    else usage(`unknown option ${flag}`);
  }
  if (!['sample', 'score'].includes(command) || !checkout || !worksheet) usage('missing arguments');
  if (!isDir(checkout)) usage(`no checkout at ${checkout}`);
  return { command, checkout: path.resolve(checkout), worksheet, opts };
}

function usage(why) {
  process.stderr.write(`${why}\nusage: calls.mjs sample|score <checkout> <worksheet.json> [options]\n`);
  process.exit(2);
}

/** Every call site of the checkout with its bindings, from a fresh index. */
function callSites(checkout, meshlens) {
  const scratch = makeScratch('calls');
  try {
    const config = prepareConfig({ meshlens, checkout, env: scratch.env, mode: 'auto' });
    const run = runMeshlens(meshlens, ['graph', '--format', 'calls', '--config', config.file], scratch.env);
    if (run.status !== 0) throw new Error(`meshlens graph failed (${run.status}): ${run.stderr}`);
    return JSON.parse(run.stdout);
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

function sample(checkout, worksheet, opts) {
  const { sites } = callSites(checkout, opts.meshlens);
  const byLanguage = new Map();
  for (const site of sites) {
    if (opts.languages && !opts.languages.includes(site.language)) continue;
    if (!byLanguage.has(site.language)) byLanguage.set(site.language, []);
    byLanguage.get(site.language).push(site);
  }
  const next = random(opts.seed);
  const rows = [];
  for (const [language, list] of [...byLanguage.entries()].sort()) {
    const pool = [...list];
    for (let n = 0; n < Math.min(opts.perLanguage, list.length); n++) {
      const [site] = pool.splice(Math.floor(next() * pool.length), 1);
      const text = readFileSync(path.join(checkout, site.file), 'utf8').split('\n')[site.line - 1] ?? '';
      rows.push({
        id: siteId(site),
        language,
        file: site.file,
        line: site.line,
        caller: site.caller,
        name: site.name,
        code: text.trim().slice(0, 200),
        truth: '',
      });
    }
  }
  writeFileSync(
    worksheet,
    `${JSON.stringify({ checkout: path.basename(checkout), seed: opts.seed, sites: rows }, null, 1)}\n`,
  );
  process.stdout.write(`${rows.length} sites written to ${worksheet}\n`);
}

const ratio = (n, d) => (d === 0 ? null : Math.round((n / d) * 1000) / 1000);

function score(checkout, worksheet, opts) {
  const sheet = JSON.parse(readFileSync(worksheet, 'utf8'));
  const found = new Map(callSites(checkout, opts.meshlens).sites.map((s) => [siteId(s), s]));
  const perLanguage = new Map();
  const wrong = [];
  for (const row of sheet.sites) {
    if (!row.truth) continue;
    const tally =
      perLanguage.get(row.language) ??
      perLanguage
        .set(row.language, {
          judged: 0,
          inWorkspace: 0,
          exact: 0,
          exactRight: 0,
          heuristic: 0,
          heuristicRight: 0,
          recalled: 0,
        })
        .get(row.language);
    tally.judged++;
    const truths =
      row.truth === 'external' || row.truth === 'unknown' ? [] : row.truth.split('|').map((t) => t.trim());
    if (truths.length > 0) tally.inWorkspace++;
    const targets = found.get(row.id)?.targets ?? [];
    const right = (t) => truths.includes(`${t.file}:${t.line}`);
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
      `wrong exact: ${w.file}:${w.line} ${w.name} -> ${w.bound.map((b) => `${b.file}:${b.line}`).join(', ')} (truth ${w.truth})\n`,
    );
  if (opts.json) writeFileSync(opts.json, `${JSON.stringify({ report, wrong }, null, 1)}\n`);
}

const { command, checkout, worksheet, opts } = parseArgs(process.argv.slice(2));
if (command === 'sample') sample(checkout, worksheet, opts);
else score(checkout, worksheet, opts);
