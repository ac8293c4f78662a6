/**
 * Spring Cloud Gateway predicates and filters, read the same from configuration (`Path=/a/**`,
 * `StripPrefix=1`) and from the Java route DSL (`r.path("/a/**")`, `f.stripPrefix(1)`).
 */
import { prependPath, rewriteByRegex, stripSegments } from './gateway-paths.js';

export interface GatewayFilter {
  readonly name: string;
  readonly args: readonly string[];
}

/** The path patterns of the `Path` predicates (a route without one matches no path we can name). */
export const pathPatterns = (predicates: readonly GatewayFilter[]): string[] =>
  predicates
    .filter((p) => p.name.toLowerCase() === 'path')
    .flatMap((p) => p.args)
    .map((a) => a.trim())
    .filter((a) => a.startsWith('/'));

/**
 * The path the target receives for `prefix` after one filter, given what earlier filters made of it
 * (`current`, undefined: unchanged). Filters that do not touch the path leave it as it was.
 */
export function applyFilter(
  filter: GatewayFilter,
  prefix: string,
  current: string | undefined,
): string | undefined {
  const path = current ?? prefix;
  switch (filter.name.toLowerCase()) {
    case 'stripprefix': {
      const count = Number.parseInt(filter.args[0] ?? '1', 10);
      return Number.isFinite(count) ? stripSegments(path, count) : current;
    }
    case 'prefixpath':
      return filter.args[0] === undefined ? current : prependPath(filter.args[0], path);
    case 'rewritepath': {
      const [regex, replacement] = filter.args;
      if (regex === undefined || replacement === undefined) return current;
      return rewriteByRegex(path, regex, replacement) ?? current;
    }
    case 'setpath':
      return filter.args[0] === undefined
        ? current
        : filter.args[0].replace(/\{[^}]*\}.*$/, '').replace(/\/+$/, '');
    default:
      return current;
  }
}
