/**
 * The whole contract graph as a stable JSON document (`meshlens graph --format json`), documented in
 * docs/graph-json.md. Paths are relative to the workspace folder so the document does not depend on where
 * the workspace is checked out.
 */
import { posix } from 'node:path';

export const GRAPH_JSON_VERSION = 1;

export interface GraphJsonInput {
  readonly fingerprint: string;
  readonly roots: readonly { readonly name: string; readonly relativePath: string }[];
  readonly nodes: readonly {
    readonly id: number;
    readonly kind: string;
    readonly name: string;
    readonly root: string | undefined;
    readonly file: string | undefined;
    readonly line: number | undefined;
    readonly broker?: string;
  }[];
  readonly edges: readonly {
    readonly from: number;
    readonly to: number;
    readonly kind: string;
    readonly confidence: string;
    readonly root: string;
    readonly file: string;
    readonly line: number;
    readonly via: string;
    readonly routingKey?: string;
    readonly queue?: string;
    readonly gateway?: string;
  }[];
  /** HTTP calls and gateway routes that reach no route. */
  readonly unresolved?: readonly {
    readonly root: string;
    readonly file: string;
    readonly line: number;
    readonly method: string;
    readonly url: string;
    readonly via: string;
    readonly reason: string;
  }[];
  /** Topic producers and consumers whose destination is unknown. */
  readonly unresolvedTopics?: readonly {
    readonly root: string;
    readonly file: string;
    readonly line: number;
    readonly role: string;
    readonly topic: string;
    readonly broker?: string;
    readonly via: string;
    readonly reason: string;
  }[];
  /** The service model (docs/graph-json.md `services`); absent: an empty list. */
  readonly services?: readonly GraphJsonService[];
  /** Workspace-relative folders holding source code that no root covers. */
  readonly uncovered?: readonly string[];
}

export interface GraphJsonService {
  readonly name: string;
  readonly kind: string;
  readonly folder: string;
  readonly root: string | undefined;
  readonly names: readonly { readonly name: string; readonly from: string; readonly how: string }[];
}

export function renderGraphJson(input: GraphJsonInput): string {
  const rootPath = new Map(input.roots.map((r) => [r.name, r.relativePath]));
  const workspacePath = (root: string | undefined, file: string | undefined): string | null => {
    if (root === undefined || file === undefined) return null;
    const base = rootPath.get(root) ?? root;
    const joined = base === '.' || base === '' ? file : `${base}/${file}`;
    // Evidence declared outside the root (a shared Dapr subscription file) is written `../…` from it.
    return joined.includes('../') ? posix.normalize(joined) : joined;
  };
  const document = {
    version: GRAPH_JSON_VERSION,
    fingerprint: input.fingerprint,
    roots: input.roots.map((r) => ({ name: r.name, path: r.relativePath })),
    nodes: input.nodes.map((n) => ({
      id: n.id,
      kind: n.kind,
      name: n.name,
      root: n.root ?? null,
      file: workspacePath(n.root, n.file),
      line: n.line ?? null,
      ...(n.broker === undefined ? {} : { broker: n.broker }),
    })),
    edges: input.edges.map((e) => ({
      from: e.from,
      to: e.to,
      kind: e.kind,
      confidence: e.confidence,
      file: workspacePath(e.root, e.file),
      line: e.line,
      via: e.via,
      ...(e.routingKey === undefined ? {} : { routing_key: e.routingKey }),
      ...(e.queue === undefined ? {} : { queue: e.queue }),
      ...(e.gateway === undefined ? {} : { gateway: e.gateway }),
    })),
    unresolved: unresolvedJson(input.unresolved ?? [], workspacePath),
    unresolved_topics: unresolvedTopicsJson(input.unresolvedTopics ?? [], workspacePath),
    services: (input.services ?? []).map((service) => ({
      name: service.name,
      kind: service.kind,
      folder: service.folder,
      root: service.root ?? null,
      names: service.names.map((n) => ({ name: n.name, from: n.from, how: n.how })),
    })),
    uncovered: [...(input.uncovered ?? [])],
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** `unresolved: { count, calls }`: every call that reaches no route, with its workspace-relative place. */
function unresolvedJson(
  calls: NonNullable<GraphJsonInput['unresolved']>,
  workspacePath: (root: string, file: string) => string | null,
) {
  return {
    count: calls.length,
    calls: calls.map((c) => ({
      file: workspacePath(c.root, c.file),
      line: c.line,
      method: c.method,
      url: c.url,
      via: c.via,
      reason: c.reason,
    })),
  };
}

/** `unresolved_topics: { count, topics }`: every producer or consumer whose destination is unknown. */
function unresolvedTopicsJson(
  topics: NonNullable<GraphJsonInput['unresolvedTopics']>,
  workspacePath: (root: string, file: string) => string | null,
) {
  return {
    count: topics.length,
    topics: topics.map((t) => ({
      file: workspacePath(t.root, t.file),
      line: t.line,
      role: t.role,
      topic: t.topic,
      broker: t.broker ?? null,
      via: t.via,
      reason: t.reason,
    })),
  };
}
