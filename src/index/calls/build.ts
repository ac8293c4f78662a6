/**
 * Builds the call graph of a snapshot: every call site of every file bound by the resolver, stored as
 * parallel typed arrays (a few bytes per edge, no object per edge) with an index by callee and one by
 * calling file. Edges become objects only when a query returns them.
 */
import type { Confidence } from '../facts.js';
import type { RootImportSettings } from '../graph/imports-settings.js';
import type { IndexedFile } from '../snapshot.js';
import { DeclarationTable, type DeclId } from './declarations.js';
import { implementationsOf, overriddenMethods, overridingMethods } from './hierarchy.js';
import { CALL_VIAS, type CallEdge, type CallGraph, type CallGraphStats, type DeclRef } from './model.js';
import { Reach } from './reach.js';
import { CallResolver } from './resolve-call.js';

const CONFIDENCES: readonly Confidence[] = ['exact', 'heuristic', 'ambiguous'];

/** Growable columns of the edge table. */
class EdgeColumns {
  fromFile: number[] = [];
  call: number[] = [];
  to: number[] = [];
  /** `confidence index << 4 | via index`. */
  kind: number[] = [];
}

export function buildCallGraph(
  files: readonly IndexedFile[],
  settings: readonly RootImportSettings[],
): CallGraph {
  const decls = new DeclarationTable(files);
  const reach = new Reach(files, settings);
  const resolver = new CallResolver(decls, reach);
  const columns = new EdgeColumns();
  const stats = { sites: 0, exact: 0, heuristic: 0, ambiguous: 0, external: 0, unresolved: 0 };
  files.forEach((file, fileIndex) => {
    const calls = file.facts.calls;
    if (!calls) return;
    calls.forEach((call, callIndex) => {
      stats.sites++;
      const binding = resolver.resolve(file, call);
      if (typeof binding === 'string') {
        stats[binding]++;
        return;
      }
      stats[binding.confidence]++;
      const kind = (CONFIDENCES.indexOf(binding.confidence) << 4) | CALL_VIAS.indexOf(binding.via);
      for (const target of binding.targets) {
        columns.fromFile.push(fileIndex);
        columns.call.push(callIndex);
        columns.to.push(target);
        columns.kind.push(kind);
      }
    });
  });
  reach.forgetFiles();
  return new PackedCallGraph(decls, resolver, columns, stats);
}

class PackedCallGraph implements CallGraph {
  private readonly fromFile: Int32Array;
  private readonly call: Int32Array;
  private readonly to: Int32Array;
  private readonly kind: Uint8Array;
  /** Edge ids sorted by callee, and where each callee's run starts (CSR over DeclIds). */
  private readonly byCallee: Int32Array;
  private readonly calleeStart: Int32Array;
  /** Where each calling file's edges start (edges are in file order already). */
  private readonly fileStart: Int32Array;

  constructor(
    private readonly decls: DeclarationTable,
    private readonly resolver: CallResolver,
    columns: EdgeColumns,
    readonly stats: CallGraphStats,
  ) {
    this.fromFile = Int32Array.from(columns.fromFile);
    this.call = Int32Array.from(columns.call);
    this.to = Int32Array.from(columns.to);
    this.kind = Uint8Array.from(columns.kind);
    this.calleeStart = runStarts(this.to, decls.size);
    const fill = this.calleeStart.slice(0, decls.size);
    this.byCallee = new Int32Array(this.to.length);
    this.to.forEach((callee, edge) => {
      const slot = fill[callee] as number;
      this.byCallee[slot] = edge;
      fill[callee] = slot + 1;
    });
    this.fileStart = runStarts(this.fromFile, decls.files.length);
  }

  callersOf(target: DeclRef): readonly CallEdge[] {
    const id = this.decls.idOf(target.file, target.symbol);
    if (id === undefined) return [];
    const out: CallEdge[] = [];
    for (let i = this.calleeStart[id] as number; i < (this.calleeStart[id + 1] as number); i++)
      out.push(this.edge(this.byCallee[i] as number));
    return out;
  }

  calleesOf(file: IndexedFile, symbol: number | undefined): readonly CallEdge[] {
    return this.fileEdges(file).filter((edge) => edge.caller === symbol);
  }

  callsAt(file: IndexedFile, line: number): readonly CallEdge[] {
    return this.fileEdges(file).filter((edge) => edge.line === line);
  }

  supertypesOf(type: DeclRef): readonly DeclRef[] {
    const id = this.decls.idOf(type.file, type.symbol);
    return id === undefined ? [] : this.resolver.supertypeDecls(id).map((d) => this.ref(d));
  }

  implementationsOf(type: DeclRef): readonly { readonly type: DeclRef; readonly confidence: Confidence }[] {
    const id = this.decls.idOf(type.file, type.symbol);
    if (id === undefined) return [];
    return implementationsOf(this.decls, this.resolver, id).map((found) => ({
      type: this.ref(found.type),
      confidence: found.confidence,
    }));
  }

  overridden(method: DeclRef): readonly DeclRef[] {
    const id = this.decls.idOf(method.file, method.symbol);
    return id === undefined ? [] : overriddenMethods(this.decls, this.resolver, id).map((d) => this.ref(d));
  }

  overriders(method: DeclRef): readonly { readonly method: DeclRef; readonly confidence: Confidence }[] {
    const id = this.decls.idOf(method.file, method.symbol);
    if (id === undefined) return [];
    return overridingMethods(this.decls, this.resolver, id).map((found) => ({
      method: this.ref(found.type),
      confidence: found.confidence,
    }));
  }

  private fileEdges(file: IndexedFile): CallEdge[] {
    const index = this.decls.indexOfFile(file);
    if (index === undefined) return [];
    const out: CallEdge[] = [];
    for (let e = this.fileStart[index] as number; e < (this.fileStart[index + 1] as number); e++)
      out.push(this.edge(e));
    return out;
  }

  private ref(id: DeclId): DeclRef {
    const file = this.decls.fileOf(id);
    return { file, symbol: this.decls.symbolOf(id).id };
  }

  private edge(e: number): CallEdge {
    const from = this.decls.files[this.fromFile[e] as number] as IndexedFile;
    const call = from.facts.calls?.[this.call[e] as number];
    const target = this.ref(this.to[e] as number);
    const kind = this.kind[e] as number;
    return {
      from,
      caller: call?.caller,
      to: target.file,
      callee: target.symbol,
      line: call?.line ?? 0,
      name: call?.name ?? '',
      confidence: CONFIDENCES[kind >> 4] as Confidence,
      via: CALL_VIAS[kind & 15] as CallEdge['via'],
    };
  }
}

/** For keys in `0..size`: where each key's run starts in the order sorted by key (`starts[size]`: the total). */
function runStarts(keys: Int32Array, size: number): Int32Array {
  const starts = new Int32Array(size + 1);
  for (const key of keys) starts[key + 1] = (starts[key + 1] as number) + 1;
  for (let k = 0; k < size; k++) starts[k + 1] = (starts[k + 1] as number) + (starts[k] as number);
  return starts;
}
