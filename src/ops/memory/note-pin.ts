/**
 * Pins: a note tied to a file or to one declaration, with a hash of what it said when the note was written,
 * so that `memory audit` can tell when the code moved on under the note. A file's hash is the index's content
 * hash; a declaration's is a hash of its lines (secrets masked, as every text meshlens reads).
 */
import { createHash } from 'node:crypto';
import { invalidArgument, ToolError } from '../../core/errors.js';
import type { NotePin } from '../../core/notes.js';
import type { IndexedFile, SnapshotReader, SymbolFact } from '../../index/reader.js';
import { indexedFileOf } from '../shared/file-address.js';
import { readIndexedText, type IndexedText } from '../shared/indexed-text.js';
import { addressedSymbol } from '../shared/symbol-address.js';
import { displayOf } from '../shared/workspace-paths.js';

export interface PinRequest {
  /** Absolute, inside a root (the path jail resolved it). */
  readonly path?: string | undefined;
  readonly name?: string | undefined;
  readonly kind?: string | undefined;
}

/** A file's text as read once per call, for the several declarations of one file that notes pin. */
export type TextReader = (file: IndexedFile) => IndexedText | undefined;

/** A reader that reads each file at most once. */
export function memoisedTexts(): TextReader {
  const read = new Map<string, IndexedText | undefined>();
  return (file) => {
    if (!read.has(file.absolutePath)) read.set(file.absolutePath, readIndexedText(file));
    return read.get(file.absolutePath);
  };
}

/** The declaration's lines as a SHA-256, or undefined when its file can no longer be read. */
function declarationHash(
  file: IndexedFile,
  symbol: SymbolFact,
  texts: TextReader = readIndexedText,
): string | undefined {
  const text = texts(file);
  if (!text) return undefined;
  const lines = text.masked.lines.slice(symbol.startLine - 1, symbol.endLine);
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** The pin the arguments ask for, hashed now; undefined for a note pinned to nothing. */
export function pinFor(snapshot: SnapshotReader, request: PinRequest): NotePin | undefined {
  if (request.path === undefined) {
    if (request.name !== undefined || request.kind !== undefined)
      throw invalidArgument(
        '`name` and `kind` pin a note to a declaration and need the `path` of its file, e.g. path "services/orders/src/order.repo.ts", name "OrderRepo.save".',
      );
    return undefined;
  }
  if (request.name === undefined) {
    if (request.kind !== undefined)
      throw invalidArgument(
        '`kind` picks among declarations of one `name`: give `name` too, or leave `kind` out to pin the file.',
      );
    const file = indexedFileOf(snapshot, 'path', request.path);
    return { kind: 'file', path: displayOf(snapshot, file), hash: file.hash };
  }
  const { file, symbol } = addressedSymbol(snapshot, {
    path: request.path,
    name: request.name,
    kind: request.kind,
  });
  const hash = declarationHash(file, symbol);
  if (hash === undefined)
    throw new ToolError(
      'not_found',
      `\`${displayOf(snapshot, file)}\` can no longer be read; re-index it (admin rescan) and retry.`,
    );
  return {
    kind: 'declaration',
    path: displayOf(snapshot, file),
    qualifiedName: symbol.qualifiedName,
    symbolKind: symbol.kind,
    hash,
  };
}

/** What became of a pinned file or declaration since the note was written. */
export type PinState =
  | { readonly state: 'unchanged' }
  | { readonly state: 'changed'; readonly hash: string }
  | { readonly state: 'vanished'; readonly reason: string };

function indexedFile(snapshot: SnapshotReader, spelling: string): IndexedFile | undefined {
  try {
    return indexedFileOf(snapshot, 'path', spelling);
  } catch (error) {
    if (error instanceof ToolError) return undefined;
    throw error;
  }
}

/** The pin checked against the snapshot: same hash, another hash, or gone (and why). */
export function pinState(snapshot: SnapshotReader, pin: NotePin, texts: TextReader): PinState {
  const file = indexedFile(snapshot, pin.path);
  if (!file)
    return { state: 'vanished', reason: 'the file is no longer indexed (deleted, moved or excluded)' };
  if (pin.kind === 'file')
    return file.hash === pin.hash ? { state: 'unchanged' } : { state: 'changed', hash: file.hash };
  const symbol = file.facts.symbols.find(
    (s) => s.qualifiedName === pin.qualifiedName && s.kind === pin.symbolKind,
  );
  if (!symbol)
    return {
      state: 'vanished',
      reason: `the file no longer declares ${pin.symbolKind} \`${pin.qualifiedName}\``,
    };
  const hash = declarationHash(file, symbol, texts);
  if (hash === undefined) return { state: 'vanished', reason: 'the file can no longer be read' };
  return hash === pin.hash ? { state: 'unchanged' } : { state: 'changed', hash };
}
