/**
 * Python HTTP calls as facts: a method and a URL (resolved into parts by `values.ts`), joined to the base
 * URL a client instance was built with. A URL whose start is a scheme and an environment read
 * (`f"http://{os.environ['CART_HOST']}:8080/cart"`) goes to `env:CART_HOST`; a URL nothing of which is
 * known is still a call, kept with the expression as written (`unresolved`).
 */
import type { Node } from 'web-tree-sitter';
import type { ContractFact } from '../../facts.js';
import { DAPR_CLIENT } from './http-clients.js';
import { slotArgument } from './contracts.js';
import { callArguments, literalString, resolveParts, type ValueScope } from './values.js';
import { DAPR_APP_ID_HEADER } from '../shared/dapr.js';
import { oneLine, urlOf, type Mutable, type Part, type Parts } from '../shared/tree-utils.js';

export type HttpCallFact = Extract<ContractFact, { kind: 'http_call' }>;

/** A URL as the code wrote it, for `unresolved`: one line, at most 120 characters. */
export function urlText(node: Node): string {
  const text = oneLine(node.text);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** Adjacent literals as one, empty ones dropped: `"{}/x".format(a)` starts with an empty literal. */
function mergeLiterals(parts: Parts): Part[] {
  const out: Part[] = [];
  for (const part of parts) {
    const previous = out[out.length - 1];
    if (part.t === 'lit' && part.v === '') continue;
    if (part.t === 'lit' && previous?.t === 'lit') out[out.length - 1] = { t: 'lit', v: previous.v + part.v };
    else out.push(part);
  }
  return out;
}

/**
 * An env read that names the host (`http://` + env + `:port/rest`, or env + `:port/rest`) is the call's
 * base; the scheme and the port never decide which service is called, so both are dropped.
 */
function hostFromEnv(parts: Parts): Parts {
  const merged = mergeLiterals(parts);
  const [first] = merged;
  const scheme = first?.t === 'lit' && /^[a-z][a-z0-9+.-]*:\/\/$/i.test(first.v);
  const hostAt = scheme ? 1 : 0;
  const host = merged[hostAt];
  if (host?.t !== 'env') return merged;
  const next = merged[hostAt + 1];
  const after = merged.slice(hostAt + 2);
  if (next?.t !== 'lit' || !next.v.startsWith(':')) return scheme ? [host, ...merged.slice(2)] : merged;
  const path = next.v.replace(/^:\d*/, '');
  // `:{port}`: the port is an expression of its own, dropped with the `:` before it.
  if (path === '' && after[0] !== undefined && after[0].t !== 'lit') return [host, ...after.slice(1)];
  return [host, { t: 'lit', v: path }, ...after];
}

/** An `http_call` from a verb and a URL (with the client's base when the URL is relative). */
export function httpCallFact(
  verb: string,
  url: Parts,
  base: Parts | undefined,
  via: string,
  line: number,
  written: string,
): HttpCallFact {
  const resolved = urlOf(hostFromEnv(url), base === undefined ? undefined : hostFromEnv(base));
  const fact: Mutable<HttpCallFact> = {
    kind: 'http_call',
    method: verb,
    path: resolved?.path ?? '/',
    line,
    confidence: resolved?.exact === true && verb !== 'ANY' ? 'exact' : 'heuristic',
    via,
  };
  if (resolved === undefined) {
    // Nothing of the URL is known (a parameter, a call): the client's base may still be.
    const clientBase = base === undefined ? undefined : urlOf(hostFromEnv(base));
    if (clientBase?.base !== undefined) fact.base = clientBase.base;
    if (clientBase !== undefined && clientBase.path !== '/') fact.path = clientBase.path;
    fact.unresolved = written;
  } else if (resolved.base !== undefined) {
    fact.base = resolved.base;
  }
  return fact;
}

/** `headers={"dapr-app-id": "orders"}`: Dapr routes a call to its sidecar by this header to that app. */
export function daprAppIdHeader(args: Node | null, values: ValueScope): string | undefined {
  const headers = callArguments(args).keywords.get('headers');
  if (headers?.type !== 'dictionary') return undefined;
  for (const pair of headers.namedChildren) {
    if (pair?.type !== 'pair') continue;
    const key = literalString(pair.childForFieldName('key'));
    const value = pair.childForFieldName('value');
    if (key?.toLowerCase() !== DAPR_APP_ID_HEADER || value === null) continue;
    const parts = resolveParts(value, values);
    const app = parts.length === 1 && parts[0]?.t === 'lit' ? parts[0].v : undefined;
    return app === undefined || app === '' ? undefined : app;
  }
  return undefined;
}

/** The base of a call sent to the Dapr sidecar with a `dapr-app-id` header: the app, not the sidecar. */
export function withAppId(fact: HttpCallFact, app: string | undefined): HttpCallFact {
  return app === undefined ? fact : { ...fact, base: `service:${app}` };
}

/** What `invoke_method(app_id, method_name, data, …, http_verb=…)` captures, before the receiver is known. */
export interface DaprInvocation {
  readonly app: Parts;
  readonly method: Parts;
  readonly verb: string;
  readonly written: string;
}

/** The arguments of a Dapr SDK `invoke_method` call; undefined for another method or a missing argument. */
export function daprInvocation(
  method: string,
  args: Node | null,
  values: ValueScope,
): DaprInvocation | undefined {
  if (!DAPR_CLIENT.methods.some((name) => name === method)) return undefined;
  const { positional, keywords } = callArguments(args);
  const app = slotArgument(DAPR_CLIENT.appId, positional, keywords) ?? keywords.get(DAPR_CLIENT.legacyAppId);
  const name =
    slotArgument(DAPR_CLIENT.methodName, positional, keywords) ?? keywords.get(DAPR_CLIENT.legacyMethodName);
  if (app === undefined || name === undefined) return undefined;
  const written = literalString(slotArgument(DAPR_CLIENT.verb, positional, keywords))?.toUpperCase();
  const body = slotArgument(DAPR_CLIENT.body, positional, keywords);
  // Without `http_verb` the SDK sends a GET, or a POST when it carries data.
  const verb = written ?? (body === undefined || body.type === 'none' ? 'GET' : 'POST');
  return {
    app: resolveParts(app, values),
    method: resolveParts(name, values),
    verb,
    written: urlText(name),
  };
}

/** The call a Dapr invocation makes: to the app (`service:<app-id>`) at `/<method_name>`. */
export function daprCallFact(invocation: DaprInvocation, line: number): HttpCallFact {
  const named = invocation.method.some((part) => part.t === 'lit');
  const path: Parts = named ? [{ t: 'lit', v: '/' }, ...invocation.method] : invocation.method;
  const fact = httpCallFact(invocation.verb, path, undefined, 'dapr invoke_method', line, invocation.written);
  const app = invocation.app.length === 1 && invocation.app[0]?.t === 'lit' ? invocation.app[0].v : undefined;
  return app === undefined ? fact : { ...fact, base: `service:${app}` };
}
