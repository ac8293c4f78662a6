/**
 * The literal text every match of a regular expression must contain, as an AND/OR tree of strings: what a
 * trigram filter can test before a file is read (Russ Cox's "Regular Expression Matching with a Trigram
 * Index", simplified to runs of literal characters). `foo(Bar|Baz)+qux` needs `foo`, `qux` and one of `bar`
 * or `baz`.
 *
 * The tree must never be stricter than the expression, or a file that matches would be skipped: whatever is
 * not understood with certainty (a class, an escape with a special meaning, a back-reference) contributes
 * nothing, and a construct that could shift how the rest is read makes the whole expression `any` (scan every
 * file). Literals shorter than three characters carry no trigram and are dropped.
 */

export type LiteralQuery =
  | { readonly kind: 'any' }
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'and'; readonly parts: readonly LiteralQuery[] }
  | { readonly kind: 'or'; readonly parts: readonly LiteralQuery[] };

export const ANY: LiteralQuery = { kind: 'any' };

export interface LiteralOptions {
  readonly ignoreCase: boolean;
  /** The expression is compiled with the `u` flag (its case folding maps `ſ` to `s` and `K` to `k`). */
  readonly unicode: boolean;
}

/** Thrown inside the parser for a construct it does not model; the whole expression becomes `any`. */
class Unmodelled extends Error {}

function and(parts: readonly LiteralQuery[]): LiteralQuery {
  const kept = parts.filter((p) => p.kind !== 'any');
  if (kept.length === 0) return ANY;
  return kept.length === 1 ? (kept[0] as LiteralQuery) : { kind: 'and', parts: kept };
}

function or(parts: readonly LiteralQuery[]): LiteralQuery {
  if (parts.length === 0 || parts.some((p) => p.kind === 'any')) return ANY;
  return parts.length === 1 ? (parts[0] as LiteralQuery) : { kind: 'or', parts };
}

/** One parsed piece: a literal character, a group (with the exact text it matches, when it has one), or anything else. */
type Atom =
  | { readonly kind: 'char'; readonly char: string }
  | { readonly kind: 'group'; readonly query: LiteralQuery; readonly exact: string | undefined }
  | { readonly kind: 'opaque' };

const OPAQUE: Atom = { kind: 'opaque' };
/** Escapes of a character class, an assertion or a control character: a break in the literal run. */
const CLASS_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S', 'b', 'B', 'n', 'r', 't', 'f', 'v']);

interface Quantifier {
  readonly min: number;
  readonly max: number;
}

class Parser {
  private at = 0;

  constructor(
    private readonly source: string,
    private readonly options: LiteralOptions,
  ) {}

  parse(): LiteralQuery {
    const { query } = this.alternation();
    if (this.at < this.source.length) throw new Unmodelled('unbalanced parenthesis');
    return query;
  }

  private alternation(): { query: LiteralQuery; exact: string | undefined } {
    const branches = [this.sequence()];
    while (this.source[this.at] === '|') {
      this.at++;
      branches.push(this.sequence());
    }
    const only = branches.length === 1 ? branches[0] : undefined;
    return { query: or(branches.map((b) => b.query)), exact: only?.exact };
  }

  private sequence(): { query: LiteralQuery; exact: string | undefined } {
    const parts: LiteralQuery[] = [];
    let run = '';
    let exact: string | undefined = '';
    const flush = (): void => {
      if (run.length >= 3) parts.push({ kind: 'literal', text: run });
      run = '';
    };
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      const atom = this.atom();
      const quantifier = this.quantifier();
      const once = quantifier.min === 1 && quantifier.max === 1;
      if (!once || atom.kind === 'opaque') exact = undefined;
      if (atom.kind === 'char') {
        if (exact !== undefined) exact += atom.char;
        if (quantifier.min === 0) {
          flush();
        } else if (quantifier.min === quantifier.max) {
          run += atom.char.repeat(quantifier.min);
        } else {
          // `ab+c` holds `ab` and `bc`, with any number of `b` between.
          run += atom.char;
          flush();
          run = atom.char;
        }
      } else if (atom.kind === 'group') {
        if (once && atom.exact !== undefined) {
          run += atom.exact;
          if (exact !== undefined) exact += atom.exact;
        } else {
          exact = undefined;
          flush();
          if (quantifier.min > 0) parts.push(atom.query);
        }
      } else {
        flush();
      }
    }
    flush();
    return { query: and(parts), exact };
  }

  private atom(): Atom {
    const c = this.source[this.at] as string;
    this.at++;
    switch (c) {
      case '(':
        return this.group();
      case '[':
        this.skipClass();
        return OPAQUE;
      case '.':
      case '^':
      case '$':
        return OPAQUE;
      case '\\':
        return this.escape();
      default:
        return this.literal(c);
    }
  }

  private group(): Atom {
    let lookaround = false;
    if (this.source.startsWith('?:', this.at)) this.at += 2;
    else if (/^\?<?[=!]/.test(this.source.slice(this.at, this.at + 3))) {
      lookaround = true;
      this.at += this.source[this.at + 1] === '<' ? 3 : 2;
    } else if (this.source.startsWith('?<', this.at)) {
      const close = this.source.indexOf('>', this.at);
      if (close === -1) throw new Unmodelled('group name');
      this.at = close + 1;
    } else if (this.source[this.at] === '?') throw new Unmodelled('group modifier');
    const inner = this.alternation();
    if (this.source[this.at] !== ')') throw new Unmodelled('unclosed group');
    this.at++;
    // A lookaround matches no text of its own.
    return lookaround ? OPAQUE : { kind: 'group', query: inner.query, exact: inner.exact };
  }

  /** Skips a character class up to its closing `]` (in JavaScript `[]` is empty and `[^]` matches anything). */
  private skipClass(): void {
    while (this.at < this.source.length && this.source[this.at] !== ']') {
      this.at += this.source[this.at] === '\\' ? 2 : 1;
    }
    if (this.at >= this.source.length) throw new Unmodelled('unclosed class');
    this.at++;
  }

  private escape(): Atom {
    const e = this.source[this.at];
    if (e === undefined) throw new Unmodelled('trailing backslash');
    this.at++;
    if (CLASS_ESCAPES.has(e)) return OPAQUE;
    // Hex, Unicode, control, property, named and numbered references: not modelled.
    if (/[A-Za-z0-9]/.test(e)) throw new Unmodelled(`escape \\${e}`);
    return this.literal(e);
  }

  private literal(c: string): Atom {
    const code = c.charCodeAt(0);
    // Half of a surrogate pair: with the `u` flag a quantifier applies to the whole pair.
    if (code >= 0xd800 && code <= 0xdfff) return OPAQUE;
    if (this.options.ignoreCase) {
      // Case-insensitive matching folds non-ASCII letters in ways the filter's ASCII folding does not.
      if (code >= 128 && c.toLowerCase() !== c.toUpperCase()) return OPAQUE;
      if (this.options.unicode && /[sk]/i.test(c)) return OPAQUE;
    }
    return { kind: 'char', char: c };
  }

  private quantifier(): Quantifier {
    const c = this.source[this.at];
    let q: Quantifier | undefined;
    if (c === '*') q = { min: 0, max: Infinity };
    else if (c === '+') q = { min: 1, max: Infinity };
    else if (c === '?') q = { min: 0, max: 1 };
    if (q) this.at++;
    else if (c === '{') {
      // Only a well-formed `{n}`, `{n,}` or `{n,m}` is a quantifier; any other `{` is a literal character.
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
      if (m) {
        const min = Number(m[1]);
        q = { min, max: m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]) };
        this.at += m[0].length;
      }
    }
    if (!q) return { min: 1, max: 1 };
    if (this.source[this.at] === '?') this.at++;
    // A run repeated many times adds nothing a filter needs.
    return { min: Math.min(q.min, 3), max: q.max };
  }
}

/**
 * The literals a match of `source` (a JavaScript regular expression that compiles) must contain. Folded to
 * lower case for ASCII letters, as the trigram filter holds them.
 */
export function requiredLiterals(source: string, options: LiteralOptions): LiteralQuery {
  try {
    return foldQuery(new Parser(source, options).parse());
  } catch (error) {
    if (error instanceof Unmodelled) return ANY;
    throw error;
  }
}

function foldQuery(query: LiteralQuery): LiteralQuery {
  switch (query.kind) {
    case 'any':
      return query;
    case 'literal':
      return { kind: 'literal', text: query.text.replace(/[A-Z]/g, (c) => c.toLowerCase()) };
    case 'and':
      return and(query.parts.map(foldQuery));
    case 'or':
      return or(query.parts.map(foldQuery));
  }
}

/** Replaces the literals `drop` accepts by `any` (a looser tree, never a stricter one). */
export function withoutLiterals(query: LiteralQuery, drop: (text: string) => boolean): LiteralQuery {
  switch (query.kind) {
    case 'any':
      return query;
    case 'literal':
      return drop(query.text) ? ANY : query;
    case 'and':
      return and(query.parts.map((p) => withoutLiterals(p, drop)));
    case 'or':
      return or(query.parts.map((p) => withoutLiterals(p, drop)));
  }
}
