#!/usr/bin/env node
// Scores meshlens' contract graph of a local checkout against a hand-written expected list.
//
//   node scripts/accuracy/score.mjs <checkout> <expected.json> [--meshlens dist/meshlens.js]
//        [--fail-under G,T,H] [--extra-roots pb,...] [--init print|auto] [--graph FILE]
//        [--json OUT] [--keep] [--quiet]
//
// Runs `meshlens init` (proposal printed, written to a hidden temp config inside the checkout and passed with
// --config; `--init auto` runs `init --auto --force` instead, which writes meshlens.toml into the checkout),
// then `meshlens graph --format json`, with a temp MESHLENS_CACHE_DIR and MESHLENS_AUDIT_DB. Never downloads.
//
// Scored categories (thresholds apply, in this order): gRPC calls (caller service, ProtoService), topics
// (topic, role, service), HTTP calls (caller service, callee service). Informational: gRPC servers
// (service, ProtoService), HTTP calls by route, HTTP routes served.
//
// --fail-under G,T,H: minimum precision and recall per scored category; an entry may be `P/R` to set them
// apart; one value applies to all three. Exit 0 ok, 1 under a threshold, 2 checkout or expected file
// missing (or bad arguments), 3 meshlens itself failed.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDir, makeScratch, prepareConfig, rootsOf, runMeshlens } from './run-meshlens.mjs';

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
    'usage: node scripts/accuracy/score.mjs <checkout> <expected.json> [--meshlens dist/meshlens.js] [--fail-under 1.0,0.95,0.95]\n' +
      '       [--extra-roots pb] [--init print|auto] [--graph graph.json] [--json result.json] [--keep] [--quiet]\n',
  );
  process.exit(2);
}

function parseThresholds(text) {
  const parts = text.split(',').map((s) => s.trim());
  const one = (p) => {
    const [pr, rc] = p.includes('/') ? p.split('/') : [p, p];
    const P = Number(pr);
    const R = Number(rc);
    if (!(P >= 0 && P <= 1 && R >= 0 && R <= 1))
      usage(`bad threshold ${p} (numbers between 0 and 1, or P/R)`);
    return { precision: P, recall: R };
  };
  if (parts.length === 1) return Array(3).fill(one(parts[0]));
  if (parts.length !== 3) usage('--fail-under takes one value or three (gRPC,topics,HTTP)');
  return parts.map(one);
}

// ---------- identities ----------

/** Service identity: lowercase alphanumerics (fraud-detection -> frauddetection). */
export const norm = (s) =>
  String(s)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** The `src/<dir>/` segment of a workspace-relative path, as written (null outside any service folder). */
export function serviceDirOf(file) {
  if (!file) return null;
  const m = /(?:^|\/)src\/([^/]+)\//.exec(file.replace(/\\/g, '/'));
  return m ? m[1] : null;
}

/** `pkg.v1.PaymentService/Charge` or `pkg.v1.PaymentService` -> `PaymentService`. */
export function protoServiceOf(name) {
  const service = String(name).split('/')[0];
  return service.slice(service.lastIndexOf('.') + 1);
}

/** `GET /api/products/[id]`, `GET /api/products/:id`, `GET /api/products/{productId}/` -> `GET /api/products/{}`. */
export function normRoute(route) {
  const text = String(route).trim();
  const space = text.indexOf(' ');
  const method = (space > 0 ? text.slice(0, space) : 'ANY').toUpperCase();
  let p = space > 0 ? text.slice(space + 1).trim() : text;
  p = p
    .replace(/\{[^}]*\}/g, '{}')
    .replace(/\[[^\]]*\]/g, '{}')
    .replace(/<[^>]*>/g, '{}')
    .replace(/(^|\/):[A-Za-z_][A-Za-z0-9_]*/g, '$1{}');
  if (p.length > 1) p = p.replace(/\/+$/, '');
  if (!p.startsWith('/')) p = `/${p}`;
  return `${method} ${p}`;
}

// ---------- found edges ----------

/** Derives the found facts from a `graph --format json` document. */
export function deriveFound(graph) {
  const nodes = graph.nodes;
  const nodeOf = (id) => nodes[id] ?? {};
  const evidence = (e) =>
    `${e.file ?? nodeOf(e.from).file ?? '?'}:${e.line ?? nodeOf(e.from).line ?? '?'} (${e.via ?? e.kind}, ${e.confidence ?? '?'})`;
  const callerDir = (e) => serviceDirOf(e.file) ?? serviceDirOf(nodeOf(e.from).file);

  // Every service folder the graph knows, for the proto-name fallback.
  const serviceDirs = new Map();
  for (const n of nodes) {
    const d = serviceDirOf(n.file);
    if (d) serviceDirs.set(norm(d), d);
  }
  for (const r of graph.roots ?? []) {
    const d = serviceDirOf(`${r.path}/`);
    if (d) serviceDirs.set(norm(d), d);
  }

  const dropped = { unknownCaller: [], selfEdges: [], unknownCallee: [] };
  const add = (map, key, value, ev) => {
    if (!map.has(key)) map.set(key, { ...value, evidence: [] });
    map.get(key).evidence.push(ev);
  };

  // gRPC servers: implements edges.
  const servers = new Map();
  const implementers = new Map(); // norm(ProtoService) -> Set(norm(service dir))
  for (const e of graph.edges) {
    if (e.kind !== 'implements') continue;
    const target = nodeOf(e.to);
    if (target.kind !== 'grpc_service' && target.kind !== 'grpc_method') continue;
    const proto = protoServiceOf(target.name);
    const dir = callerDir(e);
    if (!dir) {
      dropped.unknownCaller.push(`implements ${proto} at ${evidence(e)}`);
      continue;
    }
    if (!implementers.has(norm(proto))) implementers.set(norm(proto), new Set());
    implementers.get(norm(proto)).add(norm(dir));
    add(servers, `${norm(dir)}|${norm(proto)}`, { service: dir, implements: proto }, evidence(e));
  }
  const calleesOf = (proto) => {
    const impl = implementers.get(norm(proto));
    if (impl && impl.size > 0) return impl;
    const bare = norm(proto);
    const stem = bare.replace(/service$/, '');
    return new Set([...serviceDirs.keys()].filter((d) => d === bare || d === stem || `${d}service` === bare));
  };

  const grpc = new Map();
  const topics = new Map();
  const httpPairs = new Map();
  const httpRoutes = new Map();
  const served = new Map();
  for (const e of graph.edges) {
    const target = nodeOf(e.to);
    if (e.kind === 'calls_rpc') {
      if (target.kind !== 'grpc_service' && target.kind !== 'grpc_method') continue;
      const proto = protoServiceOf(target.name);
      const dir = callerDir(e);
      if (!dir) {
        dropped.unknownCaller.push(`calls_rpc -> ${proto} at ${evidence(e)}`);
        continue;
      }
      if (calleesOf(proto).has(norm(dir))) {
        dropped.selfEdges.push(`calls_rpc ${dir} -> ${proto} at ${evidence(e)}`);
        continue;
      }
      add(grpc, `${norm(dir)}|${norm(proto)}`, { from: dir, to: proto }, evidence(e));
    } else if (e.kind === 'produces' || e.kind === 'consumes') {
      const dir = callerDir(e);
      const role = e.kind === 'produces' ? 'producer' : 'consumer';
      if (!dir) {
        dropped.unknownCaller.push(`${e.kind} ${target.name} at ${evidence(e)}`);
        continue;
      }
      add(
        topics,
        `${target.name}|${role}|${norm(dir)}`,
        { topic: target.name, role, service: dir },
        evidence(e),
      );
    } else if (e.kind === 'calls_http') {
      const from = callerDir(e);
      const to = serviceDirOf(target.file);
      if (!from) {
        dropped.unknownCaller.push(`calls_http -> ${target.name} at ${evidence(e)}`);
        continue;
      }
      if (!to) {
        dropped.unknownCallee.push(
          `calls_http ${from} -> ${target.name} (route file ${target.file ?? 'none'}) at ${evidence(e)}`,
        );
        continue;
      }
      if (norm(from) === norm(to)) {
        dropped.selfEdges.push(`calls_http ${from} -> ${target.name} at ${evidence(e)}`);
        continue;
      }
      add(httpPairs, `${norm(from)}|${norm(to)}`, { from, to }, `${evidence(e)} -> ${target.name}`);
      add(
        httpRoutes,
        `${norm(from)}|${norm(to)}|${normRoute(target.name)}`,
        { from, to, route: target.name },
        evidence(e),
      );
    } else if (e.kind === 'serves_http') {
      const dir = callerDir(e) ?? serviceDirOf(target.file);
      if (!dir) {
        dropped.unknownCaller.push(`serves_http ${target.name} at ${evidence(e)}`);
        continue;
      }
      if (normRoute(target.name).startsWith('HEAD ')) continue;
      add(
        served,
        `${norm(dir)}|${normRoute(target.name)}`,
        { service: dir, route: target.name },
        evidence(e),
      );
    }
  }
  return { grpc, servers, topics, httpPairs, httpRoutes, served, dropped };
}

// ---------- expected ----------

export function deriveExpected(expected) {
  const map = () => new Map();
  const grpc = map();
  const servers = map();
  const topics = map();
  const httpPairs = map();
  const httpRoutes = map();
  const served = map();
  const put = (m, key, value) => {
    if (m.has(key)) m.get(key).evidence.push(value.evidence);
    else m.set(key, { ...value, evidence: [value.evidence] });
  };
  for (const g of expected.grpc ?? []) put(grpc, `${norm(g.from)}|${norm(g.to)}`, g);
  for (const s of expected.grpc_servers ?? []) put(servers, `${norm(s.service)}|${norm(s.implements)}`, s);
  // A topic's evidence names every side; each (topic, role, service) keeps the `;`-separated part naming it.
  const sideOf = (text, dir) => {
    const parts = String(text ?? '')
      .split(';')
      .map((x) => x.trim());
    return parts.filter((x) => x.includes(`src/${dir}/`)).join('; ') || String(text ?? '');
  };
  for (const t of expected.topics ?? []) {
    for (const p of t.producers ?? [])
      put(topics, `${t.topic}|producer|${norm(p)}`, {
        topic: t.topic,
        role: 'producer',
        service: p,
        evidence: sideOf(t.evidence, p),
      });
    for (const c of t.consumers ?? [])
      put(topics, `${t.topic}|consumer|${norm(c)}`, {
        topic: t.topic,
        role: 'consumer',
        service: c,
        evidence: sideOf(t.evidence, c),
      });
  }
  for (const h of expected.http ?? []) {
    put(httpPairs, `${norm(h.from)}|${norm(h.to)}`, {
      from: h.from,
      to: h.to,
      evidence: `${h.evidence}${h.route ? ` (${h.route})` : ''}`,
    });
    if (h.route) put(httpRoutes, `${norm(h.from)}|${norm(h.to)}|${normRoute(h.route)}`, h);
  }
  for (const r of expected.http_routes ?? []) put(served, `${norm(r.service)}|${normRoute(r.route)}`, r);
  return { grpc, servers, topics, httpPairs, httpRoutes, served };
}

// ---------- scoring ----------

const CATEGORIES = [
  { key: 'grpc', title: 'gRPC calls', scored: true, label: (v) => `${v.from} -> ${v.to}` },
  { key: 'topics', title: 'topics', scored: true, label: (v) => `${v.topic}: ${v.role} ${v.service}` },
  {
    key: 'httpPairs',
    title: 'HTTP calls (service pairs)',
    scored: true,
    label: (v) => `${v.from} -> ${v.to}`,
  },
  {
    key: 'servers',
    title: 'gRPC servers (info)',
    scored: false,
    label: (v) => `${v.service} implements ${v.implements}`,
  },
  {
    key: 'httpRoutes',
    title: 'HTTP calls by route (info)',
    scored: false,
    routes: true,
    label: (v) => `${v.from} -> ${v.to} ${v.route}`,
  },
  {
    key: 'served',
    title: 'HTTP routes served (info)',
    scored: false,
    routes: true,
    label: (v) => `${v.service} ${v.route}`,
  },
];

/**
 * Route keys end in `METHOD /path`: an `ANY` route on either side matches every method on the same path
 * (a Next.js pages/api file is one ANY route; an expected ANY route may be found per method).
 */
function routeKeysMatch(a, b) {
  if (a === b) return true;
  const split = (k) => {
    const bar = k.lastIndexOf('|');
    const route = k.slice(bar + 1);
    const space = route.indexOf(' ');
    return { owner: k.slice(0, bar), method: route.slice(0, space), path: route.slice(space + 1) };
  };
  const x = split(a);
  const y = split(b);
  return x.owner === y.owner && x.path === y.path && (x.method === 'ANY' || y.method === 'ANY');
}

export function score(expectedSets, foundSets) {
  const results = [];
  for (const c of CATEGORIES) {
    const exp = expectedSets[c.key];
    const found = foundSets[c.key];
    const matches = c.routes
      ? (ek) => [...found.keys()].some((fk) => routeKeysMatch(ek, fk))
      : (ek) => found.has(ek);
    const isExpected = c.routes
      ? (fk) => [...exp.keys()].some((ek) => routeKeysMatch(ek, fk))
      : (fk) => exp.has(fk);
    const tp = [...exp.keys()].filter(matches);
    const missing = [...exp.keys()]
      .filter((k) => !matches(k))
      .sort()
      .map((k) => ({ edge: c.label(exp.get(k)), evidence: exp.get(k).evidence }));
    const extra = [...found.keys()]
      .filter((k) => !isExpected(k))
      .sort()
      .map((k) => ({ edge: c.label(found.get(k)), evidence: found.get(k).evidence }));
    // Precision counts found entries that match something expected (an ANY route may stand for several).
    const foundMatched = found.size - extra.length;
    results.push({
      key: c.key,
      title: c.title,
      scored: c.scored,
      expected: exp.size,
      found: found.size,
      tp: tp.length,
      precision: found.size === 0 ? 1 : foundMatched / found.size,
      recall: exp.size === 0 ? 1 : tp.length / exp.size,
      missing,
      extra,
    });
  }
  return results;
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
  for (const k of ['grpc', 'grpc_servers', 'topics', 'http', 'http_routes'])
    for (const item of expected[k] ?? []) collect(item?.evidence);
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

  const found = deriveFound(graph);
  const results = score(deriveExpected(expected), found);
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
    `dropped: ${found.dropped.selfEdges.length} self-edges, ${found.dropped.unknownCaller.length} outside src/<dir>/, ${found.dropped.unknownCallee.length} HTTP calls to a route outside src/<dir>/`,
    `expected-list evidence: ${evidence.cited} citations checked, ${evidence.bad.length} bad${evidence.bad.length ? `: ${evidence.bad.join(', ')}` : ''}`,
  ];
  const lines = [header.join('\n'), '', renderTable(results), renderDetails(results)];
  if (!args.quiet && (found.dropped.unknownCallee.length || found.dropped.unknownCaller.length)) {
    lines.push('\n## dropped (not attributable to a src/<dir>/ service)');
    for (const d of [...found.dropped.unknownCaller, ...found.dropped.unknownCallee].slice(0, 30))
      lines.push(`  ${d}`);
  }

  let failed = [];
  if (args.failUnder) {
    const scored = results.filter((r) => r.scored);
    scored.forEach((r, i) => {
      const t = args.failUnder[i];
      if (r.precision < t.precision) failed.push(`${r.title} precision ${pct(r.precision)} < ${t.precision}`);
      if (r.recall < t.recall) failed.push(`${r.title} recall ${pct(r.recall)} < ${t.recall}`);
    });
    lines.push(
      failed.length
        ? `\nFAIL: ${failed.join('; ')}`
        : `\nPASS (thresholds ${args.failUnder.map((t) => `${t.precision}/${t.recall}`).join(', ')})`,
    );
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
