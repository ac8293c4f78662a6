/**
 * HTTP paths and URLs for the JVM extractors: route/call path normalisation, the split of a URL expression
 * into a base (literal host, Spring placeholder, `env:NAME`) and a path with `{param}`s, and the Spring
 * client rules (RestTemplate, WebClient / RestClient chains) that Java and Kotlin read from their own trees.
 */
import type { Node } from 'web-tree-sitter';
import type { ContractFact } from '../../../facts.js';
import { annotationArg, type AnnotationInfo, findAnnotation } from './annotations.js';
import { joinPaths, normalizePath } from './route-paths.js';
import { REQUEST_CLIENTS } from './http-clients.js';
import { oneLine } from '../tree-utils.js';

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
      path += `{${part.kind === 'param' ? part.name : ''}}`;
    }
  }
  return { ...(base === undefined ? {} : { base }), path: normalizePath(path), inferred };
}

/**
 * `{name}` for an expression: its last identifier, `getId` read as `id`; `''` (an unnamed `{}`) when no
 * identifier names it.
 */
export function paramName(expressionText: string): string {
  const identifiers = expressionText.match(/[A-Za-z_$][\w$]*/g) ?? [];
  let name = identifiers[identifiers.length - 1] ?? '';
  if (/^(?:get|is)[A-Z]/.test(name)) name = name.replace(/^(?:get|is)/, '');
  if (name === 'get' || name === 'toString' || name === '') return '';
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** A WebClient / RestClient receiver. */
export interface RequestClient {
  /** Its type is known to be a client type, not only guessed from its name. */
  readonly proven: boolean;
  readonly via: string;
  /** The URL parts of the base the client was built with, when that is traceable. */
  readonly base: (() => UrlPart[]) | undefined;
}

/**
 * Whether a receiver is a request client: by its type when the type is known (then only the client types
 * count, whatever the name), otherwise by a name ending in `webClient` / `restClient`.
 */
export function requestClientKind(
  type: string | undefined,
  name: string,
): Omit<RequestClient, 'base'> | undefined {
  if (type !== undefined) {
    const simple = type.slice(type.lastIndexOf('.') + 1);
    return REQUEST_CLIENTS.has(simple) ? { proven: true, via: simple } : undefined;
  }
  if (!/(?:webclient|restclient)$/i.test(name)) return undefined;
  return { proven: false, via: /restclient$/i.test(name) ? 'RestClient' : 'WebClient' };
}

/** The values a URL expression may take: one list of parts per alternative (an `if`/`else` assigning two URLs). */
export type UrlAlternatives = readonly (readonly UrlPart[])[];

/** Everything known about one request, for {@link httpCallFacts}. */
export interface HttpCallInput {
  readonly method: string;
  readonly urls: UrlAlternatives;
  /** The URL expression as written: kept (`unresolved`) when no path can be read from it. */
  readonly written: string;
  /** The base a configured client adds (its `baseUrl`), or a declared target (`service:app`). */
  readonly clientBase?: UrlTarget;
  readonly symbol: number | undefined;
  readonly line: number;
  /** The receiver's type is known to be the client's (not only guessed from its name). */
  readonly proven: boolean;
  readonly via: string;
}

const MAX_WRITTEN = 120;

/**
 * One `http_call` per distinct target the URL may take. A call whose URL cannot be read at all is kept with
 * the expression as written and the known part (the client's base path, else `/`) as its path; a URL that
 * names its own host ignores the client's base.
 */
export function httpCallFacts(input: HttpCallInput): ContractFact[] {
  const facts: ContractFact[] = [];
  const seen = new Set<string>();
  const { clientBase } = input;
  for (const parts of input.urls) {
    const target = urlTarget(parts);
    const own = target?.base !== undefined;
    const fact: ContractFact = {
      kind: 'http_call',
      method: input.method,
      path:
        target === undefined
          ? (clientBase?.path ?? '/')
          : clientBase === undefined || own
            ? target.path
            : joinPaths(clientBase.path, target.path),
      base: own ? target.base : clientBase?.base,
      ...(target === undefined ? { unresolved: writtenUrl(input.written) } : {}),
      symbol: input.symbol,
      line: input.line,
      confidence:
        input.proven && target !== undefined && !target.inferred && !(clientBase?.inferred ?? false)
          ? 'exact'
          : 'heuristic',
      via: input.via,
    };
    const key = JSON.stringify(fact);
    if (seen.has(key)) continue;
    seen.add(key);
    facts.push(fact);
  }
  return facts;
}

function writtenUrl(text: string): string {
  const line = oneLine(text);
  return line.length > MAX_WRITTEN ? `${line.slice(0, MAX_WRITTEN - 1)}…` : line;
}

/** The most alternatives a URL is followed into: beyond, it stands as one unknown value. */
export const MAX_ALTERNATIVES = 4;

/** Every combination of the alternatives of consecutive pieces (`a + b`), `undefined` beyond the limit. */
export function concatAlternatives(pieces: readonly UrlAlternatives[]): UrlPart[][] | undefined {
  let out: UrlPart[][] = [[]];
  for (const piece of pieces) {
    const next: UrlPart[][] = [];
    for (const prefix of out) for (const alternative of piece) next.push([...prefix, ...alternative]);
    if (next.length > MAX_ALTERNATIVES) return undefined;
    out = next;
  }
  return out;
}

/**
 * The values a variable's assignments give, an empty string or `null` written only to be overwritten left
 * out (`String url = ""; if (…) url = A; else url = B;`); undefined beyond the limit.
 */
export function unionAlternatives(values: readonly UrlAlternatives[]): UrlPart[][] | undefined {
  const meaningful = values.filter((value) => !value.every(isEmptyValue));
  const kept = meaningful.length > 0 ? meaningful : values;
  const out: UrlPart[][] = [];
  const seen = new Set<string>();
  for (const value of kept) {
    for (const alternative of value) {
      const key = JSON.stringify(alternative);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push([...alternative]);
    }
  }
  return out.length > MAX_ALTERNATIVES ? undefined : out;
}

const isEmptyValue = (parts: readonly UrlPart[]): boolean =>
  parts.length === 0 || parts.every((part) => part.kind === 'text' && part.text === '');

/** A variable's initialiser and later assignments, each with the scope it was written in. */
interface Assigned<S> {
  readonly init: Node | undefined;
  /** Set for fields (their symbol), unset for locals and parameters. */
  readonly symbol?: number;
  readonly assigned: readonly { readonly node: Node; readonly scope: S }[];
}

function valuesOf<S>(variable: Assigned<S>, scope: S): { node: Node; scope: S }[] {
  return [...(variable.init === undefined ? [] : [{ node: variable.init, scope }]), ...variable.assigned];
}

/**
 * The first thing `find` reads from a variable's values, its initialiser first, then its assignments in
 * order: the base URL of a client field assigned `builder.baseUrl(url).build()` in a constructor.
 */
export function firstOfValues<S, T>(
  variable: Assigned<S>,
  scope: S,
  find: (value: Node, scope: S) => T | undefined,
): T | undefined {
  for (const value of valuesOf(variable, scope)) {
    const found = find(value.node, value.scope);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The URL parts a variable holds: its `@Value("${…}")` placeholder, kept verbatim as a base for the
 * configuration to resolve, else the values it is given (`this.baseUrl = baseUrl` from a `@Value`
 * constructor parameter; one per branch of an `if`), read by `read`. A field's initialiser is read without
 * the locals of the body that uses the field. Undefined when neither is known.
 */
export function variableUrl<S extends { readonly vars: ReadonlyMap<string, unknown> }>(
  variable: Assigned<S> & { readonly annotations: readonly AnnotationInfo[] },
  scope: S,
  placeholder: (key: Node) => string | undefined,
  read: (value: Node, scope: S) => UrlAlternatives,
): UrlAlternatives | undefined {
  const annotation = findAnnotation(variable.annotations, 'Value');
  const key = annotation === undefined ? undefined : annotationArg(annotation, [undefined, 'value']);
  const text = key === undefined ? undefined : placeholder(key);
  if (text !== undefined) return [[{ kind: 'text', text }]];
  const values = valuesOf(variable, scope);
  if (values.length === 0) return undefined;
  const field = variable.init !== undefined && variable.symbol !== undefined;
  const read1 = (value: { node: Node; scope: S }, index: number): UrlAlternatives =>
    read(value.node, field && index === 0 ? { ...scope, vars: new Map() } : value.scope);
  return unionAlternatives(values.map(read1));
}
