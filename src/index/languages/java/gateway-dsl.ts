/**
 * Spring Cloud Gateway's Java route DSL: `builder.routes().route("id", r -> r.path("/a/**")
 * .filters(f -> f.stripPrefix(1)).uri("lb://orders"))`. Each `.route(…)` call's text is read for its
 * `path` patterns, `uri` and path filters (`stripPrefix`, `rewritePath`, `prefixPath`, `setPath`), in the
 * order written; only literal strings are read (a `uri` from a field or property is not guessed).
 */
import type { SymbolFact } from '../../facts.js';
import { innermostSymbolAt, type FactBuilder } from '../shared/fact-builder.js';
import { applyFilter, type GatewayFilter } from '../shared/gateway-filters.js';
import { prefixOfPattern, type ProxyFact } from '../shared/gateway-paths.js';

const FILTERS = /\.(stripPrefix|rewritePath|prefixPath|setPath)\s*\(/g;

/** The index just past the `)` closing the call whose `(` is at `open`, skipping strings; -1 if none. */
function closingParen(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; i += 1) {
    const c = source[i];
    if (c === '"') {
      i += 1;
      while (i < source.length && source[i] !== '"') i += source[i] === '\\' ? 2 : 1;
    } else if (c === '(') depth += 1;
    else if (c === ')') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

const strings = (text: string): string[] => [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? '');

const lineAt = (source: string, offset: number): number => source.slice(0, offset).split('\n').length;

/** The facts of one `.route(…)` call's text. */
function routeFacts(text: string, line: number): ProxyFact[] {
  const uri = /\.uri\s*\(\s*"([^"]+)"\s*\)/.exec(text)?.[1];
  if (uri === undefined) return [];
  const patterns = [...text.matchAll(/\.path\s*\(([^)]*)\)/g)].flatMap((m) => strings(m[1] ?? ''));
  const filters: GatewayFilter[] = [...text.matchAll(FILTERS)].map((m) => {
    const open = (m.index ?? 0) + m[0].length - 1;
    const args = text.slice(open + 1, Math.max(open + 1, closingParen(text, open) - 1));
    return { name: m[1] ?? '', args: /^\s*\d+\s*$/.test(args) ? [args.trim()] : strings(args) };
  });
  return patterns
    .filter((p) => p.startsWith('/'))
    .map((pattern) => {
      const prefix = prefixOfPattern(pattern);
      const rewrite = filters.reduce<string | undefined>(
        (path, f) => applyFilter(f, prefix, path),
        undefined,
      );
      return {
        kind: 'http_proxy',
        prefix,
        target: uri,
        ...(rewrite === undefined ? {} : { rewrite }),
        line,
        confidence: 'exact',
        via: 'proxy:spring-cloud-gateway',
      };
    });
}

/** Adds the gateway routes a Java file declares with `RouteLocatorBuilder`. */
export function gatewayDslRoutes(source: string, facts: FactBuilder, symbols: readonly SymbolFact[]): void {
  // The DSL's types come from this package: a file not importing it declares no gateway routes.
  if (!source.includes('org.springframework.cloud.gateway')) return;
  for (const match of source.matchAll(/\.route\s*\(/g)) {
    const open = (match.index ?? 0) + match[0].length - 1;
    const close = closingParen(source, open);
    if (close < 0) continue;
    const line = lineAt(source, match.index ?? 0);
    const owner = innermostSymbolAt(symbols, line);
    for (const fact of routeFacts(source.slice(open, close), line))
      facts.addContract(
        fact,
        owner === undefined ? { at: match.index ?? 0 } : { owner, at: match.index ?? 0 },
      );
  }
}
