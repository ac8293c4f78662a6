/**
 * URLs of HTTP calls as base + normalised path: a template, a concatenation or a same-file constant is
 * flattened into literal pieces, environment variables and unknown holes, then split where the authority
 * ends. Unknown parts of the path become `{name}` placeholders (`{}` when nameless); an unknown base makes the call heuristic.
 */
import { normalizeHttpPath } from '../shared/tree-utils.js';
import { type Val } from './values.js';
import { lookup, type ValueTables } from './resolve-values.js';

type Piece = { readonly lit: string } | { readonly env: string } | { readonly hole: string | undefined };

function pieces(val: Val, t: ValueTables, out: Piece[], depth: number): void {
  if (depth > 8) {
    out.push({ hole: undefined });
    return;
  }
  switch (val.k) {
    case 'str':
      out.push({ lit: val.v });
      return;
    case 'env':
      out.push({ env: val.name });
      return;
    case 'ref': {
      const target = lookup(val, t, depth);
      if (target?.kind === 'val') pieces(target.val, t, out, depth + 1);
      else out.push({ hole: val.path[val.path.length - 1] });
      return;
    }
    case 'cat':
      for (const part of val.parts) pieces(part, t, out, depth + 1);
      return;
    case 'or': {
      // `process.env.X ?? 'http://localhost:8080'`: the deployed value is the variable, not the default.
      let first: Piece[] | undefined;
      for (const option of val.options) {
        const mine: Piece[] = [];
        pieces(option, t, mine, depth + 1);
        first ??= mine;
        const head = mine[0];
        if (head !== undefined && !('hole' in head)) {
          out.push(...mine);
          return;
        }
      }
      out.push(...(first ?? []));
      return;
    }
    case 'opaque':
      out.push({ hole: val.last });
      return;
    default:
      out.push({ hole: undefined });
  }
}

export interface ResolvedUrl {
  readonly base?: string;
  readonly path: string;
  /** False when a part of the URL (its base) could not be resolved. */
  readonly exact: boolean;
  /** True when no literal text of the path is known: `path` is `/` and the call is reported as unresolved. */
  readonly partial?: true;
}

const PARTIAL: ResolvedUrl = { path: '/', exact: false, partial: true };

/**
 * Splits a URL expression into base and normalised path: `${process.env.BILLING_URL}/invoices/${id}` →
 * `env:BILLING_URL` + `/invoices/{id}`; a literal `http://billing:8080/x` → `http://billing:8080` + `/x`.
 * Partial (path `/`, with the base when known) when no literal text of the path is known: a bare variable,
 * `${url}?${query}` or `${url}/${id}` (an unknown base and no path segment), or an env base alone (`${BASE}`,
 * `${BASE}${path}`: the variable may hold a path). A known base followed by a literal `/` (`${BASE}/`) is
 * the root path.
 */
/**
 * What follows a host read from the environment (or not read at all), without its port: in `${host}:${port}/orders` (or
 * `${host}:3500/orders`) the `:port` belongs to the host, not to the path.
 */
function afterPort(rest: readonly Piece[]): Piece[] {
  const [head, next, ...more] = rest;
  if (head === undefined || !('lit' in head)) return [...rest];
  // `:${port}`: the port is a value of its own.
  if (head.lit === ':' && next !== undefined && !('lit' in next)) return more;
  const port = /^:\d+/.exec(head.lit);
  if (port === null) return [...rest];
  const tail = head.lit.slice(port[0].length);
  return [...(tail === '' ? [] : [{ lit: tail }]), ...rest.slice(1)];
}

export function resolveUrl(val: Val, t: ValueTables): ResolvedUrl {
  const all: Piece[] = [];
  pieces(val, t, all, 0);
  // Adjacent literals are one text: `protocol + '//' + host` must read as a scheme.
  const list: Piece[] = [];
  for (const p of all) {
    const last = list[list.length - 1];
    if ('lit' in p && p.lit === '') continue;
    if ('lit' in p && last !== undefined && 'lit' in last) list[list.length - 1] = { lit: last.lit + p.lit };
    else list.push(p);
  }
  const first = list[0];
  if (first === undefined) return PARTIAL;
  let base: string | undefined;
  let exact = true;
  let rest = list;
  if ('env' in first) {
    base = `env:${first.env}`;
    rest = afterPort(list.slice(1));
  } else if ('hole' in first) {
    if (list.length === 1) return PARTIAL;
    exact = false;
    rest = afterPort(list.slice(1));
  } else {
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(first.lit);
    if (scheme !== null) {
      // The authority ends at the first `/`, `?` or `#`, possibly several pieces later (`http://${host}:80/x`).
      let authority = '';
      let i = 0;
      for (; i < list.length; i++) {
        const p = list[i] as Piece;
        if (!('lit' in p)) {
          // After `host:port` a hole is the path (`${BILLING}${path}` with BILLING = 'http://billing:8080').
          if (/:\d+$/.test(authority)) {
            rest = list.slice(i);
            break;
          }
          exact = false;
          authority += `{${'env' in p ? p.env : (p.hole ?? 'host')}}`;
          continue;
        }
        const text = i === 0 ? p.lit.slice(scheme[0].length) : p.lit;
        const stop = text.search(/[/?#]/);
        if (stop >= 0) {
          authority += text.slice(0, stop);
          rest = [{ lit: text.slice(stop) }, ...list.slice(i + 1)];
          break;
        }
        authority += text;
      }
      if (i === list.length) rest = [];
      base = scheme[0] + authority;
    }
  }
  let path = '';
  // The literal text of the path (before `?`/`#`), and whether an unknown part sits in it.
  let literal = '';
  let holes = false;
  for (const p of rest) {
    if ('lit' in p) {
      const cut = p.lit.search(/[?#]/);
      const text = cut >= 0 ? p.lit.slice(0, cut) : p.lit;
      path += text;
      literal += text;
      if (cut >= 0) break;
    } else {
      holes = true;
      path += `{${'env' in p ? p.env : (p.hole ?? '')}}`;
    }
  }
  if (base === undefined) {
    // Unknown base: only a path with a named segment is evidence (`/{x}` would match any one-segment route);
    // a wholly literal `fetch('/')` is still the root.
    if (literal === '' || (!/[^/]/.test(literal) && (holes || 'hole' in first))) return PARTIAL;
  } else if (literal === '' && (holes || base.startsWith('env:'))) return { ...PARTIAL, base };
  return { ...(base === undefined ? {} : { base }), path: normalizeHttpPath(path), exact };
}
