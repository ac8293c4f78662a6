/**
 * The declarations of one version of a file, as the indexer sees them: the text is parsed by the same
 * language extractor that indexes the workspace, and each declaration gets a hash of its body with the
 * whitespace normalised, so that reindenting or reflowing blank lines is not a change but editing a token is.
 */
import { createHash } from 'node:crypto';
import { ToolError } from '../../core/errors.js';
import type { LanguageId, SymbolFact } from '../../index/reader.js';
import type { DeclarationParser } from '../services.js';

/** A version larger than this is not parsed (the indexer's own limit is of the same order). */
export const MAX_VERSION_BYTES = 2 * 1024 * 1024;

export interface VersionedDeclaration {
  readonly kind: string;
  readonly name: string;
  readonly qualifiedName: string;
  readonly startLine: number;
  readonly endLine: number;
  /** SHA-256 of the body's lines, each trimmed with inner whitespace runs collapsed, blank lines dropped. */
  readonly bodyHash: string;
}

/** The identity a declaration keeps across versions: its kind and qualified name. */
export const declarationKey = (d: { kind: string; qualifiedName: string }): string =>
  `${d.kind} ${d.qualifiedName}`;

export function normalisedBodyHash(lines: readonly string[]): string {
  const hash = createHash('sha256');
  for (const line of lines) {
    const normal = line.trim().replace(/\s+/g, ' ');
    if (normal !== '') hash.update(`${normal}\n`);
  }
  return hash.digest('hex');
}

export function versionedDeclarations(text: string, symbols: readonly SymbolFact[]): VersionedDeclaration[] {
  const lines = text.split('\n');
  return symbols
    .filter((s) => s.kind !== 'heading')
    .map((s) => ({
      kind: s.kind,
      name: s.name,
      qualifiedName: s.qualifiedName,
      startLine: s.startLine,
      endLine: s.endLine,
      bodyHash: normalisedBodyHash(lines.slice(s.startLine - 1, s.endLine)),
    }));
}

export type ParsedVersion =
  | { readonly kind: 'parsed'; readonly declarations: VersionedDeclaration[] }
  | { readonly kind: 'failed'; readonly reason: string };

/** The parser of the services, or a ToolError when this server was composed without one. */
export function requireParser(parser: DeclarationParser | undefined): DeclarationParser {
  if (parser) return parser;
  throw new ToolError(
    'unavailable',
    'This server cannot parse older versions of files, so declarations cannot be compared.',
  );
}

/** Parses one version of a file (path root-relative, for the extractor's conventions). */
export async function parseVersion(
  parser: DeclarationParser,
  path: string,
  language: LanguageId,
  text: string,
): Promise<ParsedVersion> {
  const outcome = await parser({ path, language, source: text });
  if (outcome.kind === 'failed') return { kind: 'failed', reason: outcome.reason };
  return { kind: 'parsed', declarations: versionedDeclarations(text, outcome.symbols) };
}

/** The declaration with this key in a version; the n-th of namesakes (overloads) pairs with the n-th. */
export function findDeclaration(
  declarations: readonly VersionedDeclaration[],
  key: string,
  occurrence = 0,
): VersionedDeclaration | undefined {
  return declarations.filter((d) => declarationKey(d) === key)[occurrence];
}
