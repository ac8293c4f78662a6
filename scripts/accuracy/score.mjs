#!/usr/bin/env node
// Scores meshlens' contract graph of a local checkout against a hand-written expected list.
//
//   node scripts/accuracy/score.mjs <checkout> <expected.json> [--meshlens dist/meshlens.js]
//        [--fail-under services=0.98,grpc=1,http=0.95/0.9,...] [--extra-roots pb,...] [--init print|auto]
//        [--graph FILE] [--json OUT] [--keep] [--quiet]
//
// Runs `meshlens init` (proposal printed, written to a hidden temp config inside the checkout and passed with
// --config; `--init auto` runs `init --auto --force` instead, which writes meshlens.toml into the checkout),
// then `meshlens graph --format json`, with a temp MESHLENS_CACHE_DIR and MESHLENS_AUDIT_DB. Never downloads.
// `--graph FILE` scores a graph document written earlier instead.
//
// A file's service is the expected list's service whose folder is the file's longest prefix (service-map.mjs),
// so edges are attributed the same way whatever roots meshlens chose. Scored categories: services
// (meshlens' service model, or its roots when the graph has no model), gRPC calls (caller, ProtoService),
// topics (topic, role, service), HTTP routes served (service, METHOD /path), HTTP calls (caller, callee).
// Informational: gRPC servers, HTTP calls by route.
//
// --fail-under name=P[/R],...: minimum precision (and recall) per scored category; names: services, grpc,
// topics, routes, http. Exit 0 ok, 1 under a threshold, 2 checkout or expected file missing (or bad
// arguments), 3 meshlens itself failed.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATEGORIES, score } from './compare.mjs';
import { deriveExpected, deriveFound } from './derive.mjs';
import { isDir, makeScratch, prepareConfig, rootsOf, runMeshlens } from './run-meshlens.mjs';
import { ServiceMap } from './service-map.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_MESHLENS = path.resolve(HERE, '../../dist/meshlens.js');

// ---------- arguments ----------

function parseArgs(argv) {
  const positional = [];
  const opts = {
    meshlens: DEFAULT_MESHLENS,
    failUnder: undefined,
    extraRoots: [],
    init: 'print',
    graph: undefined,
    json: undefined,
    keep: false,
    quiet: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const eq = a.indexOf('=');
      if (eq > 0) return a.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined) usage(`${a} needs a value`);
      return v;
    };
    const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    switch (name) {
      case '--meshlens':
        opts.meshlens = path.resolve(value());
        break;
      case '--fail-under':
        opts.failUnder = parseThresholds(value());
        break;
      case '--extra-roots':
        opts.extraRoots = value()
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        break;
      case '--init':
        opts.init = value();
        if (!['print', 'auto'].includes(opts.init)) usage('--init is print or auto');
        break;
      case '--graph':
        opts.graph = path.resolve(value());
        break;
      case '--json':
        opts.json = path.resolve(value());
        break;
      case '--keep':
        opts.keep = true;
        break;
      case '--quiet':
        opts.quiet = true;
        break;
      case '-h':
      case '--help':
        usage();
        break;
      default:
        if (a.startsWith('--')) usage(`unknown option ${a}`);
        positional.push(a);
    }
  }
  if (positional.length !== 2) usage('expected <checkout> <expected.json>');
  return { checkout: path.resolve(positional[0]), expectedFile: path.resolve(positional[1]), ...opts };
}

function usage(message) {
  if (message) process.stderr.write(`score.mjs: ${message}\n`);
  process.stderr.write(
    'usage: node scripts/accuracy/score.mjs <checkout> <expected.json> [--meshlens dist/meshlens.js] [--fail-under grpc=1,http=0.95/0.9]\n' +
      '       [--extra-roots pb] [--init print|auto] [--graph graph.json] [--json result.json] [--keep] [--quiet]\n',
  );
  process.exit(2);
}

/** `services=0.98,grpc=1,http=0.95/0.9`: minimum precision/recall per scored category (one value: both). */
function parseThresholds(text) {
  const flags = CATEGORIES.filter((c) => c.scored).map((c) => c.flag);
  const thresholds = {};
  for (const part of text
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const [flag, value] = part.split('=');
    if (!flags.includes(flag) || value === undefined)
      usage(`bad threshold ${part} (name=P or name=P/R, names: ${flags.join(', ')})`);
    const [pr, rc] = value.includes('/') ? value.split('/') : [value, value];
    const P = Number(pr);
    const R = Number(rc);
    if (!(P >= 0 && P <= 1 && R >= 0 && R <= 1))
      usage(`bad threshold ${part} (numbers between 0 and 1, or P/R)`);
    thresholds[flag] = { precision: P, recall: R };
  }
  return thresholds;
}

// ---------- evidence check ----------

function checkEvidence(checkout, expected) {
  const cited = [];
  const collect = (v) => {
    if (typeof v === 'string') {
      for (const m of v.matchAll(/((?:[\w.@-]+|\[[\w-]+\])(?:\/(?:[\w.@-]+|\[[\w-]+\]))*\.[A-Za-z]+):(\d+)/g))
        cited.push({ file: m[1], line: Number(m[2]) });
    } else if (Array.isArray(v)) {
      v.forEach(collect);
    }
  };
  for (const k of ['services', 'grpc', 'grpc_servers', 'topics', 'http', 'http_routes'])
    for (const item of expected[k] ?? []) {
      collect(item?.evidence);
      for (const side of [...(item?.producers ?? []), ...(item?.consumers ?? [])]) collect(side?.evidence);
    }
  const bad = [];
  for (const c of cited) {
    // Relative tails such as `producer.go:22` inside a sentence are resolved next to the previous full path.
    const abs = path.join(checkout, c.file);
    if (!existsSync(abs)) {
      if (!c.file.includes('/')) continue;
      bad.push(`${c.file}:${c.line} (no such file)`);
      continue;
    }
    const lines = readFileSync(abs, 'utf8').split('\n').length;
    if (c.line < 1 || c.line > lines) bad.push(`${c.file}:${c.line} (file has ${lines} lines)`);
  }
  return { cited: cited.length, bad };
}

// ---------- output ----------

const pct = (x) => x.toFixed(3);

function renderTable(results) {
  const rows = [['category', 'expected', 'found', 'TP', 'precision', 'recall']];
  for (const r of results)
    rows.push([r.title, String(r.expected), String(r.found), String(r.tp), pct(r.precision), pct(r.recall)]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  return rows
    .map((row) =>
      row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '),
    )
    .join('\n');
}

function renderDetails(results) {
  const out = [];
  for (const r of results) {
    if (r.missing.length === 0 && r.extra.length === 0) continue;
    out.push(`\n## ${r.title}`);
    for (const m of r.missing) out.push(`  MISSING ${m.edge}   [expected at ${m.evidence.join('; ')}]`);
    for (const x of r.extra) {
      out.push(`  EXTRA   ${x.edge}`);
      for (const ev of x.evidence.slice(0, 6)) out.push(`            found at ${ev}`);
      if (x.evidence.length > 6) out.push(`            … and ${x.evidence.length - 6} more`);
    }
  }
  return out.join('\n');
}

// ---------- main ----------

function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!isDir(args.checkout)) {
    process.stderr.write(`score.mjs: checkout not found: ${args.checkout}\n`);
    process.exit(2);
  }
  if (!existsSync(args.expectedFile)) {
    process.stderr.write(`score.mjs: expected file not found: ${args.expectedFile}\n`);
    process.exit(2);
  }
  let expected;
  try {
    expected = JSON.parse(readFileSync(args.expectedFile, 'utf8'));
  } catch (error) {
    process.stderr.write(`score.mjs: cannot read ${args.expectedFile}: ${error.message}\n`);
    process.exit(2);
  }

  let graph;
  let run = { ms: 0, roots: [], config: null };
  const scratch = makeScratch('accuracy');
  try {
    if (args.graph) {
      graph = JSON.parse(readFileSync(args.graph, 'utf8'));
    } else {
      if (!existsSync(args.meshlens)) {
        process.stderr.write(`score.mjs: meshlens CLI not found: ${args.meshlens} (run npm run build)\n`);
        scratch.remove();
        process.exit(2);
      }
      let config;
      try {
        config = prepareConfig({
          meshlens: args.meshlens,
          checkout: args.checkout,
          env: scratch.env,
          extraRoots: args.extraRoots,
          mode: args.init,
        });
      } catch (error) {
        process.stderr.write(`score.mjs: ${error.message}\n`);
        scratch.remove();
        process.exit(3);
      }
      const out = path.join(scratch.dir, 'graph.json');
      let result;
      try {
        result = runMeshlens(
          args.meshlens,
          ['graph', '--format', 'json', '-o', out, '--workspace', args.checkout, '--config', config.file],
          scratch.env,
        );
      } finally {
        config.cleanup();
      }
      if (result.status !== 0 || !existsSync(out)) {
        process.stderr.write(
          `score.mjs: meshlens graph failed (exit ${result.status}):\n${result.stderr}${result.stdout}\n`,
        );
        if (!args.keep) scratch.remove();
        process.exit(3);
      }
      graph = JSON.parse(readFileSync(out, 'utf8'));
      run = {
        ms: result.ms,
        roots: rootsOf(config.text),
        config:
          args.init === 'auto' ? 'meshlens.toml (init --auto --force)' : 'init proposal in a temp config',
      };
      if (args.keep) process.stderr.write(`score.mjs: kept ${scratch.dir}\n`);
    }
  } finally {
    if (!args.keep) scratch.remove();
  }

  const services = new ServiceMap(expected);
  const found = deriveFound(graph, services);
  const results = score(deriveExpected(expected, services), found);
  const evidence = checkEvidence(args.checkout, expected);

  const edgeKinds = {};
  for (const e of graph.edges) edgeKinds[e.kind] = (edgeKinds[e.kind] ?? 0) + 1;
  const header = [
    `# ${expected.name ?? path.basename(args.checkout)} (${expected.repo ?? '?'} @ ${String(expected.commit ?? '?').slice(0, 12)})`,
    `checkout ${args.checkout}${args.graph ? `; graph from ${args.graph}` : `; graph in ${(run.ms / 1000).toFixed(1)} s; roots ${run.roots.join(' ')}`}`,
    `graph: ${graph.nodes.length} nodes, ${graph.edges.length} edges (${Object.entries(edgeKinds)
      .sort()
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}); fingerprint ${String(graph.fingerprint ?? '').slice(0, 16)}`,
    `dropped: ${found.dropped.testCalls.length} calls, productions and consumptions made by test files, ${found.dropped.selfEdges.length} self-edges, ${found.dropped.unknownCaller.length} outside any expected service, ${found.dropped.unknownCallee.length} HTTP calls to a route outside any expected service`,
    `expected-list evidence: ${evidence.cited} citations checked, ${evidence.bad.length} bad${evidence.bad.length ? `: ${evidence.bad.join(', ')}` : ''}`,
  ];
  const lines = [header.join('\n'), '', renderTable(results), renderDetails(results)];
  if (!args.quiet && (found.dropped.unknownCallee.length || found.dropped.unknownCaller.length)) {
    lines.push('\n## dropped (not attributable to an expected service)');
    for (const d of [...found.dropped.unknownCaller, ...found.dropped.unknownCallee].slice(0, 30))
      lines.push(`  ${d}`);
  }

  const failed = [];
  if (args.failUnder) {
    for (const c of CATEGORIES.filter((x) => x.scored && args.failUnder[x.flag])) {
      const r = results.find((x) => x.key === c.key);
      const t = args.failUnder[c.flag];
      if (r.precision < t.precision) failed.push(`${r.title} precision ${pct(r.precision)} < ${t.precision}`);
      if (r.recall < t.recall) failed.push(`${r.title} recall ${pct(r.recall)} < ${t.recall}`);
    }
    const gates = Object.entries(args.failUnder).map(([k, t]) => `${k} ${t.precision}/${t.recall}`);
    lines.push(failed.length ? `\nFAIL: ${failed.join('; ')}` : `\nPASS (thresholds ${gates.join(', ')})`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);

  if (args.json) {
    writeFileSync(
      args.json,
      `${JSON.stringify(
        {
          name: expected.name,
          repo: expected.repo,
          commit: expected.commit,
          checkout: args.checkout,
          graphMs: run.ms,
          roots: run.roots,
          fingerprint: graph.fingerprint,
          edgeKinds,
          results,
          dropped: found.dropped,
          evidenceCheck: evidence,
          failed,
        },
        null,
        2,
      )}\n`,
    );
  }
  process.exit(failed.length ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
