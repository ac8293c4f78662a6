/**
 * Where a resolved base URL points: its host and the path it carries. Scheme, port and credentials never
 * matter for matching (a port or scheme never blocks a match), so they are dropped here.
 */

export interface Address {
  /** Lower-case host name, or undefined for a relative base (`/api`). */
  readonly host: string | undefined;
  /** The path the base carries (`http://orders:8080/api/v1` → `/api/v1`); `''` for none. */
  readonly path: string;
}

const trimPath = (path: string | undefined): string =>
  (path ?? '').replace(/[?#].*$/, '').replace(/\/+$/, '');

/**
 * `http://orders:8080/api`, `lb://orders`, `orders:8080/api`, `orders`, `/api` → host and path; undefined
 * for text that is no address (a sentence, an unresolved placeholder).
 */
export function parseAddress(value: string): Address | undefined {
  const text = value.trim();
  if (text === '' || text.includes('${')) return undefined;
  const url = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^/:?#]*)(?::[^/?#]*)?([/?#].*)?$/i.exec(
    text,
  );
  if (url) return url[1] ? { host: url[1].toLowerCase(), path: trimPath(url[2]) } : undefined;
  if (text.startsWith('/')) return { host: undefined, path: trimPath(text) };
  const bare = /^([a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?)(?::\d+)?(\/.*)?$/i.exec(text);
  if (!bare?.[1] || !/[a-z]/i.test(bare[1])) return isIpLiteral(text) ? ipAddress(text) : undefined;
  return { host: bare[1].toLowerCase(), path: trimPath(bare[2]) };
}

const isIpLiteral = (text: string): boolean => /^\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?(?:\/.*)?$/.test(text);

function ipAddress(text: string): Address {
  const slash = text.indexOf('/');
  const hostPort = slash < 0 ? text : text.slice(0, slash);
  return { host: hostPort.split(':')[0], path: slash < 0 ? '' : trimPath(text.slice(slash)) };
}

/** Hosts that name the calling machine itself: never a service of the workspace by name. */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '0.0.0.0', '::1', '[::1]', 'host.docker.internal']);

export const isLocalHost = (host: string): boolean => LOCAL_HOSTS.has(host) || host.endsWith('.localhost');

/** Top-level domains common enough that `name.<tld>` is read as a public domain, not `svc.namespace`. */
const PUBLIC_TLDS = new Set([
  'com',
  'org',
  'net',
  'io',
  'dev',
  'app',
  'co',
  'ai',
  'cloud',
  'gov',
  'edu',
  'info',
]);

/** The Kubernetes cluster domain suffixes a Service's DNS name may carry. */
const CLUSTER_SUFFIXES = ['.svc.cluster.local', '.svc'];

/**
 * The names a host may stand for, most specific first: the host itself, then for a Kubernetes DNS name
 * (`orders.shop.svc.cluster.local`, `orders.shop.svc`, `orders.shop`) the Service's own name.
 */
export function hostCandidates(host: string): string[] {
  const out = [host];
  let rest = host;
  for (const suffix of CLUSTER_SUFFIXES) {
    if (rest.endsWith(suffix)) {
      rest = rest.slice(0, -suffix.length);
      break;
    }
  }
  const labels = rest.split('.');
  // `svc.namespace`: a Service addressed across namespaces. More labels, or a public top-level domain, are
  // a domain name, not a Service.
  if (labels.length <= 2 && labels[0] && !PUBLIC_TLDS.has(labels[1] ?? '')) out.push(labels[0]);
  return [...new Set(out)];
}

/** Joins a base path and a call path: `/api/v1` + `/orders/{id}` → `/api/v1/orders/{id}`. */
export function joinPaths(prefix: string, path: string): string {
  const head = prefix.replace(/\/+$/, '');
  const tail = path.startsWith('/') ? path : `/${path}`;
  if (head === '') return tail;
  return tail === '/' ? head : `${head}${tail}`;
}
