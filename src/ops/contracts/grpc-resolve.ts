/** Which contracts a name given by an agent means, and which ones it only partly names. */
import { compareStrings as cmp } from '../../core/order.js';
import type { GraphNode } from '../../index/reader.js';
import type { MatchKind } from './grpc-answer.js';
import { bareOf, type Contracts, methodBare, nameKey, packageOf, serviceOfMethod } from './grpc-contracts.js';

interface Matched {
  readonly services: GraphNode[];
  readonly methods: GraphNode[];
}

/** Drops methods whose service is matched too: tracing the service covers them. */
function subsume(found: Matched): Matched {
  const serviceNames = new Set(found.services.map((s) => s.name));
  return {
    services: [...new Set(found.services)].sort((a, b) => cmp(a.name, b.name)),
    methods: [...new Set(found.methods)]
      .filter((m) => !serviceNames.has(serviceOfMethod(m)))
      .sort((a, b) => cmp(a.name, b.name)),
  };
}

const isEmpty = (m: Matched): boolean => m.services.length === 0 && m.methods.length === 0;

/** `package.Service/Method`, `package.Service.Method`, `/package.Service/Method` → service part and method part. */
function splitQualified(target: string): { service: string; method: string } | undefined {
  const slash = target.lastIndexOf('/');
  const cut = slash !== -1 ? slash : target.lastIndexOf('.');
  if (cut <= 0 || cut === target.length - 1) return undefined;
  return { service: target.slice(0, cut), method: target.slice(cut + 1) };
}

/**
 * Name resolution, strictest first: exact qualified name (service, method, or proto package), then exact
 * bare name (case- and `_`-insensitive), then substring, only when nothing matched exactly.
 */
export function resolveTarget(
  contracts: Contracts,
  raw: string,
): { match: MatchKind; found: Matched; substringOnly: GraphNode[] } | undefined {
  const target = raw.trim().replace(/^\/+/, '').replace(/^\.+/, '');
  const qualified: Matched = { services: [], methods: [] };
  let packageMatch = false;
  const service = contracts.serviceByName.get(target);
  if (service) qualified.services.push(service);
  const parts = splitQualified(target);
  if (parts) {
    const owner = contracts.serviceByName.get(parts.service);
    const method = owner
      ? contracts.methodsOf.get(owner.name)?.find((m) => methodBare(m) === parts.method)
      : undefined;
    if (method) qualified.methods.push(method);
  }
  if (isEmpty(qualified)) {
    const inPackage = contracts.services.filter((s) => packageOf(s.name) === target);
    if (inPackage.length > 0) {
      qualified.services.push(...inPackage);
      packageMatch = true;
    }
  }

  const substringPool = (): GraphNode[] => {
    const dotted = /[./]/.test(target);
    const needle = dotted ? target.toLowerCase() : nameKey(target);
    const hay = (node: GraphNode) =>
      dotted
        ? node.name.toLowerCase()
        : nameKey(node.kind === 'grpc_method' ? methodBare(node) : bareOf(node.name));
    return [...contracts.services, ...contracts.methods].filter((node) => hay(node).includes(needle));
  };
  const leftovers = (found: Matched): GraphNode[] => {
    const covered = new Set([...found.services.map((s) => s.name), ...found.methods.map((m) => m.name)]);
    return substringPool().filter(
      (node) =>
        !covered.has(node.name) && !(node.kind === 'grpc_method' && covered.has(serviceOfMethod(node))),
    );
  };

  if (!isEmpty(qualified)) {
    const found = subsume(qualified);
    return { match: packageMatch ? 'package' : 'qualified', found, substringOnly: leftovers(found) };
  }

  const byName: Matched = { services: [], methods: [] };
  const key = nameKey(target);
  if (parts) {
    const serviceKey = nameKey(parts.service);
    const owners = contracts.services.filter(
      (s) => nameKey(s.name) === serviceKey || nameKey(bareOf(s.name)) === serviceKey,
    );
    for (const owner of owners) {
      const method = contracts.methodsOf
        .get(owner.name)
        ?.find((m) => nameKey(methodBare(m)) === nameKey(parts.method));
      if (method) byName.methods.push(method);
    }
  }
  byName.services.push(
    ...contracts.services.filter((s) => nameKey(s.name) === key || nameKey(bareOf(s.name)) === key),
  );
  byName.methods.push(
    ...contracts.methods.filter((m) => nameKey(methodBare(m)) === key || nameKey(m.name) === key),
  );
  if (isEmpty(byName)) {
    const inPackage = contracts.services.filter((s) => nameKey(packageOf(s.name)) === key);
    byName.services.push(...inPackage);
    if (inPackage.length > 0) {
      const found = subsume(byName);
      return { match: 'package', found, substringOnly: leftovers(found) };
    }
  }
  if (!isEmpty(byName)) {
    const found = subsume(byName);
    return { match: 'name', found, substringOnly: leftovers(found) };
  }

  const pool = substringPool();
  if (pool.length === 0) return undefined;
  const found = subsume({
    services: pool.filter((n) => n.kind === 'grpc_service'),
    methods: pool.filter((n) => n.kind === 'grpc_method'),
  });
  return { match: 'substring', found, substringOnly: [] };
}
