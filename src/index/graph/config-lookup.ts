/**
 * Configuration values as one root sees them: Spring properties under the active profile (or the default
 * one), the root's deploy-time environment (from the service model, else the `env.NAME` properties of its
 * deploy manifests), and values the whole workspace agrees on.
 */
import type { RootIdentity } from '../services/types.js';
import { parseAddress } from './addresses.js';
import type { Lookup } from './placeholders.js';
import type { ProfiledValue, PropertyValues } from './property-values.js';

/** Spring reads `orders.base-url` from `ORDERS_BASEURL` and `ORDERS_BASE_URL` too (relaxed binding). */
const relaxedNames = (key: string): string[] => {
  const upper = key.toUpperCase();
  return [...new Set([upper.replace(/[.-]/g, '_'), upper.replace(/-/g, '').replace(/\./g, '_')])];
};

/** The first value under the first profile of `order` that sets one (`undefined` in `order`: the default). */
function pick(values: readonly ProfiledValue[], order: readonly (string | undefined)[]): string | undefined {
  for (const profile of order) {
    const found = values.find((v) => v.profile === profile);
    if (found) return found.value;
  }
  return undefined;
}

/** One value from several: the only one, or the first when they all point at the same host. */
function agreed(values: readonly string[]): string | undefined {
  const distinct = [...new Set(values)];
  if (distinct.length <= 1) return distinct[0];
  const hosts = new Set(distinct.map((v) => parseAddress(v)?.host ?? `?${v}`));
  return hosts.size === 1 ? distinct[0] : undefined;
}

export class ConfigLookup {
  constructor(
    private readonly values: PropertyValues,
    private readonly identities: ReadonlyMap<string, RootIdentity> | undefined,
  ) {}

  /** The profiles a root runs with: `SPRING_PROFILES_ACTIVE` from its environment, else `spring.profiles.active`. */
  activeProfiles(root: string): string[] {
    const setting =
      this.identities?.get(root)?.env.get('SPRING_PROFILES_ACTIVE') ??
      pick(this.values.valuesIn(root, 'spring.profiles.active'), [undefined]);
    return (setting ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '' && !p.includes('${'));
  }

  /** Profiles in the order they win: `profile` when given, the active ones (the last listed wins), then the default. */
  private profileOrder(root: string, profile: string | undefined): (string | undefined)[] {
    const active = this.activeProfiles(root).reverse();
    return [...new Set([...(profile === undefined ? [] : [profile]), ...active, undefined])];
  }

  /** A Spring property of the root, as the profile order picks it. */
  property(root: string, key: string, profile?: string): string | undefined {
    return pick(this.values.valuesIn(root, key), this.profileOrder(root, profile));
  }

  /** An environment variable the root's own deploy manifests set: its identity's, else its `env.NAME` properties. */
  ownEnv(root: string, name: string): string | undefined {
    return this.identities?.get(root)?.env.get(name) ?? this.values.valuesIn(root, `env.${name}`)[0]?.value;
  }

  /**
   * An environment variable as the root's service sees it: its own environment first, then `env.NAME`
   * properties of the root, then a value the whole workspace agrees on.
   */
  env(root: string, name: string): string | undefined {
    const own = this.ownEnv(root, name);
    if (own !== undefined) return own;
    const everywhere = [...this.values.workspaceValues(`env.${name}`)];
    for (const identity of this.identities?.values() ?? []) {
      const value = identity.env.get(name);
      if (value !== undefined) everywhere.push(value);
    }
    return agreed(everywhere);
  }

  /**
   * How `${key}` resolves in the root: its properties under the profile order, then its environment
   * (exact and relaxed names), then a property value the workspace agrees on.
   */
  lookupFor(root: string, profile?: string): Lookup {
    return (key) => {
      const property = this.property(root, key, profile);
      if (property !== undefined) return property;
      for (const name of [key, ...relaxedNames(key)]) {
        const value = this.env(root, name);
        if (value !== undefined) return value;
      }
      return agreed(this.values.workspaceValues(key));
    };
  }
}
