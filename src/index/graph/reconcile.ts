import type { Confidence, ContractFact } from '../facts.js';
import type { IndexedFile } from '../snapshot.js';
import type { ContractGraph } from './model.js';
import { addImportEdges } from './imports.js';
import type { RootImportSettings } from './imports-settings.js';
import { GraphBuilder } from './node-table.js';
import { hostOf, isHealthService, methodKey, placeholderOf, routeShape, serviceKey } from './names.js';

export interface ReconcileInput {
  readonly files: readonly IndexedFile[];
  /** Root name → service name (from its manifest). */
  readonly services: ReadonlyMap<string, string>;
  /** `.proto` files outside these folders (root-relative or `root:path` prefixes) do not define contracts; empty: all do. */
  readonly protoDirs?: readonly string[];
  /** Per-root manifest settings for import resolution (tsconfig aliases, package names, Go modules); absent: relative imports only. */
  readonly imports?: readonly RootImportSettings[];
}

interface Evidence {
  readonly root: string;
  readonly file: string;
  readonly line: number;
  readonly via: string;
}

const weaker = (a: Confidence, b: Confidence): Confidence =>
  a === 'ambiguous' || b === 'ambiguous'
    ? 'ambiguous'
    : a === 'heuristic' || b === 'heuristic'
      ? 'heuristic'
      : 'exact';

/**
 * Facts of every file → the contract graph. Each pass indexes one side by a key and looks the other side
 * up (hash joins), so the work is linear in the number of facts; ties fan out as one ambiguous edge per
 * candidate rather than being settled by visiting order.
 */
export function reconcile(input: ReconcileInput): ContractGraph {
  const builder = new GraphBuilder();
  const files = input.files;

  // Which file's symbols and properties we need by root, built once.
  const propertiesByRoot = new Map<string, Map<string, string>>();
  const allProperties = new Map<string, string[]>();
  const goValues = new Map<string, GoValue[]>();
  for (const file of files) {
    for (const property of file.facts.properties ?? []) {
      if (property.key.startsWith('go:')) {
        const values = goValues.get(property.key) ?? goValues.set(property.key, []).get(property.key);
        values?.push({ root: file.root, dir: dirOf(file.path), value: property.value });
        continue;
      }
      const map =
        propertiesByRoot.get(file.root) ?? propertiesByRoot.set(file.root, new Map()).get(file.root);
      if (!map?.has(property.key)) map?.set(property.key, property.value);
      const values = allProperties.get(property.key) ?? allProperties.set(property.key, []).get(property.key);
      if (!values?.includes(property.value)) values?.push(property.value);
    }
  }
  /** A `${key}` placeholder resolved in the same root first, then uniquely in the workspace. */
  const resolvePlaceholder = (value: string, root: string, from?: IndexedFile): string | undefined => {
    const goKey = goPlaceholderOf(value);
    if (goKey !== undefined) return from ? resolveGoValue(goValues.get(goKey), goKey, from) : undefined;
    const placeholder = placeholderOf(value);
    if (!placeholder) return value;
    const local = propertiesByRoot.get(root)?.get(placeholder.key);
    if (local !== undefined) return local;
    const global = allProperties.get(placeholder.key);
    if (global && global.length === 1) return global[0];
    return placeholder.fallback;
  };

  const serviceNode = (root: string) =>
    builder.node({ kind: 'service', name: root, root, file: undefined, line: undefined });
  for (const root of new Set(files.map((f) => f.root))) serviceNode(root);

  /** The node standing for the code holding a fact: its enclosing declaration, else its file. */
  const codeNode = (file: IndexedFile, symbolId: number | undefined, _line: number) => {
    const symbol = symbolId !== undefined ? file.facts.symbols[symbolId] : undefined;
    if (symbol) {
      return builder.node({
        kind: 'symbol',
        symbolKind: symbol.kind,
        name: symbol.qualifiedName,
        root: file.root,
        file: file.path,
        line: symbol.startLine,
      });
    }
    return builder.node({ kind: 'module', name: file.path, root: file.root, file: file.path, line: 1 });
  };

  // gRPC contracts from .proto files.
  const protoDirs = input.protoDirs ?? [];
  const inProtoDirs = (file: IndexedFile) =>
    protoDirs.length === 0 ||
    protoDirs.some((dir) => {
      const clean = dir.replace(/^\.\//, '').replace(/\/$/, '');
      return (
        file.root === clean ||
        file.root.startsWith(`${clean}/`) ||
        file.path.startsWith(`${clean}/`) ||
        clean === '.'
      );
    });
  const servicesByKey = new Map<string, { fullName: string; id: string; root: string }[]>();
  const servicesByFullName = new Map<string, { fullName: string; id: string; root: string }>();
  const methodsByService = new Map<string, Map<string, { name: string; id: string }>>();
  for (const file of files) {
    if (!file.facts.protoServices || !inProtoDirs(file)) continue;
    for (const service of file.facts.protoServices) {
      if (isHealthService(service.name, service.package)) continue;
      const fullName = service.package ? `${service.package}.${service.name}` : service.name;
      if (servicesByFullName.has(fullName)) continue;
      const id = builder.node({
        kind: 'grpc_service',
        name: fullName,
        root: file.root,
        file: file.path,
        line: service.line,
      });
      const entry = { fullName, id, root: file.root };
      servicesByFullName.set(fullName, entry);
      const key = serviceKey(service.name);
      (servicesByKey.get(key) ?? servicesByKey.set(key, []).get(key))?.push(entry);
      const methods = new Map<string, { name: string; id: string }>();
      for (const method of service.methods) {
        const methodId = builder.node({
          kind: 'grpc_method',
          name: `${fullName}/${method.name}`,
          root: file.root,
          file: file.path,
          line: method.line,
        });
        methods.set(methodKey(method.name), { name: method.name, id: methodId });
      }
      methodsByService.set(fullName, methods);
    }
    for (const symbol of file.facts.symbols) {
      if (symbol.kind !== 'proto_message') continue;
      const name = file.facts.package
        ? `${file.facts.package}.${symbol.qualifiedName}`
        : symbol.qualifiedName;
      builder.node({ kind: 'proto_message', name, root: file.root, file: file.path, line: symbol.startLine });
    }
  }

  /** Candidate services for a name as written; qualified names must match exactly. */
  const resolveService = (
    written: string,
    root: string,
  ): { entries: { fullName: string; id: string; root: string }[]; confidence: Confidence } => {
    const exact = servicesByFullName.get(written);
    if (exact) return { entries: [exact], confidence: 'exact' };
    const key = serviceKey(written.replace(/Client$/, ''));
    const candidates = servicesByKey.get(key) ?? servicesByKey.get(serviceKey(written)) ?? [];
    if (candidates.length <= 1) return { entries: candidates, confidence: 'exact' };
    const local = candidates.filter((c) => c.root === root);
    if (local.length === 1) return { entries: local, confidence: 'heuristic' };
    return { entries: candidates, confidence: 'ambiguous' };
  };

  const topicNode = (key: string) =>
    builder.node({ kind: 'topic', name: key, root: undefined, file: undefined, line: undefined });
  const routeNodes = new Map<string, { id: string; method: string; path: string; root: string }[]>();
  const calls: { file: IndexedFile; fact: Extract<ContractFact, { kind: 'http_call' }> }[] = [];
  const wildcardRpcs: { file: IndexedFile; fact: Extract<ContractFact, { kind: 'grpc_client' }> }[] = [];

  for (const file of files) {
    const evidence = (fact: { line: number; via: string }): Evidence => ({
      root: file.root,
      file: file.path,
      line: fact.line,
      via: fact.via,
    });
    for (const fact of file.facts.contracts) {
      switch (fact.kind) {
        case 'grpc_server':
        case 'grpc_client': {
          if (isHealthService(fact.service)) break;
          if (fact.kind === 'grpc_client' && fact.service === '*') {
            wildcardRpcs.push({ file, fact });
            break;
          }
          const edgeKind = fact.kind === 'grpc_server' ? 'implements' : 'calls_rpc';
          const from = codeNode(file, fact.symbol, fact.line);
          const { entries, confidence } = resolveService(fact.service, file.root);
          const fanOut = entries.length > 1 ? 'ambiguous' : confidence;
          for (const service of entries) {
            if (fact.method === undefined) {
              // A service-level client only "may call" any method: never more than heuristic.
              const level =
                fact.kind === 'grpc_client'
                  ? weaker(fact.confidence, weaker(fanOut, 'heuristic'))
                  : weaker(fact.confidence, fanOut);
              builder.edge(from, service.id, edgeKind, level, evidence(fact));
              continue;
            }
            const method = methodsByService.get(service.fullName)?.get(methodKey(fact.method));
            if (method)
              builder.edge(from, method.id, edgeKind, weaker(fact.confidence, fanOut), evidence(fact));
          }
          break;
        }
        case 'topic_producer':
        case 'topic_consumer': {
          const key = resolvePlaceholder(fact.topic, file.root, file);
          if (!key || placeholderOf(key) || goPlaceholderOf(key)) break;
          const edgeKind = fact.kind === 'topic_producer' ? 'produces' : 'consumes';
          builder.edge(
            codeNode(file, fact.symbol, fact.line),
            topicNode(key),
            edgeKind,
            fact.confidence,
            evidence(fact),
          );
          break;
        }
        case 'http_route': {
          const name = `${fact.method} ${fact.path}`;
          const id = builder.node({
            kind: 'http_route',
            name,
            root: file.root,
            file: file.path,
            line: fact.line,
          });
          builder.edge(codeNode(file, fact.symbol, fact.line), id, 'serves_http', 'exact', evidence(fact));
          const shape = routeShape(fact.path);
          (routeNodes.get(shape) ?? routeNodes.set(shape, []).get(shape))?.push({
            id,
            method: fact.method,
            path: fact.path,
            root: file.root,
          });
          break;
        }
        case 'http_call':
          calls.push({ file, fact });
          break;
        case 'saga':
          codeNode(file, fact.symbol, fact.line);
          break;
      }
    }
  }

  // Custom `rpc` conventions name only a method: it matches across services, uniquely or ambiguously.
  if (wildcardRpcs.length > 0) {
    const byMethod = new Map<string, string[]>();
    for (const methods of methodsByService.values()) {
      for (const [key, method] of methods)
        (byMethod.get(key) ?? byMethod.set(key, []).get(key))?.push(method.id);
    }
    for (const { file, fact } of wildcardRpcs) {
      const targets = fact.method ? (byMethod.get(methodKey(fact.method)) ?? []) : [];
      const confidence: Confidence = targets.length > 1 ? 'ambiguous' : 'heuristic';
      for (const target of targets) {
        builder.edge(codeNode(file, fact.symbol, fact.line), target, 'calls_rpc', confidence, {
          root: file.root,
          file: file.path,
          line: fact.line,
          via: fact.via,
        });
      }
    }
  }

  // HTTP calls → routes: same method and path shape; the base URL's host picks the service when it can.
  const rootByHost = hostIndex(input.services);
  for (const { file, fact } of calls) {
    const candidates = (routeNodes.get(routeShape(fact.path)) ?? []).filter(
      (route) => route.method === 'ANY' || fact.method === 'ANY' || route.method === fact.method,
    );
    if (candidates.length === 0) continue;
    const host = baseHost(fact.base, file.root, propertiesByRoot, allProperties, resolvePlaceholder);
    const hostRoots = host ? rootByHost.get(host) : undefined;
    let targets = candidates.filter((route) => route.root !== file.root || candidates.length === 1);
    let confidence: Confidence;
    if (hostRoots) {
      const matched = candidates.filter((route) => hostRoots.includes(route.root));
      if (matched.length === 0) continue;
      targets = matched;
      confidence = matched.length === 1 ? weaker(fact.confidence, 'exact') : 'ambiguous';
    } else {
      if (targets.length === 0) continue;
      confidence = targets.length === 1 ? weaker(fact.confidence, 'heuristic') : 'ambiguous';
    }
    for (const route of targets) {
      builder.edge(codeNode(file, fact.symbol, fact.line), route.id, 'calls_http', confidence, {
        root: file.root,
        file: file.path,
        line: fact.line,
        via: fact.via,
      });
    }
  }

  // Imports: one edge per (importing file → imported file or Go package folder).
  addImportEdges(builder, { files, settings: input.imports ?? [] });

  return builder.build();
}

interface GoValue {
  readonly root: string;
  readonly dir: string;
  readonly value: string;
}

const dirOf = (path: string): string => path.slice(0, Math.max(path.lastIndexOf('/'), 0));

/** `${go:kafka.Topic}` → `go:kafka.Topic` (a Go package-level value; its `:` is no Spring default). */
function goPlaceholderOf(value: string): string | undefined {
  return /^\$\{(go:[^}]+)\}$/.exec(value.trim())?.[1];
}

/**
 * A Go package-level value by package name. A name of the file's own package is declared in the same
 * folder (a package is a folder); an imported package's is looked up in the same root, then in the
 * workspace (`main` packages are never imported) — each only when the candidates agree.
 */
function resolveGoValue(
  values: readonly GoValue[] | undefined,
  key: string,
  from: IndexedFile,
): string | undefined {
  if (!values) return undefined;
  const single = (list: readonly GoValue[]): string | undefined => {
    const distinct = new Set(list.map((v) => v.value));
    return distinct.size === 1 ? list[0]?.value : undefined;
  };
  const pkg = key.slice(3, key.lastIndexOf('.'));
  const sameRoot = values.filter((v) => v.root === from.root);
  if (pkg === from.facts.package) return single(sameRoot.filter((v) => v.dir === dirOf(from.path)));
  if (sameRoot.length > 0) return single(sameRoot);
  return pkg === 'main' ? undefined : single(values);
}

/** Host names a service answers to: its service name and its root's last folder name. */
function hostIndex(services: ReadonlyMap<string, string>): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const [root, service] of services) {
    for (const name of new Set([service.toLowerCase(), (root.split('/').pop() ?? root).toLowerCase()])) {
      const roots = index.get(name) ?? index.set(name, []).get(name);
      if (!roots?.includes(root)) roots?.push(root);
    }
  }
  return index;
}

/**
 * The host an HTTP call's base points at: a literal URL, an `env:NAME` variable whose value a deploy
 * manifest gives (`env.NAME` properties), or a `${key}` placeholder resolved through config properties.
 */
function baseHost(
  base: string | undefined,
  root: string,
  propertiesByRoot: ReadonlyMap<string, ReadonlyMap<string, string>>,
  allProperties: ReadonlyMap<string, readonly string[]>,
  resolvePlaceholder: (value: string, root: string) => string | undefined,
): string | undefined {
  if (!base) return undefined;
  if (base.startsWith('env:')) {
    const name = base.slice(4);
    const values = [
      ...(propertiesByRoot.get(root)?.get(`env.${name}`) !== undefined
        ? [propertiesByRoot.get(root)?.get(`env.${name}`) as string]
        : []),
      ...(allProperties.get(`env.${name}`) ?? []),
    ];
    const hosts = [...new Set(values.map(hostOf).filter((h): h is string => h !== undefined))];
    return hosts.length === 1 ? hosts[0] : undefined;
  }
  const resolved = resolvePlaceholder(base, root);
  if (resolved && !placeholderOf(resolved)) return hostOf(resolved);
  // Spring resolves `${ORDER_GATEWAY_URL}` from the environment too: try the deploy manifests' env vars.
  const placeholder = placeholderOf(base);
  return placeholder
    ? baseHost(`env:${placeholder.key}`, root, propertiesByRoot, allProperties, resolvePlaceholder)
    : undefined;
}

/** Graph lines for the fingerprint: edges by node names, never by ids. */
export function graphLines(graph: ContractGraph): string[] {
  return graph.edges.map((edge) => {
    const from = graph.nodes[edge.from];
    const to = graph.nodes[edge.to];
    return `edge ${edge.kind} ${from?.kind}:${from?.root ?? '-'}:${from?.name} -> ${to?.kind}:${to?.root ?? '-'}:${to?.name} ${edge.confidence} ${edge.root}:${edge.file}:${edge.line} ${edge.via}`;
  });
}
