/**
 * Small helpers shared by the tree-sitter extractors: line numbers, signature text, and the HTTP path
 * normalisation every language must agree on (a route written `/x/<int:id>` in Flask and a call to
 * `/x/${id}` in TypeScript have to meet on the same `/x/{id}` key).
 */
import type { Node } from 'web-tree-sitter';
import type { SymbolFact, SymbolKind } from '../../facts.js';

/** A fact under construction: extractors fill optional fields after creating it. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A declaration at `node`, before the fact builder gives it an id: qualified by its enclosing scope
 * (`Scope.name`), spanning the node's lines.
 */
export function declarationAt(
  node: Node,
  kind: SymbolKind,
  name: string,
  scope: string | undefined,
  signature: string,
): Omit<Mutable<SymbolFact>, 'id'> {
  return {
    kind,
    name,
    qualifiedName: scope === undefined ? name : `${scope}.${name}`,
    signature,
    startLine: startLineOf(node),
    endLine: endLineOf(node),
  };
}

/** 1-based line of the node's first character (tree-sitter rows are 0-based). */
export function startLineOf(node: Node): number {
  return node.startPosition.row + 1;
}

/**
 * 1-based line of the node's last character. A node that ends at column 0 stops at the newline before it
 * (some grammars let a block swallow the final line break), so that line is the last one.
 */
export function endLineOf(node: Node): number {
  const { row, column } = node.endPosition;
  return column === 0 && row > node.startPosition.row ? row : row + 1;
}

/**
 * The `#` comment lines that end right above line `below`, walking back from `first` with `previous`, as one
 * docstring (each line without its `#` and one following space); undefined when there is none.
 */
export function hashCommentDoc(
  first: Node | null,
  below: number,
  previous: (node: Node) => Node | null,
): string | undefined {
  const lines: string[] = [];
  let expected = below - 1;
  for (let comment = first; comment?.type === 'comment'; comment = previous(comment)) {
    if (endLineOf(comment) !== expected || !comment.text.startsWith('#')) break;
    lines.unshift(comment.text.replace(/^#\s?/, '').trimEnd());
    expected = startLineOf(comment) - 1;
  }
  const text = lines.join('\n').trim();
  return text === '' ? undefined : text;
}

/**
 * Declaration text on one line: a line break and the whitespace around it become one space, or nothing just
 * inside a bracket, so that a wrapped parameter list reads as it would on one line. `tight` spacing (the
 * default) also drops one space written just inside a bracket (`f( a )` → `f(a)`); `as-written` keeps each
 * line's own spacing, as the JVM extractors show signatures and annotations.
 */
export function oneLine(text: string, spacing: 'tight' | 'as-written' = 'tight'): string {
  // Most texts are one line already, and a tight text without a space has no bracket spacing to drop:
  // skipping the replacements they would not change saves a regex pass each (this runs per call site).
  const joined = text.includes('\n')
    ? text
        .replace(/([([{])\s*\n\s*/g, '$1')
        .replace(/\s*\n\s*([)\]}])/g, '$1')
        .replace(/\s*\n\s*/g, ' ')
        .trim()
    : text.trim();
  if (spacing !== 'tight' || !joined.includes(' ')) return joined;
  return joined.replace(/([([{]) /g, '$1').replace(/ ([)\]}])/g, '$1');
}

/**
 * Normalises an HTTP path: leading `/`, no trailing `/` (except the root), no query or fragment, and every
 * parameter spelling written `{name}`: `:id`, `<id>`, `<int:id>`, `{id:int}`, `{id?}`, `[id]`, `[...id]`.
 */
export function normalizeHttpPath(raw: string): string {
  let path = raw.trim();
  // A `?` inside braces is an optional parameter (`{id?}`), not the start of a query string.
  let depth = 0;
  for (let index = 0; index < path.length; index++) {
    const char = path[index];
    if (char === '{') depth++;
    else if (char === '}') depth = Math.max(0, depth - 1);
    else if ((char === '?' || char === '#') && depth === 0) {
      path = path.slice(0, index);
      break;
    }
  }
  path = path
    // Flask/Werkzeug converters `<int:id>`, `<path:rest>`, and bare `<id>`.
    .replace(/<(?:[A-Za-z_][\w]*(?:\([^)]*\))?:)?([A-Za-z_]\w*)>/g, '{$1}')
    // ASP.NET/FastAPI/Laravel constraints and optionals: `{id:int}`, `{*rest}`, `{id?}`, `{file_path:path}`.
    .replace(/\{\*{0,2}([A-Za-z_]\w*)(?:[:=?][^}]*)?\??\}/g, '{$1}')
    // Express/Rails `:id` at the start of a segment.
    .replace(/(^|\/):([A-Za-z_]\w*)/g, '$1{$2}')
    // Next.js `[id]` and `[...slug]` segments.
    .replace(/\[(?:\.\.\.)?([A-Za-z_]\w*)\]/g, '{$1}')
    // Express's `*` segment (`/job/*`) and Express 5's `*splat`: everything below, a parameter here.
    .replace(
      /(^|\/)\*([A-Za-z_]\w*)?(?=\/|$)/g,
      (_all, lead: string, name?: string) => `${lead}{${name ?? 'wildcard'}}`,
    );
  path = path.replace(/\/{2,}/g, '/');
  if (!path.startsWith('/')) path = `/${path}`;
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path;
}

/** Joins route prefixes and a path (`/api` + `orders/{id}` → `/api/orders/{id}`), then normalises. */
export function joinHttpPath(...parts: readonly string[]): string {
  return normalizeHttpPath(parts.filter((part) => part !== '').join('/'));
}

/** A URL split into the part naming where the call goes and the path on that host. */
export interface SplitUrl {
  /** `http://billing:8080` for an absolute URL; absent for a path alone. */
  readonly base?: string;
  readonly path: string;
}

/** Splits `http://billing:8080/invoices/{id}?x=1` into its scheme+authority and its normalised path. */
export function splitUrl(url: string): SplitUrl {
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(.*)$/i.exec(url.trim());
  if (match === null) return { path: normalizeHttpPath(url) };
  return { base: match[1] ?? '', path: normalizeHttpPath(match[2] ?? '') };
}

/**
 * A value assembled from source expressions, for topics and URLs: literal text, an environment variable
 * read, or an expression that could not be resolved (kept only to name a path placeholder).
 */
export type Part =
  | { readonly t: 'lit'; readonly v: string }
  /** An environment variable read, with its literal default when the code gives one. */
  | { readonly t: 'env'; readonly name: string; readonly fallback?: string }
  /** A configuration property read (`IConfiguration["Orders:Url"]`), with its literal default when given. */
  | { readonly t: 'config'; readonly key: string; readonly fallback?: string }
  /** An unresolved expression, named by its last identifier (a path placeholder, never a topic). */
  | { readonly t: 'expr'; readonly name: string };

export type Parts = readonly Part[];

/**
 * A text that is known before the program runs: literal parts, and env or config reads that give a literal
 * default (a route path `'/' + BINDING`, a prefix `os.getenv('PREFIX', '/api')`); undefined otherwise.
 */
export function literalOf(parts: Parts | undefined): string | undefined {
  if (parts === undefined || parts.length === 0) return undefined;
  let text = '';
  for (const part of parts) {
    if (part.t === 'lit') text += part.v;
    else if (part.t !== 'expr' && part.fallback !== undefined) text += part.fallback;
    else return undefined;
  }
  return text;
}

/** A topic: only a fully literal value, or an env read's literal default. */
export function topicOf(parts: Parts | undefined): string | undefined {
  if (parts === undefined || parts.length === 0) return undefined;
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only?.t === 'env' || only?.t === 'config') return only.fallback;
  let text = '';
  for (const part of parts) {
    if (part.t !== 'lit') return undefined;
    text += part.v;
  }
  return text === '' ? undefined : text;
}

export interface ResolvedUrl {
  readonly base?: string;
  readonly path: string;
  /** False when the start of the URL was an expression that could not be resolved. */
  readonly exact: boolean;
}

/**
 * A URL from parts: an env read in front is the base (`env:X`), a config read `${key}`, an absolute literal is split into scheme
 * and authority, later unresolved parts are `{name}` placeholders. Undefined when nothing of the URL is
 * known (a bare variable).
 */
export function urlOf(parts: Parts | undefined, clientBase?: Parts): ResolvedUrl | undefined {
  if (parts === undefined || parts.length === 0) return undefined;
  if (!parts.some((part) => part.t === 'lit' && part.v !== '')) {
    if (parts.length !== 1 || (parts[0]?.t !== 'env' && parts[0]?.t !== 'config')) return undefined;
  }
  let base: string | undefined;
  let exact = true;
  let rest = parts;
  const first = parts[0];
  if (first?.t === 'env') {
    base = `env:${first.name}`;
    rest = parts.slice(1);
  } else if (first?.t === 'config') {
    base = first.fallback === undefined ? `\${${first.key}}` : `\${${first.key}:${first.fallback}}`;
    rest = parts.slice(1);
  } else if (first?.t === 'expr') {
    exact = false;
    rest = parts.slice(1);
  }
  const text = rest
    .map((part) => (part.t === 'lit' ? part.v : `{${part.t === 'config' ? part.key : part.name}}`))
    .join('');
  if (base === undefined && exact) {
    const split = splitUrl(text);
    if (split.base !== undefined) return { base: split.base, path: split.path, exact };
    const fromClient = clientBase === undefined ? undefined : urlOf(clientBase);
    if (fromClient !== undefined) {
      const joined = normalizeHttpPath(`${fromClient.path}/${split.path}`);
      return fromClient.base === undefined
        ? { path: joined, exact: fromClient.exact }
        : { base: fromClient.base, path: joined, exact: fromClient.exact };
    }
    return { path: split.path, exact };
  }
  const path = normalizeHttpPath(text);
  return base === undefined ? { path, exact } : { base, path, exact };
}
