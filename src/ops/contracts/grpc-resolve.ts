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

interface QualifiedParts {
  readonly service: string;
  readonly method: string;
}

/**
 * `package.Service/Method`, `package.Service.Method`, `/package.Service/Method`, and `Service Method` as people
 * type it (`shippingservice GetQuote`) → service part and method part.
 */
function splitQualified(target: string): QualifiedParts | undefined {
  const spaced = /^(\S+)\s+(\S+)$/.exec(target.trim());
  if (spaced?.[1] && spaced[2]) return { service: spaced[1], method: spaced[2] };
  const slash = target.lastIndexOf('/');
  const cut = slash !== -1 ? slash : target.lastIndexOf('.');
  if (cut <= 0 || cut === target.length - 1) return undefined;
  return { service: target.slice(0, cut), method: target.slice(cut + 1) };
}

/** A tier of name resolution that matched: how, and what. */
interface TierMatch {
  readonly match: MatchKind;
  readonly found: Matched;
}

/** Exact qualified names: a service, `Service/Method`, else every service of a proto package. */
function qualifiedTier(
  contracts: Contracts,
  target: string,
  parts: QualifiedParts | undefined,
): TierMatch | undefined {
  const qualified: Matched = { services: [], methods: [] };
  const service = contracts.serviceByName.get(target);
  if (service) qualified.services.push(service);
  if (parts) {
    const owner = contracts.serviceByName.get(parts.service);
    const method = owner
      ? contracts.methodsOf.get(owner.name)?.find((m) => methodBare(m) === parts.method)
      : undefined;
    if (method) qualified.methods.push(method);
  }
  if (!isEmpty(qualified)) return { match: 'qualified', found: subsume(qualified) };
  const inPackage = contracts.services.filter((s) => packageOf(s.name) === target);
  return inPackage.length > 0
    ? { match: 'package', found: subsume({ services: inPackage, methods: [] }) }
    : undefined;
}

/** Exact bare names, case- and `_`-insensitive: services, methods and `Service.Method`, else a package. */
function bareNameTier(
  contracts: Contracts,
  target: string,
  parts: QualifiedParts | undefined,
): TierMatch | undefined {
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
  if (!isEmpty(byName)) return { match: 'name', found: subsume(byName) };
  const inPackage = contracts.services.filter((s) => nameKey(packageOf(s.name)) === key);
  return inPackage.length > 0
    ? { match: 'package', found: subsume({ services: inPackage, methods: [] }) }
    : undefined;
}

/** Contracts whose name contains the target: the whole name when it is dotted, else the bare name. */
function substringPool(contracts: Contracts, target: string): GraphNode[] {
  const dotted = /[./]/.test(target);
  const needle = dotted ? target.toLowerCase() : nameKey(target);
  const hay = (node: GraphNode) =>
    dotted
      ? node.name.toLowerCase()
      : nameKey(node.kind === 'grpc_method' ? methodBare(node) : bareOf(node.name));
  return [...contracts.services, ...contracts.methods].filter((node) => hay(node).includes(needle));
}

/** Contracts that only contain the target and are not covered by what matched exactly. */
function leftovers(contracts: Contracts, target: string, found: Matched): GraphNode[] {
  const covered = new Set([...found.services.map((s) => s.name), ...found.methods.map((m) => m.name)]);
  return substringPool(contracts, target).filter(
    (node) => !covered.has(node.name) && !(node.kind === 'grpc_method' && covered.has(serviceOfMethod(node))),
  );
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
  const parts = splitQualified(target);
  const exact = qualifiedTier(contracts, target, parts) ?? bareNameTier(contracts, target, parts);
  if (exact)
    return {
      match: exact.match,
      found: exact.found,
      substringOnly: leftovers(contracts, target, exact.found),
    };

  const pool = substringPool(contracts, target);
  if (pool.length === 0) return undefined;
  const found = subsume({
    services: pool.filter((n) => n.kind === 'grpc_service'),
    methods: pool.filter((n) => n.kind === 'grpc_method'),
  });
  return { match: 'substring', found, substringOnly: [] };
}
