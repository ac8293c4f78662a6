/**
 * Call sites from a parse tree, for every language alike: a language declares which node types are calls
 * and how to read the callee out of each (`CallSyntax`, in its own folder); this file finds those nodes in
 * one pass of the grammar's native search, attributes each to the innermost function or method holding it
 * and keeps one fact per distinct call on a line.
 */
import type { Node } from 'web-tree-sitter';
import type { CallFact, SymbolFact, SymbolKind } from '../../facts.js';
import type { FoundSites, SiteQuery } from './site-walk.js';
import { searchTree } from './tree-search.js';
import { type Mutable, oneLine, startLineOf } from './tree-utils.js';

/** What a language reads from one call node; `undefined` when the node is no call after all. */
export interface CallSite {
  readonly name: string;
  readonly receiver?: string;
  readonly receiverType?: string;
  readonly module?: string;
  readonly self?: boolean;
  readonly construct?: boolean;
  /** The node the call's line is taken from (default: the call node), e.g. the method name of a chain. */
  readonly at?: Node;
}

export type CallReader = (node: Node) => CallSite | readonly CallSite[] | undefined;

/** Node type → how to read a call of that type. */
export type CallSyntax = Readonly<Record<string, CallReader>>;

/** Declarations a call can sit in; a call inside a nested function belongs to that function. */
const CALLER_KINDS: ReadonlySet<SymbolKind> = new Set(['function', 'method']);

/** An identifier, with Ruby's `?`/`!` endings: anything else read as a name is no call of a declaration. */
const CALLABLE_NAME = /^[\p{L}_$][\p{L}\p{N}_$]*[?!]?$/u;

/** Longest receiver kept as written: longer ones are chains no resolver reads anyway. */
const MAX_RECEIVER = 80;

/** The call facts of one file, ordered by line, then by the order the grammar lists the calls. */
export function collectCalls(root: Node, syntax: CallSyntax, symbols: readonly SymbolFact[]): CallFact[] {
  const found = searchTree(root, Object.keys(syntax));
  return callsOfNodes(found.nodes, found.types, syntax, symbols);
}

/**
 * The call nodes of the given types as a `collectSites` query, for a language whose other readers walk the
 * tree anyway: the calls are found in that walk instead of a search of their own. No leaves, as
 * `collectCalls` skips no subtree. Make it once per language (walk tables are kept per query).
 */
export function callSiteQuery(types: readonly string[]): SiteQuery {
  return { sites: new Set(types), leaves: new Set() };
}

/** `collectCalls` over the sites a `callSiteQuery` found; every type `syntax` reads must be in the query. */
export function callsOfSites(
  found: FoundSites,
  query: SiteQuery,
  syntax: CallSyntax,
  symbols: readonly SymbolFact[],
): CallFact[] {
  for (const type of Object.keys(syntax))
    if (!query.sites.has(type)) throw new Error(`call type ${type} is missing from the call site query`);
  return callsOfNodes(found.nodes, found.types, syntax, symbols);
}

/**
 * The call facts of call nodes found already (in tree order), given with their types: asking a node for its
 * type crosses into wasm, so a search that has read the types passes them on instead of asking again.
 */
export function callsOfNodes(
  nodes: readonly Node[],
  types: readonly string[],
  syntax: CallSyntax,
  symbols: readonly SymbolFact[],
): CallFact[] {
  const callerAt = callerTable(symbols);
  const seen = new Set<string>();
  const calls: CallFact[] = [];
  for (let index = 0; index < nodes.length; index++) {
    const node = nodes[index] as Node;
    const read = syntax[types[index] as string]?.(node);
    if (read === undefined) continue;
    for (const site of Array.isArray(read) ? (read as readonly CallSite[]) : [read as CallSite]) {
      const fact = callFact(site, node, callerAt);
      if (fact === undefined) continue;
      const key = `${fact.line}\u0000${fact.name}\u0000${fact.receiver ?? ''}\u0000${fact.construct ? 1 : 0}`;
      if (seen.has(key)) continue;
      seen.add(key);
      calls.push(fact);
    }
  }
  return calls.sort((a, b) => a.line - b.line);
}

/** Plain ASCII identifiers, the usual case, pass this cheaper test before the Unicode one. */
const ASCII_CALLABLE_NAME = /^[A-Za-z_$][\w$]*[?!]?$/;

function callFact(
  site: CallSite,
  node: Node,
  callerAt: (line: number) => number | undefined,
): CallFact | undefined {
  if (!ASCII_CALLABLE_NAME.test(site.name) && !CALLABLE_NAME.test(site.name)) return undefined;
  const line = startLineOf(site.at ?? node);
  const receiver = site.receiver === undefined ? undefined : oneLine(site.receiver);
  const caller = callerAt(line);
  // Filled in the order the fields are serialised (the cache and fingerprints hash the JSON).
  const fact = { name: site.name } as Mutable<CallFact>;
  if (receiver !== undefined && receiver !== '' && receiver.length <= MAX_RECEIVER) fact.receiver = receiver;
  if (site.receiverType) fact.receiverType = site.receiverType;
  if (site.module) fact.module = site.module;
  if (site.self) fact.self = true;
  if (site.construct) fact.construct = true;
  fact.line = line;
  if (caller !== undefined) fact.caller = caller;
  return fact;
}

/**
 * Line → the innermost function or method whose lines hold it. Wider declarations are painted first, so a
 * nested one (a closure declared as a function, a method in a class in a function) wins on its own lines.
 */
function callerTable(symbols: readonly SymbolFact[]): (line: number) => number | undefined {
  const callers = symbols
    .filter((s) => CALLER_KINDS.has(s.kind))
    .sort((a, b) => b.endLine - b.startLine - (a.endLine - a.startLine) || a.id - b.id);
  if (callers.length === 0) return () => undefined;
  const last = Math.max(...callers.map((s) => s.endLine));
  const table = new Int32Array(last + 1).fill(-1);
  for (const symbol of callers) table.fill(symbol.id, symbol.startLine, symbol.endLine + 1);
  return (line) => {
    const id = line < table.length ? (table[line] ?? -1) : -1;
    return id === -1 ? undefined : id;
  };
}

/** The text of a node with its type arguments, pointer and reference marks dropped: `*pb.Client[T]` → `pb.Client`. */
export function bareTypeName(text: string): string {
  return text
    .replace(/<[^<>]*(<[^<>]*>[^<>]*)*>/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/^[\s*&]+|(\s*[*&?]+)$/g, '')
    .replace(/^(?:const|mut|ref|readonly|final)\s+/, '')
    .trim();
}
