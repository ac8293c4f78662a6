/**
 * HTTP paths and URLs for the JVM extractors: route/call path normalisation and the split of a URL
 * expression into a base (literal host, Spring placeholder, `env:NAME`) and a path with `{param}`s.
 */

/**
 * Normalises a route or call path: leading `/`, no trailing `/` (except the root), no doubled `/`, parameters
 * as `{name}` (`{id:[0-9]+}`, `{id?}`, `{path...}` → `{id}`/`{path}`). Spring placeholders `${…}` stay intact.
 */
export function normalizePath(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (ch === '$' && raw[i + 1] === '{') {
      const end = closingBrace(raw, i + 1);
      out += raw.slice(i, end + 1);
      i = end;
    } else if (ch === '{') {
      const end = closingBrace(raw, i);
      const inner = raw.slice(i + 1, end);
      const name = /^\s*([A-Za-z_$][\w$-]*)/.exec(inner)?.[1] ?? inner.trim();
      out += `{${name}}`;
      i = end;
    } else {
      out += ch;
    }
  }
  out = out.trim().replace(/\/{2,}/g, '/');
  if (!out.startsWith('/')) out = `/${out}`;
  if (out.length > 1 && out.endsWith('/')) out = out.slice(0, -1);
  return out;
}

function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return text.length - 1;
}

export function joinPaths(prefix: string, path: string): string {
  if (prefix === '' || prefix === '/') return normalizePath(path);
  if (path === '' || path === '/') return normalizePath(prefix);
  return normalizePath(`${prefix}/${path}`);
}

/** A piece of a URL expression: literal text, a resolved base (`${billing.url}`, `env:X`), or a parameter. */
export type UrlPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'base'; readonly base: string }
  | { readonly kind: 'param'; readonly name: string };

export interface UrlTarget {
  readonly base?: string;
  readonly path: string;
  /** Some part of the target was guessed (a parameter name, an unknown base). */
  readonly inferred: boolean;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const PLACEHOLDER = /^\$\{[^}]*\}/;

/**
 * Splits a URL expression into base and path. A leading literal `http://host:port` or a leading resolved
 * base becomes `base`; a leading unknown variable is dropped (its value is not known) and marks the target
 * inferred; the query string is not part of the path. Undefined when nothing path-like remains.
 */
export function urlTarget(parts: readonly UrlPart[], inheritedBase?: string): UrlTarget | undefined {
  const merged: UrlPart[] = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    if (part.kind === 'text' && last?.kind === 'text')
      merged[merged.length - 1] = { kind: 'text', text: last.text + part.text };
    else merged.push(part);
  }
  let base = inheritedBase;
  let inferred = false;
  const first = merged[0];
  if (first?.kind === 'base') {
    base = first.base;
    merged.shift();
  } else if (first?.kind === 'param') {
    // `baseUrl + "/x"` with `baseUrl` unknown: the variable is the host, not a path segment.
    if (merged.length === 1) return undefined;
    inferred = true;
    base = undefined;
    merged.shift();
  } else if (first?.kind === 'text') {
    const placeholder = PLACEHOLDER.exec(first.text);
    const scheme = SCHEME.exec(first.text);
    if (placeholder !== null) {
      base = placeholder[0];
      merged[0] = { kind: 'text', text: first.text.slice(placeholder[0].length) };
    } else if (scheme !== null) {
      const slash = first.text.indexOf('/', scheme[0].length);
      if (slash === -1 && merged.length > 1) {
        // `"http://" + host + "/x"`: the host is not known.
        inferred = true;
        base = undefined;
        merged.shift();
        while (merged[0] !== undefined && !(merged[0].kind === 'text' && merged[0].text.includes('/')))
          merged.shift();
        const next = merged[0];
        if (next?.kind === 'text')
          merged[0] = { kind: 'text', text: next.text.slice(next.text.indexOf('/')) };
      } else {
        base = slash === -1 ? first.text : first.text.slice(0, slash);
        merged[0] = { kind: 'text', text: slash === -1 ? '' : first.text.slice(slash) };
      }
    }
  }
  let path = '';
  // The query string and fragment are not part of the path: parameters after `?` do not make it inferred.
  for (const part of merged) {
    if (part.kind === 'text') {
      const query = part.text.search(/[?#]/);
      if (query !== -1) {
        path += part.text.slice(0, query);
        break;
      }
      path += part.text;
    } else {
      inferred = true;
      path += `{${part.kind === 'param' ? part.name : 'param'}}`;
    }
  }
  return { ...(base === undefined ? {} : { base }), path: normalizePath(path), inferred };
}

/** `{param}` name for an expression: its last identifier, `getId` read as `id`. */
export function paramName(expressionText: string): string {
  const identifiers = expressionText.match(/[A-Za-z_$][\w$]*/g) ?? [];
  let name = identifiers[identifiers.length - 1] ?? 'param';
  if (/^(?:get|is)[A-Z]/.test(name)) name = name.replace(/^(?:get|is)/, '');
  if (name === 'get' || name === 'toString' || name === '') return 'param';
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** RestTemplate method → HTTP method; `exchange` takes its method from an argument. */
export const REST_TEMPLATE_METHODS: Readonly<Record<string, string>> = {
  getForObject: 'GET',
  getForEntity: 'GET',
  postForObject: 'POST',
  postForEntity: 'POST',
  postForLocation: 'POST',
  put: 'PUT',
  delete: 'DELETE',
  patchForObject: 'PATCH',
  headForHeaders: 'HEAD',
  optionsForAllow: 'OPTIONS',
  exchange: '',
};

/** Request-builder verbs of WebClient / RestClient (`client.get().uri(…)`). */
export const CLIENT_VERBS: ReadonlySet<string> = new Set([
  'get',
  'post',
  'put',
  'delete',
  'patch',
  'head',
  'options',
]);
