// Found facts (from a `meshlens graph --format json` document) and expected facts (from a hand-written list),
// as keyed sets the scorer compares. Service identity comes from the expected list (see service-map.mjs),
// so an edge is attributed the same way whatever roots meshlens chose.
import { norm } from './service-map.mjs';

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

const SERVICE_KINDS = new Set(['service', 'gateway', 'loadgen']);

/**
 * Test files, by the rule meshlens' answers use to leave them out (src/ops/shared/workspace-paths.ts
 * `isTestPath`): a call a test makes is not a call between services, and the expected lists leave them out.
 */
export function isTestFile(file) {
  const f = String(file ?? '');
  return (
    /(^|\/)(__tests__|__mocks__|test-utils|testdata|tests?|spec|e2e)\//i.test(f) ||
    /\.(spec|test|e2e-spec)\.[cm]?[jt]sx?$/i.test(f) ||
    /_test\.(go|py)$/i.test(f) ||
    /(^|\/)test_[^/]*\.py$/i.test(f) ||
    /(Test|Tests|IT)\.(java|kt|cs|scala)$/.test(f) ||
    /(^|\/)src\/test\//.test(f)
  );
}

function keyedSets() {
  const sets = {};
  for (const k of ['services', 'grpc', 'servers', 'topics', 'httpPairs', 'httpRoutes', 'served'])
    sets[k] = new Map();
  return sets;
}

function adder(map, key, value, evidence) {
  if (!map.has(key)) map.set(key, { ...value, evidence: [] });
  map.get(key).evidence.push(evidence);
}

/** The services meshlens claims: its service model when the graph has one, else one per root. */
function foundServices(graph, sm, sets) {
  const claims = Array.isArray(graph.services)
    ? graph.services
        .filter((s) => SERVICE_KINDS.has(s.kind))
        .map((s) => ({ folder: s.folder, label: `${s.name} (${s.kind})` }))
    : (graph.roots ?? []).map((r) => ({ folder: r.path, label: `root ${r.name}` }));
  for (const claim of claims) {
    const name = sm.atFolder(claim.folder);
    const key = name ? norm(name) : `?${claim.folder}`;
    adder(sets.services, key, { service: name ?? claim.folder }, `${claim.folder} as ${claim.label}`);
  }
}

/** Derives the found facts from a `graph --format json` document. */
export function deriveFound(graph, sm) {
  const nodes = graph.nodes;
  const nodeOf = (id) => nodes[id] ?? {};
  const rootPath = new Map((graph.roots ?? []).map((r) => [r.name, r.path]));
  const evidence = (e) =>
    `${e.file ?? nodeOf(e.from).file ?? '?'}:${e.line ?? nodeOf(e.from).line ?? '?'} (${e.via ?? e.kind}, ${e.confidence ?? '?'})`;
  const ownerOf = (node) =>
    node.file ? sm.ofPath(node.file) : node.root ? sm.ofPath(rootPath.get(node.root) ?? node.root) : null;
  // An edge from a service node (a topic declared for it outside its code) belongs to that service.
  const callerOf = (e) => {
    const from = nodeOf(e.from);
    return sm.ofPath(e.file) ?? sm.ofPath(from.file) ?? (from.kind === 'service' ? ownerOf(from) : null);
  };
  const sets = keyedSets();
  const dropped = { unknownCaller: [], selfEdges: [], unknownCallee: [], testCalls: [] };
  foundServices(graph, sm, sets);

  const implementers = new Map(); // norm(ProtoService) -> Set(norm(service))
  for (const e of graph.edges) {
    if (e.kind !== 'implements') continue;
    const target = nodeOf(e.to);
    if (target.kind !== 'grpc_service' && target.kind !== 'grpc_method') continue;
    const proto = protoServiceOf(target.name);
    const svc = callerOf(e);
    if (!svc) {
      dropped.unknownCaller.push(`implements ${proto} at ${evidence(e)}`);
      continue;
    }
    if (!implementers.has(norm(proto))) implementers.set(norm(proto), new Set());
    implementers.get(norm(proto)).add(norm(svc));
    adder(sets.servers, `${norm(svc)}|${norm(proto)}`, { service: svc, implements: proto }, evidence(e));
  }
  const knownServices = new Set(
    sm.declared
      ? sm.services.map((s) => norm(s.name))
      : nodes
          .map((n) => sm.ofPath(n.file))
          .filter(Boolean)
          .map(norm),
  );
  const calleesOf = (proto) => {
    const impl = implementers.get(norm(proto));
    if (impl && impl.size > 0) return impl;
    const bare = norm(proto);
    const stem = bare.replace(/service$/, '');
    return new Set([...knownServices].filter((d) => d === bare || d === stem || `${d}service` === bare));
  };

  for (const e of graph.edges) {
    const target = nodeOf(e.to);
    const from = callerOf(e);
    const fromTests = ['calls_rpc', 'calls_http', 'produces', 'consumes'].includes(e.kind);
    if (fromTests && isTestFile(e.file)) {
      dropped.testCalls.push(`${e.kind} -> ${target.name} at ${evidence(e)}`);
      continue;
    }
    if (e.kind === 'calls_rpc') {
      if (target.kind !== 'grpc_service' && target.kind !== 'grpc_method') continue;
      const proto = protoServiceOf(target.name);
      if (!from) dropped.unknownCaller.push(`calls_rpc -> ${proto} at ${evidence(e)}`);
      else if (calleesOf(proto).has(norm(from)))
        dropped.selfEdges.push(`calls_rpc ${from} -> ${proto} at ${evidence(e)}`);
      else adder(sets.grpc, `${norm(from)}|${norm(proto)}`, { from, to: proto }, evidence(e));
    } else if (e.kind === 'produces' || e.kind === 'consumes') {
      const role = e.kind === 'produces' ? 'producer' : 'consumer';
      if (!from) dropped.unknownCaller.push(`${e.kind} ${target.name} at ${evidence(e)}`);
      else
        adder(
          sets.topics,
          `${target.name}|${role}|${norm(from)}`,
          { topic: target.name, role, service: from },
          evidence(e),
        );
    } else if (e.kind === 'calls_http' || e.kind === 'proxies_http') {
      // A call through a gateway talks to the gateway on the network; the route it reaches is the service's.
      const to = e.gateway ? ownerOf({ root: e.gateway }) : ownerOf(target);
      const label = target.kind === 'http_route' ? target.name : `service ${target.name}`;
      if (!from) dropped.unknownCaller.push(`${e.kind} -> ${label} at ${evidence(e)}`);
      else if (!to)
        dropped.unknownCallee.push(
          `${e.kind} ${from} -> ${label} (${target.file ?? target.root}) at ${evidence(e)}`,
        );
      else if (norm(from) === norm(to))
        dropped.selfEdges.push(`${e.kind} ${from} -> ${label} at ${evidence(e)}`);
      else {
        adder(sets.httpPairs, `${norm(from)}|${norm(to)}`, { from, to }, `${evidence(e)} -> ${label}`);
        if (target.kind === 'http_route')
          adder(
            sets.httpRoutes,
            `${norm(from)}|${norm(to)}|${normRoute(target.name)}`,
            { from, to, route: target.name },
            evidence(e),
          );
      }
    } else if (e.kind === 'serves_http') {
      const svc = ownerOf(target) ?? from;
      if (!svc) dropped.unknownCaller.push(`serves_http ${target.name} at ${evidence(e)}`);
      else if (!normRoute(target.name).startsWith('HEAD '))
        adder(
          sets.served,
          `${norm(svc)}|${normRoute(target.name)}`,
          { service: svc, route: target.name },
          evidence(e),
        );
    }
  }
  return { ...sets, dropped };
}

/** A topic side: `"svc"` (first format, evidence on the topic) or `{ service, evidence }`. */
function topicSide(side, topicEvidence, sm) {
  if (typeof side === 'object' && side !== null) return { service: side.service, evidence: side.evidence };
  const folders = sm.declared
    ? (sm.services.find((s) => norm(s.name) === norm(side))?.folders ?? [])
    : [`src/${side}`];
  const parts = String(topicEvidence ?? '')
    .split(';')
    .map((x) => x.trim());
  const mine = parts.filter((x) => folders.some((f) => x.includes(`${f}/`))).join('; ');
  return { service: side, evidence: mine || String(topicEvidence ?? '') };
}

export function deriveExpected(expected, sm) {
  const sets = keyedSets();
  const put = (m, key, value) => {
    if (m.has(key)) m.get(key).evidence.push(value.evidence);
    else m.set(key, { ...value, evidence: [value.evidence] });
  };
  const id = (name) => norm(sm.ofName(name) ?? name);
  for (const s of expected.services ?? [])
    if (SERVICE_KINDS.has(s.kind ?? 'service'))
      put(sets.services, norm(s.name), { service: s.name, evidence: s.evidence });
  for (const g of expected.grpc ?? []) put(sets.grpc, `${id(g.from)}|${norm(g.to)}`, g);
  for (const s of expected.grpc_servers ?? []) put(sets.servers, `${id(s.service)}|${norm(s.implements)}`, s);
  for (const t of expected.topics ?? []) {
    for (const [role, sides] of [
      ['producer', t.producers],
      ['consumer', t.consumers],
    ]) {
      for (const raw of sides ?? []) {
        const side = topicSide(raw, t.evidence, sm);
        put(sets.topics, `${t.topic}|${role}|${id(side.service)}`, { topic: t.topic, role, ...side });
      }
    }
  }
  for (const h of expected.http ?? []) {
    put(sets.httpPairs, `${id(h.from)}|${id(h.to)}`, {
      from: h.from,
      to: h.to,
      evidence: `${h.evidence}${h.route ? ` (${h.route})` : ''}`,
    });
    if (h.route) put(sets.httpRoutes, `${id(h.from)}|${id(h.to)}|${normRoute(h.route)}`, h);
  }
  for (const r of expected.http_routes ?? []) put(sets.served, `${id(r.service)}|${normRoute(r.route)}`, r);
  return sets;
}
