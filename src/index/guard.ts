import path from 'node:path';

/**
 * MeshMCP's AstGuard limits. They keep the parser away from files that are huge, binary, minified or so
 * deeply nested that a recursive grammar would blow the stack; rejected files are recorded, not dropped.
 */
export const GUARD_LIMITS = {
  maxSourceBytes: 393_216,
  maxSchemaBytes: 1_572_864,
  binarySniffBytes: 4096,
  maxLineBytes: 1024,
  maxNestingDepth: 64,
} as const;

export type GuardReason = 'oversized' | 'binary' | 'long_line' | 'nesting';

export type GuardVerdict =
  { readonly ok: true } | { readonly ok: false; readonly reason: GuardReason; readonly detail: string };

export interface ContentCheckOptions {
  /** Treat `#` as a line comment in the nesting scan. Default: `usesHashComments(path)`. */
  readonly hashComments?: boolean;
  /** Reject a line longer than `maxLineBytes`. Default: on for code and config, off for prose (`isProse`). */
  readonly checkLineLength?: boolean;
  /** Reject bracket nesting deeper than `maxNestingDepth`. Default: on for code and config, off for prose. */
  readonly checkNesting?: boolean;
}

const OK: GuardVerdict = { ok: true };

/** Thousands separators without Intl, so the text is the same on every machine. */
const formatInt = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const reject = (reason: GuardReason, detail: string): GuardVerdict => ({ ok: false, reason, detail });

const SCHEMA_SUFFIXES = [
  '.proto',
  '.pb.go',
  'outerclass.java',
  '.pb.ts',
  '_pb2.py',
  '.pb.rs',
  // The same generated protobuf/gRPC code in other spellings: as large, and as legitimately so.
  '_pb2.pyi',
  '_pb2_grpc.py',
  '_pb.js',
  '_pb.d.ts',
  '.pb.cc',
  '.pb.h',
];

/**
 * Contract files get the larger limit: generated protobuf code and big API specs are exactly the files the
 * contract graph needs. OpenAPI/AsyncAPI specs are recognised by name: `openapi.yaml`, `orders.openapi.json`,
 * `asyncapi-v2.yml`, `swagger.json`.
 */
export function isSchemaFile(filePath: string): boolean {
  const name = path.basename(filePath).toLowerCase();
  if (SCHEMA_SUFFIXES.some((suffix) => name.endsWith(suffix))) return true;
  return /(?:^|[.\-_])(?:openapi|asyncapi|swagger)(?:[.\-_][^/]*)?\.(?:ya?ml|json)$/.test(name);
}

const PROSE_EXTENSIONS = new Set(['.md', '.markdown', '.mdx', '.rst', '.txt', '.adoc', '.asciidoc', '.org']);

/**
 * Prose: a paragraph is one long line and brackets are punctuation, so neither the line-length nor the
 * nesting limit says anything about such a file. The size and binary checks still apply.
 */
export function isProse(filePath: string): boolean {
  return PROSE_EXTENSIONS.has(path.extname(filePath).toLowerCase());
}

// prettier-ignore
const HASH_COMMENT_EXTENSIONS = new Set([
  '.py', '.pyi', '.rb', '.sh', '.bash', '.zsh', '.pl', '.pm', '.r', '.ex', '.exs', '.jl', '.nim', '.cr',
  '.php', '.ps1', '.yaml', '.yml', '.toml', '.properties', '.conf', '.cfg', '.ini', '.tf', '.hcl', '.cmake',
  '.gql', '.graphql',
]);
// prettier-ignore
const HASH_COMMENT_NAMES = new Set([
  'dockerfile', 'makefile', 'gemfile', 'rakefile', 'podfile', 'cmakelists.txt', 'procfile',
]);

/** Languages where `#` starts a comment (and not a preprocessor line or an attribute, as in C or Rust). */
export function usesHashComments(filePath: string): boolean {
  const name = path.basename(filePath).toLowerCase();
  return (
    HASH_COMMENT_EXTENSIONS.has(path.extname(name)) ||
    HASH_COMMENT_NAMES.has(name) ||
    name.startsWith('dockerfile.')
  );
}

/** Before reading: size from metadata. Schema files (see `isSchemaFile`) get `maxSchemaBytes`. */
export function checkSize(filePath: string, size: number): GuardVerdict {
  const limit = isSchemaFile(filePath) ? GUARD_LIMITS.maxSchemaBytes : GUARD_LIMITS.maxSourceBytes;
  return size > limit ? reject('oversized', `${formatInt(size)} bytes (limit ${formatInt(limit)})`) : OK;
}

const NUL = 0x00;
const LF = 0x0a;
const CR = 0x0d;

const SPACE = 0x20;
const TAB = 0x09;

/** Where a line's text ends once trailing spaces, tabs and a CR are left out. */
function trimmedEnd(content: Buffer, start: number, end: number): number {
  let last = end;
  while (
    last > start &&
    (content[last - 1] === SPACE || content[last - 1] === TAB || content[last - 1] === CR)
  )
    last--;
  return last;
}

/**
 * The first line (1-based) longer than `limit` bytes, trailing whitespace not counted (a hand-written line
 * padded with spaces is not minified code); undefined if none.
 */
function findLongLine(content: Buffer, limit: number): { line: number; bytes: number } | undefined {
  // Whole file within the limit: no line can exceed it, and indexOf is not even needed.
  if (content.length <= limit) return undefined;
  let start = 0;
  for (let line = 1; start <= content.length; line++) {
    const newline = content.indexOf(LF, start);
    const end = newline === -1 ? content.length : newline;
    if (end - start > limit) {
      const bytes = trimmedEnd(content, start, end) - start;
      if (bytes > limit) return { line, bytes };
    }
    if (newline === -1) return undefined;
    start = newline + 1;
  }
  return undefined;
}

/** Byte values the nesting scanner reacts to. */
const Ch = {
  Lf: 0x0a,
  Quote: 0x22,
  Hash: 0x23,
  Apos: 0x27,
  OpenParen: 0x28,
  CloseParen: 0x29,
  Star: 0x2a,
  Slash: 0x2f,
  OpenBracket: 0x5b,
  Backslash: 0x5c,
  CloseBracket: 0x5d,
  Backtick: 0x60,
  OpenBrace: 0x7b,
  CloseBrace: 0x7d,
} as const;

const SPECIAL = new Uint8Array(256);
for (const byte of Object.values(Ch)) SPECIAL[byte] = 1;

/**
 * Lexical bracket scanner: counts ( [ { depth, skipping comments and string literals. `"` and `'` strings end
 * at the end of the line even when unterminated, so a Rust lifetime or an apostrophe in an odd place cannot
 * swallow the rest of the file; backtick strings (JS templates, Go raw strings) may span lines. Returns the
 * first line where the depth exceeds `limit`, or undefined.
 */
function findDeepNesting(
  content: Buffer,
  limit: number,
  hashComments: boolean,
): { line: number; depth: number } | undefined {
  return new NestingScanner(content, hashComments).scan(limit);
}

/** The scan's position and line; each skip moves both past one comment or string literal. */
class NestingScanner {
  private i = 0;
  private line = 1;

  constructor(
    private readonly content: Buffer,
    private readonly hashComments: boolean,
  ) {}

  scan(limit: number): { line: number; depth: number } | undefined {
    const content = this.content;
    const n = content.length;
    let depth = 0;
    while (this.i < n) {
      const c = content[this.i] as number; // i < n
      // Most bytes are none of these; one table load skips them without walking the switch.
      if (SPECIAL[c] === 0) {
        this.i++;
        continue;
      }
      switch (c) {
        case Ch.Lf:
          this.line++;
          break;
        case Ch.OpenParen:
        case Ch.OpenBracket:
        case Ch.OpenBrace:
          if (++depth > limit) return { line: this.line, depth };
          break;
        case Ch.CloseParen:
        case Ch.CloseBracket:
        case Ch.CloseBrace:
          if (depth > 0) depth--;
          break;
        case Ch.Slash: {
          const next = content[this.i + 1];
          if (next === Ch.Slash) {
            this.skipLineComment(this.i + 2);
            continue;
          }
          if (next === Ch.Star) {
            this.skipBlockComment();
            continue;
          }
          break;
        }
        case Ch.Hash:
          if (this.hashComments) {
            this.skipLineComment(this.i + 1);
            continue;
          }
          break;
        case Ch.Quote:
        case Ch.Apos:
        case Ch.Backtick:
          this.skipString(c);
          continue;
        default:
          break;
      }
      this.i++;
    }
    return undefined;
  }

  /** To the newline that ends the comment, which the scan then counts on its next turn. */
  private skipLineComment(from: number): void {
    const end = this.content.indexOf(Ch.Lf, from);
    this.i = end === -1 ? this.content.length : end;
  }

  /** Past the end of the comment (or of the file, if it is not closed), counting the lines inside. */
  private skipBlockComment(): void {
    const content = this.content;
    const n = content.length;
    let j = this.i + 2;
    for (; j < n; j++) {
      const d = content[j];
      if (d === Ch.Lf) this.line++;
      else if (d === Ch.Star && content[j + 1] === Ch.Slash) break;
    }
    this.i = j + 2;
  }

  /** Past the closing quote, or up to the newline that cuts a single-line string. */
  private skipString(quote: number): void {
    const content = this.content;
    const n = content.length;
    const multiline = quote === Ch.Backtick;
    let j = this.i + 1;
    for (; j < n; j++) {
      const d = content[j];
      if (d === Ch.Backslash) {
        // An escaped newline continues the string on the next line; it still is a new line.
        if (content[j + 1] === Ch.Lf) this.line++;
        j++;
      } else if (d === quote) break;
      else if (d === Ch.Lf) {
        if (!multiline) break;
        this.line++;
      }
    }
    // A single-line string cut by the newline leaves it for the main loop to count.
    this.i = j < n && content[j] === Ch.Lf ? j : j + 1;
  }
}

/**
 * After reading, in this order: size again (the file may have grown since its metadata was read), binary
 * sniff (a NUL byte in the first 4,096 bytes), longest line in bytes, bracket nesting depth.
 *
 * The pipeline may call it with the path and the bytes only: the defaults follow the path, so a minified
 * `.js` is rejected while a Markdown paragraph on one long line is not (`isProse`), and `#` counts as a
 * comment only where the language says so (`usesHashComments`). Options override those defaults.
 */
export function checkContent(filePath: string, content: Buffer, options?: ContentCheckOptions): GuardVerdict {
  const size = checkSize(filePath, content.length);
  if (!size.ok) return size;

  const sniffEnd = Math.min(content.length, GUARD_LIMITS.binarySniffBytes);
  const nul = content.subarray(0, sniffEnd).indexOf(NUL);
  if (nul !== -1) return reject('binary', `NUL byte at offset ${formatInt(nul)}`);

  const prose = isProse(filePath);
  if (options?.checkLineLength ?? !prose) {
    const long = findLongLine(content, GUARD_LIMITS.maxLineBytes);
    if (long) {
      return reject(
        'long_line',
        `line ${formatInt(long.line)} is ${formatInt(long.bytes)} bytes (limit ${formatInt(GUARD_LIMITS.maxLineBytes)})`,
      );
    }
  }

  if (options?.checkNesting ?? !prose) {
    const deep = findDeepNesting(
      content,
      GUARD_LIMITS.maxNestingDepth,
      options?.hashComments ?? usesHashComments(filePath),
    );
    if (deep) {
      return reject(
        'nesting',
        `nesting depth ${formatInt(deep.depth)} at line ${formatInt(deep.line)} (limit ${GUARD_LIMITS.maxNestingDepth})`,
      );
    }
  }
  return OK;
}
