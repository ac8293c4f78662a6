/**
 * The call graph of a snapshot: each call site bound to the declaration(s) it calls, with how that binding was
 * proven. Built from every file's `CallFact`s when first asked for (index/calls/build.ts), like the contract
 * graph, and queried by declaration.
 */
import type { Confidence } from '../facts.js';
import type { IndexedFile } from '../snapshot.js';

/**
 * How a call was bound:
 * - `import`: the callee comes from an import the file names (`pb.NewClient`, `import { f }`);
 * - `self`: a method of the caller's own type or of one of its supertypes (`this.save()`);
 * - `type`: a method of the receiver's declared type (`repo: OrderRepo` then `repo.save()`);
 * - `constructor`: the type a `new T()` or `T{}` builds;
 * - `file`: a declaration of the same file;
 * - `package`: a declaration of the same folder (a Go package) or of a file the caller imports;
 * - `name`: the only declaration with that name the caller can see, or one of a few (`ambiguous`).
 */
export type CallVia = 'import' | 'self' | 'type' | 'constructor' | 'file' | 'package' | 'name';

export const CALL_VIAS: readonly CallVia[] = [
  'import',
  'self',
  'type',
  'constructor',
  'file',
  'package',
  'name',
];

/** A declaration: the file it is in and its local symbol id. */
export interface DeclRef {
  readonly file: IndexedFile;
  readonly symbol: number;
}

export interface CallEdge {
  readonly from: IndexedFile;
  /** The calling function or method; absent for a call at the top of the file. */
  readonly caller: number | undefined;
  readonly to: IndexedFile;
  readonly callee: number;
  readonly line: number;
  /** The name as called. */
  readonly name: string;
  readonly confidence: Confidence;
  readonly via: CallVia;
}

/** What became of every call site of the snapshot. */
export interface CallGraphStats {
  readonly sites: number;
  /** Sites bound to exactly one declaration by import, receiver, type or scope. */
  readonly exact: number;
  /** Sites bound by name to the one declaration the caller can see. */
  readonly heuristic: number;
  /** Sites bound by name to several candidates (one edge each). */
  readonly ambiguous: number;
  /** Sites whose callee is proven to be outside the workspace (a library import, a library type). */
  readonly external: number;
  /** Sites no declaration could be bound to. */
  readonly unresolved: number;
}

export interface CallGraph {
  readonly stats: CallGraphStats;
  /** Calls of a declaration, in file order then line. */
  callersOf(target: DeclRef): readonly CallEdge[];
  /** Calls made by a declaration (`symbol` absent: the top of the file), by line. */
  calleesOf(file: IndexedFile, symbol: number | undefined): readonly CallEdge[];
  /** Bound calls on one line of a file. */
  callsAt(file: IndexedFile, line: number): readonly CallEdge[];
  /** The types a type declaration extends or implements, as far as they are declared in the workspace. */
  supertypesOf(type: DeclRef): readonly DeclRef[];
  /**
   * Types extending or implementing a type, directly or not (declared supertypes), and, for a Go interface,
   * the structs whose methods cover its method set (structural satisfaction, `heuristic`).
   */
  implementationsOf(type: DeclRef): readonly { readonly type: DeclRef; readonly confidence: Confidence }[];
  /** The interface and base-class methods a method overrides or implements (same name, supertypes up). */
  overridden(method: DeclRef): readonly DeclRef[];
  /** The methods overriding or implementing a method (same name, on the types implementing its type). */
  overriders(method: DeclRef): readonly { readonly method: DeclRef; readonly confidence: Confidence }[];
}
