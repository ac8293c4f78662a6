/**
 * One declaration named by a caller: a file (`path`) and the declaration in it, by name (qualified or
 * simple), by a line it spans, or both; or the `symbol: "<path>:<name>"` (or `"<path>:<line>"`) shorthand.
 * Anything that does not name exactly one declaration is answered with the candidates to choose from.
 */
import { ToolError, invalidArgument } from '../../core/errors.js';
import { editDistance } from '../../core/suggest.js';
import type { IndexedFile, SnapshotReader, SymbolFact } from '../../index/reader.js';
import { indexedFileOf } from './file-address.js';
import { displayOf } from './workspace-paths.js';

export interface SymbolAddress {
  readonly symbol?: string | undefined;
  readonly path?: string | undefined;
  readonly name?: string | undefined;
  readonly line?: number | undefined;
  readonly kind?: string | undefined;
}

export interface AddressedSymbol {
  readonly file: IndexedFile;
  readonly symbol: SymbolFact;
}

/** Candidates listed when a name matches several declarations or none. */
const LISTED = 10;

/** `Order::create`, `Order.create`, `pkg.Svc/Method` and `Order#create` compare alike. */
const separatorsFolded = (name: string): string => name.replace(/::|[.#/\\]/g, '.');

const spanText = (s: SymbolFact): string =>
  s.startLine === s.endLine ? `L${s.startLine}` : `L${s.startLine}–${s.endLine}`;

export const describeSymbol = (s: SymbolFact): string => `${s.kind} \`${s.qualifiedName}\` ${spanText(s)}`;

/** `path:name` or `path:line`, split at the last `:` that is followed by something other than a path. */
function splitShorthand(value: string): { path: string; name?: string; line?: number } {
  const at = value.lastIndexOf(':');
  const rest = at > 0 ? value.slice(at + 1) : '';
  // `C:\x` and `/a:b/c` are paths, not shorthand.
  if (at <= 0 || rest === '' || /[\\/]/.test(rest)) {
    throw invalidArgument(
      `\`symbol\` must be "<path>:<name>" or "<path>:<line>", e.g. "services/payment/server.go:ProcessPayment"; got ${JSON.stringify(value)}.`,
    );
  }
  const path = value.slice(0, at);
  return /^\d+$/.test(rest) ? { path, line: Number(rest) } : { path, name: rest };
}

/** The innermost declaration spanning `line` (the smallest span; a nested one wins over its parent). */
function innermostAt(symbols: readonly SymbolFact[], line: number): SymbolFact | undefined {
  let best: SymbolFact | undefined;
  for (const s of symbols) {
    if (s.startLine > line || s.endLine < line) continue;
    if (!best || s.endLine - s.startLine < best.endLine - best.startLine) best = s;
    else if (s.endLine - s.startLine === best.endLine - best.startLine && s.startLine >= best.startLine)
      best = s;
  }
  return best;
}

/** Declarations named `name`: exact qualified or simple names first, then with separators and case folded. */
function namedCandidates(symbols: readonly SymbolFact[], name: string): SymbolFact[] {
  const exact = symbols.filter((s) => s.qualifiedName === name || s.name === name);
  if (exact.length > 0) return exact;
  const folded = separatorsFolded(name).toLowerCase();
  return symbols.filter(
    (s) =>
      separatorsFolded(s.qualifiedName).toLowerCase() === folded ||
      s.name.toLowerCase() === folded ||
      separatorsFolded(s.qualifiedName).toLowerCase().endsWith(`.${folded}`),
  );
}

function listed(symbols: readonly SymbolFact[]): string {
  const shown = symbols.slice(0, LISTED).map(describeSymbol).join('; ');
  return symbols.length > LISTED ? `${shown}; … ${symbols.length - LISTED} more` : shown;
}

function noSuchName(snapshot: SnapshotReader, file: IndexedFile, name: string, kind?: string): ToolError {
  const symbols = file.facts.symbols;
  const where = `\`${displayOf(snapshot, file)}\``;
  if (symbols.length === 0)
    return new ToolError(
      'not_found',
      `${where} declares nothing meshlens extracts; \`code grep\` searches its text.`,
    );
  const close = [...symbols]
    .map((s) => ({ s, d: Math.min(editDistance(name, s.name), editDistance(name, s.qualifiedName)) }))
    .sort((a, b) => a.d - b.d || a.s.startLine - b.s.startLine)
    .slice(0, 5)
    .map((x) => x.s);
  const ofKind = kind ? ` of kind \`${kind}\`` : '';
  return new ToolError(
    'not_found',
    `No declaration${ofKind} named \`${name}\` in ${where}. Closest: ${listed(close)}. \`code outline\` lists them all.`,
  );
}

/** The file and declaration the arguments name, or a ToolError that says how to name one. */
export function addressedSymbol(snapshot: SnapshotReader, address: SymbolAddress): AddressedSymbol {
  if (address.symbol !== undefined && address.path !== undefined)
    throw invalidArgument(
      'Give either `symbol` ("<path>:<name>") or `path` with `name` or `line`, not both.',
    );
  const short = address.symbol !== undefined ? splitShorthand(address.symbol) : undefined;
  const pathText = short?.path ?? address.path;
  if (pathText === undefined)
    throw invalidArgument(
      'Name a declaration: `symbol` ("<path>:<name>", e.g. "services/payment/server.go:ProcessPayment") or `path` with `name` or `line`.',
    );
  const name = short?.name ?? address.name;
  const line = short?.line ?? address.line;
  const argument = short ? 'symbol' : 'path';
  if (name === undefined && line === undefined)
    throw invalidArgument(
      '`path` names a file: add `name` (e.g. "createOrder") or `line` to pick a declaration in it.',
    );
  const file = indexedFileOf(snapshot, argument, pathText);
  const symbols = file.facts.symbols.filter((s) => address.kind === undefined || s.kind === address.kind);
  const where = `\`${displayOf(snapshot, file)}\``;
  if (name === undefined) {
    const found = innermostAt(symbols, line as number);
    if (found) return { file, symbol: found };
    throw new ToolError(
      'not_found',
      `No declaration spans line ${line} of ${where}.${symbols.length > 0 ? ` Declarations: ${listed(symbols)}.` : ''}`,
    );
  }
  let candidates = namedCandidates(symbols, name);
  if (candidates.length === 0) throw noSuchName(snapshot, file, name, address.kind);
  if (line !== undefined) {
    const spanning = candidates.filter((s) => s.startLine <= line && line <= s.endLine);
    if (spanning.length === 0)
      throw new ToolError(
        'not_found',
        `\`${name}\` in ${where} does not span line ${line}: ${listed(candidates)}.`,
      );
    candidates = [innermostAt(spanning, line) as SymbolFact];
  }
  if (candidates.length === 1) return { file, symbol: candidates[0] as SymbolFact };
  throw new ToolError(
    'invalid_argument',
    `\`${name}\` names ${candidates.length} declarations in ${where}: ${listed(candidates)}. ` +
      'Pass `line` (or a qualified name, or `kind`) to pick one.',
  );
}
