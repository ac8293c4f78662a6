/**
 * A declaration named as `<path>:<name>`: the file workspace-relative (as answers show paths) or relative to
 * its root, the name qualified (`settlementStore.transition`) or simple (`transition`). Anything that names
 * no declaration, or several, is a tool failure that lists what to pick from.
 */
import { z } from 'zod';
import { invalidArgument, ToolError } from '../../core/errors.js';
import type { IndexedFile, SnapshotReader, SymbolFact } from '../../index/reader.js';
import { displayOf } from './workspace-paths.js';

export interface NamedDeclaration {
  readonly file: IndexedFile;
  readonly symbol: SymbolFact;
}

const LISTED = 8;

/** The argument type of a field naming a declaration as `<path>:<name>`. */
export const declarationString = () => z.string().min(3).max(512);

const listed = (symbols: readonly SymbolFact[]): string =>
  symbols
    .slice(0, LISTED)
    .map((s) => `${s.kind} \`${s.qualifiedName}\` L${s.startLine}`)
    .join('; ') + (symbols.length > LISTED ? `; … ${symbols.length - LISTED} more` : '');

function fileNamed(snapshot: SnapshotReader, argument: string, spelling: string): IndexedFile {
  const wanted = spelling.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  const workspaceRelative = snapshot.files.find((f) => displayOf(snapshot, f) === wanted);
  if (workspaceRelative) return workspaceRelative;
  const rootRelative = snapshot.files.filter((f) => f.path === wanted);
  if (rootRelative.length === 1 && rootRelative[0]) return rootRelative[0];
  if (rootRelative.length > 1)
    throw new ToolError(
      'not_found',
      `\`${argument}\` path "${spelling}" is in ${rootRelative.length} roots: ${rootRelative.map((f) => `\`${displayOf(snapshot, f)}\``).join(', ')}. Pass one of these workspace-relative paths.`,
    );
  throw new ToolError(
    'not_found',
    `No indexed file at \`${argument}\` path "${spelling}" (paths are workspace-relative, as answers show them).`,
  );
}

/** The declaration `<path>:<name>` names; `argument` is the field's name, for the error messages. */
export function declarationNamed(
  snapshot: SnapshotReader,
  argument: string,
  value: string,
): NamedDeclaration {
  const at = value.lastIndexOf(':');
  const name = at > 0 ? value.slice(at + 1).trim() : '';
  if (at <= 0 || name === '' || /[\\/]/.test(name))
    throw invalidArgument(
      `\`${argument}\` must be "<path>:<name>", e.g. "services/payment/store.go:transition"; got ${JSON.stringify(value)}.`,
    );
  const file = fileNamed(snapshot, argument, value.slice(0, at));
  const symbols = file.facts.symbols;
  const exact = symbols.filter((s) => s.qualifiedName === name);
  const candidates = exact.length > 0 ? exact : symbols.filter((s) => s.name === name);
  const where = `\`${displayOf(snapshot, file)}\``;
  if (candidates.length === 1 && candidates[0]) return { file, symbol: candidates[0] };
  if (candidates.length > 1)
    throw invalidArgument(
      `\`${name}\` names ${candidates.length} declarations in ${where}: ${listed(candidates)}. Pass the qualified name.`,
    );
  throw new ToolError(
    'not_found',
    `No declaration named \`${name}\` in ${where}.${symbols.length > 0 ? ` It declares: ${listed(symbols)}.` : ''}`,
  );
}
