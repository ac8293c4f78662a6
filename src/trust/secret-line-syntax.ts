/**
 * The pieces of one line that secret masking reads: string literals, the key before an assignment-like
 * operator, the operator itself and where a code expression ends. Purely lexical, so it works the same on
 * source code and config text.
 */
import { TYPE_NAMES } from './secret-values.js';

const IDENTIFIER_CHAR = /[\p{L}\p{N}_$@.-]/u;

export interface Span {
  readonly start: number;
  /** Exclusive; the closing quote is inside unless the literal runs off the line. */
  readonly end: number;
  readonly closed: boolean;
}

/** The string literals of one line, looked up by where they start or end (a long line holds thousands). */
export class StringSpans {
  private readonly byStart = new Map<number, Span>();
  private readonly closedByEnd = new Map<number, Span>();

  constructor(readonly list: readonly Span[]) {
    for (const span of list) {
      this.byStart.set(span.start, span);
      if (span.closed) this.closedByEnd.set(span.end, span);
    }
  }

  startingAt(start: number): Span | undefined {
    return this.byStart.get(start);
  }

  closedEndingAt(end: number): Span | undefined {
    return this.closedByEnd.get(end);
  }

  /** Closed literals lying between `from` and `to`, in order. */
  closedWithin(from: number, to: number): Span[] {
    let low = 0;
    let high = this.list.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((this.list[mid]?.start ?? 0) < from) low = mid + 1;
      else high = mid;
    }
    const found: Span[] = [];
    for (let i = low; i < this.list.length; i++) {
      const span = this.list[i] as Span;
      if (span.end > to) break;
      if (span.closed) found.push(span);
    }
    return found;
  }
}

/** String literals on one line. An apostrophe between letters (`don't`) is prose, not a quote. */
export function stringSpans(line: string): StringSpans {
  const spans: Span[] = [];
  for (let i = 0; i < line.length; i++) {
    const quote = line[i];
    if (quote !== '"' && quote !== "'" && quote !== '`') continue;
    if (quote === "'" && /\p{L}/u.test(line[i - 1] ?? '') && /\p{L}/u.test(line[i + 1] ?? '')) continue;
    let j = i + 1;
    while (j < line.length && line[j] !== quote) j += line[j] === '\\' ? 2 : 1;
    spans.push({ start: i, end: Math.min(j + 1, line.length), closed: j < line.length });
    i = j;
  }
  return new StringSpans(spans);
}

export interface KeyAt {
  readonly key: string;
  readonly start: number;
  /** `password!: string`, `token?: string`: a declaration. */
  readonly declared: boolean;
}

export function keyBefore(line: string, opStart: number, spans: StringSpans): KeyAt | undefined {
  let j = opStart - 1;
  while (j >= 0 && /\s/.test(line[j] ?? '')) j--;
  if (j < 0) return undefined;
  const bracketed = line[j] === ']' ? spans.closedEndingAt(j) : undefined;
  const quoted = bracketed ?? spans.closedEndingAt(j + 1);
  if (quoted) {
    const key = line.slice(quoted.start + 1, quoted.end - 1);
    return { key, start: bracketed ? quoted.start - 1 : quoted.start, declared: false };
  }
  let end = j + 1;
  let declared = false;
  while (j >= 0 && (line[j] === '?' || line[j] === '!')) {
    declared = true;
    end = --j + 1;
  }
  while (j >= 0 && IDENTIFIER_CHAR.test(line[j] ?? '')) j--;
  const key = line.slice(j + 1, end);
  if (!/\p{L}/u.test(key)) return undefined;
  // `var password string = "…"`: the name is the word before the type.
  if (TYPE_NAMES.has(key) && /\s/.test(line[j] ?? '')) {
    const name = keyBefore(line, j + 1, spans);
    if (name && !TYPE_NAMES.has(name.key)) return name;
  }
  return { key, start: j + 1, declared };
}

/** `=` that is neither `==`, `=>`, `!=`, `<=` nor `>=`. */
const isBareEquals = (line: string, i: number): boolean =>
  line[i] === '=' && !'=>'.includes(line[i + 1] ?? '>') && !'=!<>'.includes(line[i - 1] ?? '=');

/** Where a code expression ends: the first `,` `;` or unbalanced closing bracket outside strings. */
export function expressionEnd(line: string, from: number, spans: StringSpans, stopAtAssign = false): number {
  let depth = 0;
  for (let i = from; i < line.length; i++) {
    const span = spans.startingAt(i);
    if (span) {
      i = span.end - 1;
      continue;
    }
    const c = line[i];
    if (c === '(' || c === '[' || c === '{' || c === '<') depth++;
    else if (c === ')' || c === ']' || c === '}' || (c === '>' && line[i - 1] !== '=')) {
      if (depth === 0) return i;
      depth--;
    } else if (depth === 0 && (c === ',' || c === ';')) return i;
    else if (stopAtAssign && depth === 0 && isBareEquals(line, i)) return -i - 1;
  }
  return line.length;
}

type Operator = { readonly start: number; readonly end: number; readonly op: string };

/** The next assignment-like operator at or after `from`, outside string literals. */
export function nextOperator(line: string, from: number, spans: StringSpans): Operator | undefined {
  for (let i = from; i < line.length; i++) {
    const span = spans.startingAt(i);
    if (span) {
      i = span.end - 1;
      continue;
    }
    const c = line[i];
    const next = line[i + 1];
    const prev = line[i - 1] ?? '';
    if (c === ':') {
      if (next === ':' || prev === ':' || (next === '/' && line[i + 2] === '/')) continue;
      if (next === '=') return { start: i, end: i + 2, op: ':=' };
      return { start: i, end: i + 1, op: ':' };
    }
    if (c === '=') {
      if (next === '=' || '!<>=+-*/%&|^~:'.includes(prev)) {
        while (line[i + 1] === '=') i++;
        continue;
      }
      if (next === '>') return { start: i, end: i + 2, op: '=>' };
      if (prev === '?') {
        if (line[i - 2] === '?') continue;
        return { start: i - 1, end: i + 1, op: '?=' };
      }
      return { start: i, end: i + 1, op: '=' };
    }
  }
  return undefined;
}
