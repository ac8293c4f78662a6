/**
 * The call graph as one JSON document (`meshlens graph --format calls`): every call site with what the file
 * says about it and what it was bound to, plus the totals. For scripts: accuracy sampling, exports to other
 * tools. Paths are workspace-relative through the roots' own relative paths.
 */
import type { CallGraph, IndexedFile, SnapshotReader } from '../index/reader.js';

export const CALL_SITES_JSON_VERSION = 1;

export interface CallSitesJsonInput {
  readonly snapshot: SnapshotReader;
  /** Root name → its folder relative to the workspace (`.` for the workspace itself). */
  readonly rootPaths: ReadonlyMap<string, string>;
}

export function renderCallSitesJson(input: CallSitesJsonInput): string {
  const { snapshot } = input;
  const graph: CallGraph = snapshot.callGraph();
  const where = (file: IndexedFile): string => {
    const base = input.rootPaths.get(file.root) ?? file.root;
    return base === '.' || base === '' ? file.path : `${base}/${file.path}`;
  };
  const sites = snapshot.files.flatMap((file) =>
    (file.facts.calls ?? []).map((call) => {
      const caller = call.caller === undefined ? undefined : file.facts.symbols[call.caller];
      const bound = graph
        .callsAt(file, call.line)
        .filter((edge) => edge.name === call.name && edge.caller === call.caller);
      return {
        file: where(file),
        line: call.line,
        language: file.language,
        service: snapshot.serviceOf(file.root),
        caller: caller?.qualifiedName ?? null,
        name: call.name,
        ...(call.receiver === undefined ? {} : { receiver: call.receiver }),
        ...(call.receiverType === undefined ? {} : { receiver_type: call.receiverType }),
        ...(call.module === undefined ? {} : { module: call.module }),
        ...(call.self ? { self: true } : {}),
        ...(call.construct ? { construct: true } : {}),
        targets: bound.map((edge) => {
          const symbol = edge.to.facts.symbols[edge.callee];
          return {
            file: where(edge.to),
            line: symbol?.startLine ?? 0,
            name: symbol?.qualifiedName ?? '',
            confidence: edge.confidence,
            via: edge.via,
          };
        }),
      };
    }),
  );
  return JSON.stringify({ version: CALL_SITES_JSON_VERSION, stats: graph.stats, sites }, null, 1);
}
