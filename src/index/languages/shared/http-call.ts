/**
 * The one way the C#, PHP, Ruby and Elixir extractors turn a client call into an `http_call` fact: the URL's
 * parts are joined to the client's base, and a URL that is not a literal template is kept with the
 * expression as written (`unresolved`) instead of being dropped, so that the graph can list it.
 */
import type { ContractFact } from '../../facts.js';
import { oneLine, urlOf, type Mutable, type Parts } from './tree-utils.js';

/** What an extractor knows about one client call. */
export interface HttpCallSite {
  readonly method: string;
  /** The URL argument resolved into parts; absent when the call gives no URL (the client's base alone). */
  readonly url?: Parts;
  /** The base of the client instance the call is made on, when the file configures one. */
  readonly clientBase?: Parts;
  /** The URL expression as written, reported when the URL is not a literal template. */
  readonly expression: string;
  readonly line: number;
  /** True when the receiver is known to be a client of the library (not guessed from its name). */
  readonly proven: boolean;
  readonly via: string;
}

/** `unresolved` is one line of at most this many characters. */
const MAX_EXPRESSION = 120;

export type HttpCallFact = Mutable<ContractFact & { kind: 'http_call' }>;

/** The fact of a client call; a URL that cannot be read becomes an unresolved call on the part known. */
export function httpCallFact(site: HttpCallSite): HttpCallFact {
  const resolved = site.url === undefined ? urlOf(site.clientBase) : urlOf(site.url, site.clientBase);
  const fallback = resolved === undefined && site.url !== undefined ? urlOf(site.clientBase) : undefined;
  const known = resolved ?? fallback;
  const exact = resolved?.exact === true;
  const fact: HttpCallFact = {
    kind: 'http_call',
    method: site.method,
    path: known?.path ?? '/',
    line: site.line,
    confidence: exact && site.proven ? 'exact' : 'heuristic',
    via: site.via,
  };
  if (known?.base !== undefined) fact.base = known.base;
  if (!exact) {
    const text = oneLine(site.expression);
    fact.unresolved = text.length > MAX_EXPRESSION ? `${text.slice(0, MAX_EXPRESSION - 1)}…` : text;
  }
  return fact;
}
