/**
 * Where an HTTP call's base (or a gateway route's target) points: a service of the workspace (by any of
 * its names), the calling machine itself, a host outside the workspace, or nothing known. Bases are
 * resolved per calling root: its environment, its Spring properties (default or active profile first,
 * then each other profile of the root until one names a service).
 */
import type { IndexedFile } from '../snapshot.js';
import type { RootIdentity } from '../services/types.js';
import { hostCandidates, isLocalHost, parseAddress } from './addresses.js';
import { ConfigLookup } from './config-lookup.js';
import { interpolate } from './placeholders.js';
import { isCodePlaceholder, type PropertyValues } from './property-values.js';

export type HttpTarget =
  /** A service of the workspace: the roots answering to the host's name. */
  | {
      readonly kind: 'service';
      readonly host: string;
      readonly roots: readonly string[];
      readonly path: string;
    }
  /** `localhost` and the like: the machine itself, so any service (matched by path only). */
  | { readonly kind: 'local'; readonly path: string }
  /** A named host that is no service here (`api.stripe.com`). */
  | { readonly kind: 'external'; readonly host: string; readonly path: string }
  /** Nothing known of the host (no base, an unresolved variable, a bare name no service answers to). */
  | { readonly kind: 'unknown'; readonly path: string };

const UNKNOWN: HttpTarget = { kind: 'unknown', path: '' };

/** Host name → the roots answering to it: every name of each root's identity, its service and folder names. */
function nameIndex(
  roots: Iterable<string>,
  services: ReadonlyMap<string, string>,
  identities: ReadonlyMap<string, RootIdentity> | undefined,
): Map<string, string[]> {
  const index = new Map<string, string[]>();
  const add = (name: string, root: string): void => {
    const key = name.trim().toLowerCase();
    if (key === '') return;
    const list = index.get(key) ?? index.set(key, []).get(key);
    if (!list?.includes(root)) list?.push(root);
  };
  for (const root of new Set([...roots, ...services.keys(), ...(identities?.keys() ?? [])])) {
    for (const name of identities?.get(root)?.names ?? []) add(name, root);
    const service = services.get(root);
    if (service !== undefined) add(service, root);
    add(root.split('/').pop() ?? root, root);
  }
  return index;
}

export class HttpTargets {
  private readonly names: Map<string, string[]>;
  readonly config: ConfigLookup;

  constructor(
    private readonly values: PropertyValues,
    roots: Iterable<string>,
    services: ReadonlyMap<string, string>,
    identities: ReadonlyMap<string, RootIdentity> | undefined,
  ) {
    this.names = nameIndex(roots, services, identities);
    this.config = new ConfigLookup(values, identities);
  }

  /** Every name the root answers to. */
  namesOf(root: string): string[] {
    return [...this.names].filter(([, roots]) => roots.includes(root)).map(([name]) => name);
  }

  /** The roots a host name (or a Kubernetes DNS name of it) belongs to. */
  rootsNamed(host: string): readonly string[] | undefined {
    for (const name of hostCandidates(host.toLowerCase())) {
      const roots = this.names.get(name);
      if (roots) return roots;
    }
    return undefined;
  }

  /**
   * The target of a base as the root `root` resolves it. When the default reading names no service, each
   * other profile of the root is tried: a `localhost` default with a `docker` profile naming the service is
   * common, and the profile is how the service is deployed.
   */
  resolve(base: string | undefined, root: string, from?: IndexedFile): HttpTarget {
    if (base === undefined || base.trim() === '') return UNKNOWN;
    if (isCodePlaceholder(base)) {
      const value = from ? this.values.resolve(base, root, from) : undefined;
      return value === undefined ? UNKNOWN : this.classify(value);
    }
    let first: HttpTarget | undefined;
    for (const profile of [undefined, ...this.values.profilesOf(root)]) {
      const expanded = this.expand(base, root, profile);
      if (expanded === undefined) continue;
      const target = this.classify(expanded);
      if (target.kind === 'service') return target;
      first ??= target;
    }
    return first ?? UNKNOWN;
  }

  /** The base with its variable read and its placeholders resolved, or undefined. */
  private expand(base: string, root: string, profile: string | undefined): string | undefined {
    const lookup = this.config.lookupFor(root, profile);
    if (base.startsWith('env:')) {
      const value = this.config.env(root, base.slice(4));
      return value === undefined ? undefined : interpolate(value, lookup);
    }
    return interpolate(base, lookup);
  }

  private classify(value: string): HttpTarget {
    if (value.startsWith('service:')) {
      const name = value.slice('service:'.length).trim().toLowerCase();
      const roots = this.rootsNamed(name);
      return roots ? { kind: 'service', host: name, roots, path: '' } : UNKNOWN;
    }
    const address = parseAddress(value);
    if (!address) return UNKNOWN;
    const { host, path } = address;
    if (host === undefined) return { kind: 'unknown', path };
    if (isLocalHost(host)) return { kind: 'local', path };
    const roots = this.rootsNamed(host);
    if (roots) return { kind: 'service', host, roots, path };
    return host.includes('.') ? { kind: 'external', host, path } : { kind: 'unknown', path };
  }
}
