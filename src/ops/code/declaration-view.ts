/**
 * One declaration as the call-graph answers show it: where it is, what it is and which service holds it, the
 * same in every mode so that a row of one answer can be passed to another (`symbol`).
 */
import type { IndexedFile, SnapshotReader, SymbolFact, SymbolKind } from '../../index/reader.js';
import { maskSecrets, redactionsIn } from '../../trust/secret-mask.js';
import { displayOf } from '../shared/workspace-paths.js';
import { symbolSpelling } from './declaration-target.js';

/** Declarations that own members and that other types can extend or implement. */
const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set([
  'class',
  'interface',
  'struct',
  'trait',
  'enum',
  'type',
  'impl',
  'module',
  'namespace',
]);

export const isTypeDeclaration = (symbol: SymbolFact): boolean => TYPE_KINDS.has(symbol.kind);

export interface DeclarationView {
  readonly symbol: string;
  readonly path: string;
  readonly line: number;
  readonly end_line: number;
  readonly kind: string;
  readonly name: string;
  readonly signature?: string;
  readonly service: string;
}

/** Signatures are shown on one line, and only their start when they are long. */
const MAX_SIGNATURE = 160;

/** The signature as an answer may show it: masked (a constant's signature holds its value), on one line. */
export function oneLineSignature(symbol: SymbolFact): string | undefined {
  if (symbol.signature === undefined) return undefined;
  const flat = maskSecrets(symbol.signature).text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_SIGNATURE ? `${flat.slice(0, MAX_SIGNATURE - 1)}…` : flat;
}

export function declarationView(
  snapshot: SnapshotReader,
  file: IndexedFile,
  symbol: SymbolFact,
): DeclarationView {
  const signature = oneLineSignature(symbol);
  return {
    symbol: symbolSpelling(snapshot, file, symbol),
    path: displayOf(snapshot, file),
    line: symbol.startLine,
    end_line: symbol.endLine,
    kind: symbol.kind,
    name: symbol.qualifiedName,
    ...(signature === undefined ? {} : { signature }),
    service: snapshot.serviceOf(file.root),
  };
}

/** A Markdown table cell: no pipe or line break may end it early. */
export const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Secrets masked in the signatures of some declarations (for the audit). */
export const signatureRedactions = (views: readonly DeclarationView[]): number =>
  views.reduce((sum, view) => sum + (view.signature === undefined ? 0 : redactionsIn(view.signature)), 0);
