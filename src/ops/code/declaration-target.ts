/**
 * The one declaration a call-graph question is about: `symbol: "<path>:<name>"`, `path` with `name` or
 * `line`, or a `name` alone looked up across the workspace. A name several declarations share is answered
 * with the candidates, each spelled as a `symbol` the caller can pass back.
 */
import { z } from 'zod';
import { ToolError } from '../../core/errors.js';
import { compareStrings } from '../../core/order.js';
import { editDistance } from '../../core/suggest.js';
import type { IndexedFile, SnapshotReader, SymbolFact } from '../../index/reader.js';
import { addressedSymbol, type AddressedSymbol, type SymbolAddress } from '../shared/symbol-address.js';
import { displayOf } from '../shared/workspace-paths.js';
import { symbolIndexOf } from './symbol-index.js';

/** Candidates a "which one?" answer lists. */
const LISTED = 10;

/** The arguments that name one declaration, shared by every mode about a declaration. */
export const declarationArgs = {
  symbol: z
    .string()
    .min(3)
    .max(1200)
    .optional()
    .describe(
      'The declaration as "<path>:<name>" (or "<path>:<line>"), e.g. "services/orders/src/repo.ts:PgRepo.save".',
    ),
  path: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .describe(
      'The file declaring it, workspace-relative as answers show it, e.g. "services/inventory/store/mem.go".',
    ),
  name: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .describe(
      'The declaration, qualified or simple, e.g. "memStore.Get"; without `path` it is looked up in every file.',
    ),
  line: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('With `path`: a line the declaration spans (the innermost one wins), e.g. 42.'),
  kind: z
    .string()
    .min(1)
    .max(32)
    .optional()
    .describe('Only declarations of this kind, to tell namesakes apart, e.g. "method" or "interface".'),
};

/** A declaration as a `symbol` argument: `<workspace path>:<qualified name>`. */
export const symbolSpelling = (snapshot: SnapshotReader, file: IndexedFile, symbol: SymbolFact): string =>
  `${displayOf(snapshot, file)}:${symbol.qualifiedName}`;

/** `memStore.Get`, `memStore::Get` and `Get` all name the method `Get` of `memStore`. */
function matchesName(symbol: SymbolFact, name: string): boolean {
  if (symbol.name === name || symbol.qualifiedName === name) return true;
  const folded = (text: string) => text.replace(/::|[#/\\]/g, '.');
  return folded(symbol.qualifiedName).endsWith(`.${folded(name)}`);
}

const simpleNameOf = (name: string): string => name.split(/::|[.#/\\]/).pop() ?? name;

/** Declared names closest to a name nobody declares, for the "not found" answer. */
function closestNames(snapshot: SnapshotReader, name: string): string[] {
  const index = symbolIndexOf(snapshot);
  const simple = simpleNameOf(name);
  const seen = new Set<string>();
  const scored: { name: string; distance: number }[] = [];
  for (const { ref } of index.find(simple.slice(0, Math.min(4, simple.length)))) {
    const symbol = ref.file.facts.symbols[ref.symbol];
    if (!symbol || seen.has(symbol.qualifiedName)) continue;
    seen.add(symbol.qualifiedName);
    scored.push({ name: symbol.qualifiedName, distance: editDistance(simple, symbol.name) });
  }
  return scored
    .sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, 5)
    .map((s) => s.name);
}

/** Every declaration in the workspace named `name` (optionally of one kind), in snapshot order. */
export function declarationsNamed(snapshot: SnapshotReader, name: string, kind?: string): AddressedSymbol[] {
  return symbolIndexOf(snapshot)
    .named(simpleNameOf(name))
    .map((ref) => ({ file: ref.file, symbol: ref.file.facts.symbols[ref.symbol] as SymbolFact }))
    .filter((d) => d.symbol.kind !== 'heading' && (kind === undefined || d.symbol.kind === kind))
    .filter((d) => matchesName(d.symbol, name))
    .sort(
      (a, b) =>
        compareStrings(a.file.root, b.file.root) ||
        compareStrings(a.file.path, b.file.path) ||
        a.symbol.id - b.symbol.id,
    );
}

/** A list of declarations as `symbol` spellings with kind and line, at most `LISTED` of them. */
export function listDeclarations(snapshot: SnapshotReader, found: readonly AddressedSymbol[]): string {
  const shown = found
    .slice(0, LISTED)
    .map(
      (d) => `\`${symbolSpelling(snapshot, d.file, d.symbol)}\` (${d.symbol.kind}, L${d.symbol.startLine})`,
    )
    .join(', ');
  return found.length > LISTED ? `${shown} and ${found.length - LISTED} more` : shown;
}

function byNameAlone(
  snapshot: SnapshotReader,
  name: string,
  kind: string | undefined,
  preferred: ((symbol: SymbolFact) => boolean) | undefined,
): AddressedSymbol {
  const all = declarationsNamed(snapshot, name, kind);
  const fitting = preferred ? all.filter((d) => preferred(d.symbol)) : all;
  const found = fitting.length > 0 ? fitting : all;
  if (found.length === 1) return found[0] as AddressedSymbol;
  if (found.length > 1)
    throw new ToolError(
      'invalid_argument',
      `\`${name}\` names ${found.length} declarations: ${listDeclarations(snapshot, found)}. ` +
        'Pass one of them as `symbol`.',
    );
  const close = closestNames(snapshot, name);
  const ofKind = kind === undefined ? '' : ` of kind \`${kind}\``;
  throw new ToolError(
    'not_found',
    `No declaration${ofKind} named \`${name}\` in the indexed roots.` +
      (close.length > 0 ? ` Closest: ${close.map((c) => `\`${c}\``).join(', ')}.` : '') +
      ' `code search` finds declarations by part of their name.',
  );
}

/**
 * The declaration the arguments name, or a ToolError saying how to name exactly one. A name alone that
 * several declarations share picks the `preferred` ones among them when there are any (a type, for a
 * question only types answer).
 */
export function targetDeclaration(
  snapshot: SnapshotReader,
  address: SymbolAddress,
  preferred?: (symbol: SymbolFact) => boolean,
): AddressedSymbol {
  if (address.symbol === undefined && address.path === undefined && address.name !== undefined)
    return byNameAlone(snapshot, address.name, address.kind, preferred);
  return addressedSymbol(snapshot, address);
}
