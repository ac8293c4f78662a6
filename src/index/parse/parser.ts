/**
 * In-process parsing: source → tree-sitter tree → extractor → facts, for one file at a time. The same code
 * runs inside each pool worker and on the main thread (no pool, or the retry of a file that failed in the
 * pool), which is what makes the facts independent of the thread count.
 *
 * web-tree-sitter is imported lazily: loading it (and compiling its wasm) costs tens of milliseconds that a
 * process answering only queries from a persisted index never needs to pay.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type * as TreeSitterModule from 'web-tree-sitter';
import type { Language, Parser, Tree } from 'web-tree-sitter';
import { emptyFacts, type FileFacts, type LanguageId } from '../facts.js';
import type { ExtractInput, ExtractOptions, Extractor, ExtractorMap } from '../languages/extractor.js';
import { applyPatterns } from '../languages/shared/patterns.js';
import { extractorOf, grammarOf } from '../languages/registry.js';
import { rewriteSidecarPublishes } from '../languages/shared/dapr-publish.js';

export interface ParseJob {
  /** Root-relative, `/`-separated. */
  readonly path: string;
  readonly language: LanguageId;
  readonly source: string;
}

export type ParseOutcome =
  | { readonly kind: 'parsed'; readonly facts: FileFacts }
  /** The language has no tree-sitter grammar: its extractor (if any) ran on the source alone. */
  | { readonly kind: 'no-grammar'; readonly facts: FileFacts }
  /** Thrown by the parser or the extractor, or cancelled at the deadline. */
  | { readonly kind: 'failed'; readonly reason: string; readonly timedOut: boolean };

/**
 * Indexing deadline per file. Generous on purpose: a tight deadline makes the index depend on machine load
 * (a file that parses in 20 ms idle can take 200 ms under contention), which breaks determinism.
 */
export const PARSE_TIMEOUT_MS = 2_000;

export interface ParseFileOptions {
  /** Folder holding the grammar `.wasm` files; default: see {@link resolveGrammarsDir}. */
  readonly grammarsDir?: string;
  /** Default: the registered extractors; only in-process callers can pass others (functions cannot cross threads). */
  readonly extractors?: ExtractorMap;
  /** Default {@link PARSE_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /** Workspace settings passed to every extractor; its custom patterns run after the extractor. */
  readonly options?: ExtractOptions;
  /** Adds this file's grammar loading, parsing and extraction times to it. */
  readonly timings?: ParseTimings;
}

/** Milliseconds spent in each step of `parseFile`, summed over the files it was given to. */
export interface ParseTimings {
  /** Waiting for the grammar (compiling it the first time a thread meets the language). */
  grammarMs: number;
  /** Inside tree-sitter's `parse`. */
  parseMs: number;
  /** Walking the tree into facts: the extractor, custom patterns and the rewrites after it. */
  extractMs: number;
}

export function emptyParseTimings(): ParseTimings {
  return { grammarMs: 0, parseMs: 0, extractMs: 0 };
}

export const GRAMMARS_DIR_ENV = 'MESHLENS_GRAMMARS_DIR';

/**
 * Finds the grammars folder by walking up from `startDir`: `<dir>/grammars` covers the bundle
 * (`dist/meshlens.js`, `dist/parse-worker.js`) and its chunks (`dist/chunks/*.js`), `<dir>/dist/grammars`
 * covers the TypeScript sources run by vitest or tsx. The walk stops at the package root so that an
 * unrelated `grammars` folder higher up is never picked.
 */
export function findGrammarsDir(startDir: string): string | undefined {
  let dir = path.resolve(startDir);
  for (;;) {
    for (const candidate of [path.join(dir, 'grammars'), path.join(dir, 'dist', 'grammars')]) {
      if (isDirectory(candidate)) return candidate;
    }
    const parent = path.dirname(dir);
    if (existsSync(path.join(dir, 'package.json')) || parent === dir) return undefined;
    dir = parent;
  }
}

let defaultGrammarsDir: string | undefined;

/** Argument first, then `MESHLENS_GRAMMARS_DIR`, then the folder found next to this module. */
export function resolveGrammarsDir(override?: string): string {
  if (override !== undefined) return path.resolve(override);
  const fromEnv = process.env[GRAMMARS_DIR_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return path.resolve(fromEnv);
  const here = path.dirname(fileURLToPath(import.meta.url));
  // Not found: name the conventional location so that the load error says where grammars were expected.
  defaultGrammarsDir ??= findGrammarsDir(here) ?? path.join(here, 'grammars');
  return defaultGrammarsDir;
}

function isDirectory(candidate: string): boolean {
  try {
    return statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}

type TreeSitter = typeof TreeSitterModule;

let runtime: Promise<TreeSitter> | undefined;

function loadRuntime(): Promise<TreeSitter> {
  runtime ??= (async () => {
    const module = await import('web-tree-sitter');
    await module.Parser.init();
    return module;
  })();
  return runtime;
}

interface LoadedGrammar {
  readonly language: Language;
  /** One parser per grammar: `setLanguage` on every file would cost more than the parse of a small file. */
  readonly parser: Parser;
}

// Keyed by the absolute wasm path; a failed load stays cached so every file of that language fails the
// same way instead of retrying the load thousands of times.
const grammars = new Map<string, Promise<LoadedGrammar>>();

function loadGrammarFile(file: string, grammarsDir: string): Promise<LoadedGrammar> {
  const wasm = path.join(grammarsDir, file);
  let loaded = grammars.get(wasm);
  if (loaded === undefined) {
    loaded = (async () => {
      const { Language, Parser } = await loadRuntime();
      const language = await Language.load(wasm);
      const parser = new Parser();
      parser.setLanguage(language);
      return { language, parser };
    })();
    grammars.set(wasm, loaded);
  }
  return loaded;
}

/** Loads (once) the grammar of `language`; undefined for a language without a tree-sitter grammar. */
export async function loadLanguage(
  language: LanguageId,
  grammarsDir?: string,
): Promise<Language | undefined> {
  const file = grammarOf(language);
  if (file === undefined) return undefined;
  return (await loadGrammarFile(file, resolveGrammarsDir(grammarsDir))).language;
}

/**
 * Parses one file and runs its extractor. Never throws: every failure is a `failed` outcome with a reason
 * that names no path outside the workspace.
 */
export async function parseFile(job: ParseJob, options: ParseFileOptions = {}): Promise<ParseOutcome> {
  let extractor: Extractor | undefined;
  try {
    extractor = options.extractors ? options.extractors[job.language] : await extractorOf(job.language);
  } catch (error) {
    return failed(`extractor could not be loaded: ${describe(error, true)}`);
  }
  const grammar = grammarOf(job.language);
  const input: ExtractInput = {
    path: job.path,
    language: job.language,
    source: job.source,
    ...(options.options !== undefined ? { options: options.options } : {}),
  };
  // Custom patterns apply to every language, with or without an extractor, after it has run; so does
  // reading a POST to the Dapr sidecar's publish API (any language's HTTP client can send one).
  const extract = (tree?: Tree): FileFacts =>
    withCallSitesAsConfigured(
      input,
      applyPatterns(
        input,
        rewriteSidecarPublishes(
          extractor?.(tree !== undefined ? { ...input, tree } : input) ?? emptyFacts(job.language),
        ),
      ),
    );
  const timings = options.timings;
  if (grammar === undefined) {
    const extractStarted = performance.now();
    try {
      return { kind: 'no-grammar', facts: extract() };
    } catch (error) {
      return failed(`extractor failed: ${describe(error)}`);
    } finally {
      addTime(timings, 'extractMs', extractStarted);
    }
  }

  const loadStarted = performance.now();
  let loaded: LoadedGrammar;
  try {
    loaded = await loadGrammarFile(grammar, resolveGrammarsDir(options.grammarsDir));
  } catch (error) {
    return failed(`grammar ${grammar} could not be loaded: ${describe(error, true)}`);
  } finally {
    addTime(timings, 'grammarMs', loadStarted);
  }

  // From here on everything is synchronous, so concurrent calls cannot interleave on the shared parser.
  const parseStarted = performance.now();
  const tree = parseTree(loaded.parser, job.source, options.timeoutMs ?? PARSE_TIMEOUT_MS);
  addTime(timings, 'parseMs', parseStarted);
  if ('kind' in tree) return tree;
  const extractStarted = performance.now();
  try {
    return { kind: 'parsed', facts: extract(tree) };
  } catch (error) {
    return failed(`extractor failed: ${describe(error)}`);
  } finally {
    // Trees live in wasm memory, which the garbage collector does not see.
    tree.delete();
    addTime(timings, 'extractMs', extractStarted);
  }
}

/** The tree of `source`, or why there is none (the parser threw, or the deadline passed). */
function parseTree(parser: Parser, source: string, timeoutMs: number): Tree | ParseOutcome {
  const deadline = performance.now() + timeoutMs;
  let timedOut = false;
  let tree: Tree | null;
  const reader = sourceReader(source);
  try {
    tree = parser.parse(reader.read, null, {
      // Called every few hundred parser operations; returning true cancels the parse.
      progressCallback: () => {
        if (performance.now() <= deadline) return false;
        timedOut = true;
        return true;
      },
    });
  } catch (error) {
    parser.reset();
    return failed(`parser failed: ${describe(error)}`);
  } finally {
    reader.parsed();
  }
  if (tree === null) {
    // A cancelled parser resumes where it stopped on the next call unless reset.
    parser.reset();
    return timedOut
      ? { kind: 'failed', reason: `parse timed out after ${timeoutMs} ms`, timedOut: true }
      : failed('parser returned no tree');
  }
  return tree;
}

/** What web-tree-sitter copies into wasm memory per read at most: its 10 KB input buffer, in UTF-16. */
const FULL_READ_CHARS = 5_119;
/** A read of text already handed over: long enough for a line, short enough that copying it costs little. */
const REREAD_CHARS = 256;

/**
 * The source as tree-sitter reads it. Handed a string, web-tree-sitter copies everything from the requested
 * offset to the end of its 10 KB buffer on every read. Some grammars read the same text again and again: the
 * Scala grammar goes back to the start of the current line about once every ten characters, and copying up to
 * 5,119 characters each time made Scala files five to ten times slower to parse than any other language.
 * Reads of new text get the full buffer; reads of text already handed over get a line's worth. The tree is
 * the same either way: this changes only how much text is copied per read.
 */
function sourceReader(source: string): { read: (index: number) => string; parsed: () => void } {
  let handedOver = 0;
  let parsing = true;
  return {
    read: (index) => {
      // The tree keeps this function to read node texts: those want the rest of the source, as before.
      if (!parsing) return source.slice(index);
      const text = source.slice(index, index + (index < handedOver ? REREAD_CHARS : FULL_READ_CHARS));
      handedOver = Math.max(handedOver, index + text.length);
      return text;
    },
    parsed: () => {
      parsing = false;
    },
  };
}

function addTime(timings: ParseTimings | undefined, step: keyof ParseTimings, since: number): void {
  if (timings) timings[step] += performance.now() - since;
}

function failed(reason: string): ParseOutcome {
  return { kind: 'failed', reason, timedOut: false };
}

/** The error's message, or only its code for file-system errors whose message holds an absolute path. */
function describe(error: unknown, preferCode = false): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (preferCode && typeof code === 'string') return code;
    return error.message;
  }
  return String(error);
}

/** The facts without their call sites when the workspace turned them off (`[code] call_graph = false`). */
function withCallSitesAsConfigured(input: ExtractInput, facts: FileFacts): FileFacts {
  if (input.options?.calls !== false || facts.calls === undefined) return facts;
  const { calls: _dropped, ...rest } = facts;
  return rest;
}
