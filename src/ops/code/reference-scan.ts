/**
 * Every whole-word use of a name in the indexed files of one language family, read from disk and masked
 * (only files whose raw text holds the name are masked: masking is the costly part), each use classified by
 * the call graph: a declaration of that name, a call bound to the declaration asked about, a call bound to
 * another one, or a use nothing binds. Nothing is kept between calls.
 */
import { readFileSync } from 'node:fs';
import type {
  CallEdge,
  CallGraph,
  Confidence,
  DeclRef,
  IndexedFile,
  SymbolFact,
} from '../../index/reader.js';
import { maskedLinesOf, mayMatchMasked } from '../../trust/secret-search.js';
import { insideQuotes, isWholeWordAt } from './identifier-at.js';
import type { ImportReach } from './import-files.js';

export interface Occurrence {
  readonly file: IndexedFile;
  readonly line: number;
  readonly column: number;
  /** The masked line. */
  readonly text: string;
  /** A declaration of the name starts here (the target itself or a namesake). */
  readonly declaration?: SymbolFact;
  /** The call edge binding this use, preferring one that binds to the target. */
  readonly edge?: CallEdge;
  /** The use is the target's own declaration, an import of it, or a call the graph binds to it. */
  readonly resolved: boolean;
  readonly confidence?: Confidence;
  /** An import statement naming it, resolved to the target's file. */
  readonly imported?: true;
  /** The call binds to an interface or base method the target implements: it may run the target. */
  readonly dispatches?: true;
  /** The name is inside a string literal (a path, a message): text, not a use the graph could bind. */
  readonly inString?: true;
}

export interface ScanRequest {
  readonly files: readonly IndexedFile[];
  readonly target: { readonly file: IndexedFile; readonly symbol: SymbolFact };
  readonly graph: CallGraph;
  /** The imports of a file with the files they reach (asked only of files using the name). */
  readonly importsOf: (file: IndexedFile) => readonly ImportReach[];
  /** Uses kept at most; the scan stops there. */
  readonly cap: number;
  readonly signal: AbortSignal;
}

export interface ScanResult {
  readonly occurrences: readonly Occurrence[];
  readonly filesScanned: number;
  readonly truncated: boolean;
}

function readText(file: IndexedFile): string | undefined {
  try {
    return readFileSync(file.absolutePath, 'utf8');
  } catch {
    return undefined;
  }
}

/** Columns (1-based) where `name` occurs as a whole word. */
function columnsOf(text: string, name: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + name.length))
    if (isWholeWordAt(text, at, name)) out.push(at + 1);
  return out;
}

/** How one line's uses are bound: the declaration made there, an import of the target, the call edges of that name. */
function lineBinding(
  request: ScanRequest,
  context: FileContext,
  line: number,
): Partial<Occurrence> & { resolved: boolean } {
  const { target } = request;
  const { file } = context;
  const name = target.symbol.name;
  const declaration = file.facts.symbols.find(
    (s) => s.startLine === line && s.name === name && s.kind !== 'heading',
  );
  const declared = declaration === undefined ? {} : { declaration };
  if (declaration !== undefined && file === target.file && declaration.id === target.symbol.id)
    return { ...declared, resolved: true, confidence: 'exact' };
  if (context.importLines().has(line))
    return { ...declared, resolved: true, confidence: 'exact', imported: true };
  const edges = request.graph.callsAt(file, line).filter((e) => e.name === name);
  const toTarget = edges.find((e) => e.to === target.file && e.callee === target.symbol.id);
  if (toTarget) return { ...declared, edge: toTarget, resolved: true, confidence: toTarget.confidence };
  const dispatched = edges.find((e) =>
    context.overridden.some((o) => o.file === e.to && o.symbol === e.callee),
  );
  if (dispatched) return { ...declared, edge: dispatched, resolved: false, dispatches: true };
  return { ...declared, ...(edges[0] ? { edge: edges[0] } : {}), resolved: false };
}

/** What classifying one file's uses needs: the file, the target's overridden methods, its imports of the target. */
interface FileContext {
  readonly file: IndexedFile;
  readonly overridden: readonly DeclRef[];
  /** Lines of import statements naming the target and reaching its file. */
  importLines(): ReadonlySet<number>;
}

function fileContext(request: ScanRequest, file: IndexedFile, overridden: readonly DeclRef[]): FileContext {
  let lines: Set<number> | undefined;
  const name = request.target.symbol.name;
  return {
    file,
    overridden,
    importLines() {
      lines ??= new Set(
        request
          .importsOf(file)
          .filter((i) => i.names.includes(name) && i.files.includes(request.target.file))
          .map((i) => i.line),
      );
      return lines;
    },
  };
}

function scanFile(request: ScanRequest, context: FileContext, raw: string, out: Occurrence[]): void {
  const { file } = context;
  const name = request.target.symbol.name;
  maskedLinesOf(raw).lines.forEach((text, index) => {
    if (out.length >= request.cap || !text.includes(name)) return;
    const columns = columnsOf(text, name);
    if (columns.length === 0) return;
    const binding = lineBinding(request, context, index + 1);
    for (const column of columns) {
      if (out.length >= request.cap) return;
      if (insideQuotes(text, column - 1))
        out.push({ file, line: index + 1, column, text, resolved: false, inString: true });
      else out.push({ file, line: index + 1, column, text, ...binding });
    }
  });
}

/** The uses of the target's name in `files` (the target's file first, then in the order given). */
export function scanReferences(request: ScanRequest): ScanResult {
  const name = request.target.symbol.name;
  const order = [request.target.file, ...request.files.filter((f) => f !== request.target.file)];
  // A name that could overlap the masking marker must be looked for in masked text even when the raw text
  // lacks it; any other name is in the masked text only if it is in the raw text.
  const overlapsMarker = mayMatchMasked('', name.toLowerCase());
  const overridden = request.graph.overridden({
    file: request.target.file,
    symbol: request.target.symbol.id,
  });
  const occurrences: Occurrence[] = [];
  let filesScanned = 0;
  for (const file of order) {
    if (occurrences.length >= request.cap) break;
    request.signal.throwIfAborted();
    filesScanned++;
    const raw = readText(file);
    if (raw === undefined || (!overlapsMarker && !raw.includes(name))) continue;
    scanFile(request, fileContext(request, file, overridden), raw, occurrences);
  }
  return { occurrences, filesScanned, truncated: occurrences.length >= request.cap };
}
