/**
 * Helpers shared by the Go, Rust and C/C++ extractors: body line ranges, signatures cut at the body, escape
 * decoding for C-family string literals, and the URL template model the Go and Rust HTTP-call recognisers
 * both build (`fmt.Sprintf`/`format!`/concatenation).
 */
import type { Node } from 'web-tree-sitter';
import type { Confidence } from '../../facts.js';
import { endLineOf, joinHttpPath, oneLine, splitUrl, startLineOf } from './tree-utils.js';

/**
 * The lines `include_body: false` replaces: those strictly inside the braces, so that the signature line
 * (which holds the `{`) and the closing brace stay visible. A body on one or two lines has nothing inside
 * and yields no range.
 */
export function bodyLines(body: Node): { bodyStartLine?: number; bodyEndLine?: number } {
  const first = startLineOf(body) + 1;
  const last = endLineOf(body) - 1;
  return last >= first ? { bodyStartLine: first, bodyEndLine: last } : {};
}

/** The declaration text from `node` up to (not including) `stop`, on one line, e.g. `func (s *S) M(x int) error`. */
export function signatureBefore(source: string, node: Node, stop: Node | null | undefined): string {
  const end = stop === null || stop === undefined ? node.endIndex : stop.startIndex;
  // A trailing comma in a wrapped parameter list reads `(a, b,)` once on one line.
  return oneLine(source.slice(node.startIndex, end))
    .replace(/\s*[{;]$/, '')
    .replace(/,\)/g, ')');
}

/** First line of a declaration, with ` …` when it continues (a multi-line initialiser is not a signature). */
export function firstLineOf(source: string, node: Node): string {
  const text = source.slice(node.startIndex, node.endIndex);
  const newline = text.indexOf('\n');
  return newline < 0 ? oneLine(text).replace(/;$/, '') : `${text.slice(0, newline).trim()} …`;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '0': '\0',
  '\\': '\\',
  '"': '"',
  "'": "'",
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
};

/** Decodes backslash escapes of a C-family literal body (Go, Rust, C). Unknown escapes stay as written. */
export function decodeEscapes(body: string): string {
  if (!body.includes('\\')) return body;
  return body.replace(
    /\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|.)/g,
    (all, esc: string) => {
      const simple = SIMPLE_ESCAPES[esc];
      if (simple !== undefined) return simple;
      const hex = /^(?:u\{([0-9a-fA-F]+)\}|[uUx]([0-9a-fA-F]+))$/.exec(esc);
      const code = hex === null ? undefined : Number.parseInt(hex[1] ?? hex[2] ?? '', 16);
      return code === undefined || code > 0x10ffff ? all : String.fromCodePoint(code);
    },
  );
}

/** A URL as the program builds it: literal text and placeholders, in order. */
export type UrlPart =
  | { readonly kind: 'text'; readonly text: string }
  /** A value the extractor could not read: the parameter name it becomes, or `base` info for a leading part. */
  | { readonly kind: 'hole'; readonly name: string; readonly base?: string };

export interface HttpTarget {
  readonly path: string;
  readonly base?: string;
  /** True when every part of the URL was read from the source (literals, resolved constants, env names). */
  readonly resolved: boolean;
}

/**
 * Turns URL parts into a call target. A leading hole is the base (`env:X`, a resolved literal or unknown);
 * later holes become `{name}` path parameters. Nothing is returned when no literal path text exists: a
 * call to a bare variable URL says nothing about the path.
 */
export function httpTargetOf(parts: readonly UrlPart[]): HttpTarget | undefined {
  let base: string | undefined;
  let resolved = true;
  let rest = parts;
  const first = parts[0];
  if (first?.kind === 'hole') {
    base = first.base;
    if (base === undefined) resolved = false;
    rest = parts.slice(1);
  }
  let text = '';
  let hasLiteral = false;
  for (const part of rest) {
    if (part.kind === 'text') {
      text += part.text;
      if (part.text.trim() !== '') hasLiteral = true;
    } else {
      text += `{${part.name}}`;
    }
  }
  if (!hasLiteral) return undefined;
  if (base === undefined && first?.kind === 'text') {
    const split = splitUrl(text);
    if (split.base !== undefined) return { path: split.path, base: split.base, resolved };
    return text.trimStart().startsWith('/') ? { path: split.path, resolved } : undefined;
  }
  if (base !== undefined && /^[a-z][a-z0-9+.-]*:\/\//i.test(base)) {
    // A resolved literal base may carry a path prefix (`http://billing:8080/api`).
    const split = splitUrl(base);
    return { path: joinHttpPath(split.path, text), base: split.base ?? base, resolved };
  }
  return { path: joinHttpPath(text), ...(base === undefined ? {} : { base }), resolved };
}

/** The confidence of an HTTP call fact: exact only when the method and every URL part were read. */
export function httpCallConfidence(methodKnown: boolean, target: HttpTarget): Confidence {
  return methodKnown && target.resolved ? 'exact' : 'heuristic';
}

/** Parameter name for a placeholder, e.g. `{sku}`; `param` when the expression has no identifier. */
export function placeholderName(name: string | undefined): string {
  return name === undefined || name === '' ? 'param' : name;
}

/**
 * Doc comment text from raw comment texts: strips `//`, `///`, `//!`, `/** … *\/` and leading `*`, keeps
 * the lines, trims the whole. Empty docs yield undefined.
 */
export function docText(comments: readonly string[]): string | undefined {
  const lines: string[] = [];
  for (const raw of comments) {
    if (raw.startsWith('/*')) {
      const inner = raw.replace(/^\/\*+!?/, '').replace(/\*+\/$/, '');
      for (const line of inner.split(/\r?\n/)) lines.push(line.replace(/^\s*\*(?!\/) ?/, '').trimEnd());
    } else {
      lines.push(raw.replace(/^\/\/[/!]? ?/, '').trimEnd());
    }
  }
  const text = lines.join('\n').trim();
  return text === '' ? undefined : text;
}

/**
 * A URL whose host is an environment read (`"http://" + os.Getenv("CART_HOST") + ":8080/cart"`,
 * `format!("http://{}:{}/x", host, port)`) goes to that variable: the read becomes the leading hole
 * (`env:X` base), the scheme before it and the `:port` after it are dropped, since neither decides which
 * service is called. Other URLs are returned as they are.
 */
export function envHostFirst(parts: readonly UrlPart[]): readonly UrlPart[] {
  const [first] = parts;
  const scheme = first?.kind === 'text' && /^[a-z][a-z0-9+.-]*:\/\/$/i.test(first.text);
  const hostAt = scheme ? 1 : 0;
  const host = parts[hostAt];
  if (host?.kind !== 'hole' || host.base?.startsWith('env:') !== true) return parts;
  const next = parts[hostAt + 1];
  const after = parts.slice(hostAt + 2);
  if (next?.kind !== 'text' || !next.text.startsWith(':')) return [host, ...parts.slice(hostAt + 1)];
  const path = next.text.replace(/^:\d*/, '');
  if (path === '' && after[0] !== undefined && after[0].kind !== 'text') return [host, ...after.slice(1)];
  return [host, { kind: 'text', text: path }, ...after];
}

/** A URL expression as written, for an unresolved call: one line, at most 120 characters. */
export function writtenUrl(node: Node): string {
  const text = oneLine(node.text);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
