import type { IndexedFile } from '../snapshot.js';
import { hostOf, placeholderOf } from './names.js';

interface GoValue {
  readonly root: string;
  readonly dir: string;
  readonly value: string;
}

const dirOf = (path: string): string => path.slice(0, Math.max(path.lastIndexOf('/'), 0));

/** `${go:kafka.Topic}` → `go:kafka.Topic` (a Go package-level value; its `:` is no Spring default). */
export function goPlaceholderOf(value: string): string | undefined {
  return /^\$\{(go:[^}]+)\}$/.exec(value.trim())?.[1];
}

/**
 * The values facts name indirectly: config properties behind `${key}` placeholders, deploy-manifest
 * environment variables (`env.NAME` properties) and Go package-level values (`${go:pkg.Name}`), indexed
 * once from every file's properties.
 */
export class PropertyValues {
  /** Root → key → its first value in that root. */
  private readonly byRoot = new Map<string, Map<string, string>>();
  /** Key → its distinct values across the workspace. */
  private readonly all = new Map<string, string[]>();
  private readonly goValues = new Map<string, GoValue[]>();

  constructor(files: readonly IndexedFile[]) {
    for (const file of files) {
      for (const property of file.facts.properties ?? []) {
        if (property.key.startsWith('go:')) {
          const values =
            this.goValues.get(property.key) ?? this.goValues.set(property.key, []).get(property.key);
          values?.push({ root: file.root, dir: dirOf(file.path), value: property.value });
          continue;
        }
        const map = this.byRoot.get(file.root) ?? this.byRoot.set(file.root, new Map()).get(file.root);
        if (!map?.has(property.key)) map?.set(property.key, property.value);
        const values = this.all.get(property.key) ?? this.all.set(property.key, []).get(property.key);
        if (!values?.includes(property.value)) values?.push(property.value);
      }
    }
  }

  /**
   * A value with its placeholder resolved: a `${key}` in the same root first, then uniquely in the
   * workspace, else its default; a `${go:…}` value for the file `from` (none without it). Anything else is
   * returned as written.
   */
  resolve(value: string, root: string, from?: IndexedFile): string | undefined {
    const goKey = goPlaceholderOf(value);
    if (goKey !== undefined) return from ? resolveGoValue(this.goValues.get(goKey), goKey, from) : undefined;
    const placeholder = placeholderOf(value);
    if (!placeholder) return value;
    const local = this.byRoot.get(root)?.get(placeholder.key);
    if (local !== undefined) return local;
    const global = this.all.get(placeholder.key);
    if (global && global.length === 1) return global[0];
    return placeholder.fallback;
  }

  /**
   * The host an HTTP call's base points at: a literal URL, an `env:NAME` variable whose value a deploy
   * manifest gives (`env.NAME` properties), or a `${key}` placeholder resolved through config properties.
   */
  hostOf(base: string | undefined, root: string): string | undefined {
    if (!base) return undefined;
    if (base.startsWith('env:')) {
      const name = base.slice(4);
      const values = [
        ...(this.byRoot.get(root)?.get(`env.${name}`) !== undefined
          ? [this.byRoot.get(root)?.get(`env.${name}`) as string]
          : []),
        ...(this.all.get(`env.${name}`) ?? []),
      ];
      const hosts = [...new Set(values.map(hostOf).filter((h): h is string => h !== undefined))];
      return hosts.length === 1 ? hosts[0] : undefined;
    }
    const resolved = this.resolve(base, root);
    if (resolved && !placeholderOf(resolved)) return hostOf(resolved);
    // Spring resolves `${ORDER_GATEWAY_URL}` from the environment too: try the deploy manifests' env vars.
    const placeholder = placeholderOf(base);
    return placeholder ? this.hostOf(`env:${placeholder.key}`, root) : undefined;
  }
}

/**
 * A Go package-level value by package name. A name of the file's own package is declared in the same
 * folder (a package is a folder); an imported package's is looked up in the same root, then in the
 * workspace (`main` packages are never imported) — each only when the candidates agree.
 */
function resolveGoValue(
  values: readonly GoValue[] | undefined,
  key: string,
  from: IndexedFile,
): string | undefined {
  if (!values) return undefined;
  const single = (list: readonly GoValue[]): string | undefined => {
    const distinct = new Set(list.map((v) => v.value));
    return distinct.size === 1 ? list[0]?.value : undefined;
  };
  const pkg = key.slice(3, key.lastIndexOf('.'));
  const sameRoot = values.filter((v) => v.root === from.root);
  if (pkg === from.facts.package) return single(sameRoot.filter((v) => v.dir === dirOf(from.path)));
  if (sameRoot.length > 0) return single(sameRoot);
  return pkg === 'main' ? undefined : single(values);
}
