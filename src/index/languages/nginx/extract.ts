/**
 * nginx as a gateway: each `location` whose block has a `proxy_pass` forwards its prefix to a service, and
 * one that answers itself (`content_by_lua*`, `return 2xx`) is a route of the server (a redirect is not). The
 * target is the `upstream` of that name (its first `server`), else the URL's host; a URI in `proxy_pass`
 * (`proxy_pass http://orders/v1/;`) replaces the location prefix, and a `rewrite ^/api/(.*)$ /$1` in the
 * block rewrites it likewise. `set $name value;` variables are substituted; `${VAR}` placeholders of
 * envsubst templates are kept for the graph to resolve from the proxy's environment.
 */
import type { ContractFact, FileFacts } from '../../facts.js';
import type { ExtractInput } from '../extractor.js';
import { FactBuilder } from '../shared/fact-builder.js';
import { prefixOfPattern, prefixOfRegex, type ProxyFact, rewriteByRegex } from '../shared/gateway-paths.js';
import { type Directive, parseBlocks } from './blocks.js';

/** Upstream name → `host:port` of its first server. */
function upstreams(directives: readonly Directive[], out = new Map<string, string>()): Map<string, string> {
  for (const directive of directives) {
    if (directive.name === 'upstream' && directive.args[0] && directive.block) {
      const server = directive.block.find((d) => d.name === 'server')?.args[0];
      if (server) out.set(directive.args[0], server);
    } else if (directive.block) upstreams(directive.block, out);
  }
  return out;
}

/** `location [= | ^~ | ~ | ~*] path`: the prefix it matches, or undefined for a named location. */
function locationPrefix(args: readonly string[]): string | undefined {
  const [first, second] = args;
  if (first === undefined || first.startsWith('@')) return undefined;
  if (first === '~' || first === '~*') return second === undefined ? undefined : prefixOfRegex(second);
  if (first === '=' || first === '^~') return second === undefined ? undefined : prefixOfPattern(second);
  return prefixOfPattern(first);
}

/** `$name` variables set in scope, substituted into a value. */
const substitute = (value: string, variables: ReadonlyMap<string, string>): string =>
  value.replace(/\$([A-Za-z_]\w*)/g, (whole, name: string) => variables.get(name) ?? whole);

interface Scope {
  readonly variables: Map<string, string>;
  readonly upstreams: ReadonlyMap<string, string>;
}

function proxyOf(location: Directive, prefix: string, scope: Scope): ProxyFact | undefined {
  const pass = location.block?.find((d) => d.name === 'proxy_pass')?.args[0];
  if (pass === undefined) return undefined;
  const url = substitute(pass, scope.variables);
  const match = /^([a-z]+:\/\/)([^/]+)(\/.*)?$/i.exec(url);
  if (!match) return undefined;
  const host = match[2] ?? '';
  const server = scope.upstreams.get(host);
  const target = `${match[1]}${server ?? host}`;
  const uri = match[3];
  const rewriteDirective = location.block?.find((d) => d.name === 'rewrite' && d.args.length >= 2);
  let rewrite: string | undefined;
  if (uri !== undefined) {
    const normalised = prefixOfPattern(uri);
    rewrite = normalised === '/' ? '' : normalised;
  } else if (rewriteDirective) {
    rewrite = rewriteByRegex(prefix, rewriteDirective.args[0] ?? '', rewriteDirective.args[1] ?? '');
  }
  return {
    kind: 'http_proxy',
    prefix,
    target,
    ...(rewrite === undefined ? {} : { rewrite }),
    line: location.line,
    confidence: 'exact',
    via: 'proxy:nginx',
  };
}

/** Directives with which a location answers requests itself: OpenResty Lua handlers, `return 2xx …`. */
const answersItself = (d: Directive): boolean =>
  /^content_by_lua(_block|_file)?$/.test(d.name) || (d.name === 'return' && /^2\d\d$/.test(d.args[0] ?? ''));

const answers = (block: readonly Directive[] | undefined, depth = 0): boolean =>
  (block ?? []).some(
    (d) => answersItself(d) || (depth < 2 && d.name === 'if' && answers(d.block, depth + 1)),
  );

/** A location that answers requests itself is a route of this server (any method: nginx does not say). */
function routeOf(location: Directive, prefix: string): RouteFact | undefined {
  if (!answers(location.block) || location.block?.some((d) => d.name === 'proxy_pass')) return undefined;
  return { kind: 'http_route', method: 'ANY', path: prefix, line: location.line, via: 'nginx location' };
}

type RouteFact = Extract<ContractFact, { kind: 'http_route' }>;

function walk(directives: readonly Directive[], scope: Scope, out: (ProxyFact | RouteFact)[]): void {
  const variables = new Map(scope.variables);
  for (const directive of directives)
    if (directive.name === 'set' && directive.args[0]?.startsWith('$') && directive.args[1] !== undefined)
      variables.set(directive.args[0].slice(1), directive.args[1]);
  const inner: Scope = { variables, upstreams: scope.upstreams };
  for (const directive of directives) {
    if (!directive.block) continue;
    if (directive.name === 'location') {
      const prefix = locationPrefix(directive.args);
      const fact =
        prefix === undefined ? undefined : (proxyOf(directive, prefix, inner) ?? routeOf(directive, prefix));
      if (fact) out.push(fact);
    }
    walk(directive.block, inner, out);
  }
}

export function extractNginx(input: ExtractInput): FileFacts {
  const directives = parseBlocks(input.source);
  const facts: (ProxyFact | RouteFact)[] = [];
  walk(directives, { variables: new Map(), upstreams: upstreams(directives) }, facts);
  const builder = new FactBuilder(input.language);
  for (const fact of facts) builder.addContract(fact);
  return builder.build();
}
