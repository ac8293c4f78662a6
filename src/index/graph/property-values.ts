import type { IndexedFile } from '../snapshot.js';
import { CodeConstants } from './code-constants.js';
import { CSHARP_CONSTANTS } from './csharp-constants.js';
import { JAVA_CONSTANTS } from './java-constants.js';
import { placeholderOf } from './names.js';

interface GoValue {
  readonly root: string;
  readonly dir: string;
  readonly value: string;
}

/** A property value and the Spring profile it applies under (absent: the default profile). */
export interface ProfiledValue {
  readonly value: string;
  readonly profile?: string;
}

const dirOf = (path: string): string => path.slice(0, Math.max(path.lastIndexOf('/'), 0));

/** `${go:kafka.Topic}` → `go:kafka.Topic` (a Go package-level value; its `:` is no Spring default). */
export function goPlaceholderOf(value: string): string | undefined {
  return /^\$\{(go:[^}]+)\}$/.exec(value.trim())?.[1];
}

/** String constants of languages whose files reach across files for them (C#, Java), one resolver each. */
const constantResolvers = (): CodeConstants[] => [
  new CodeConstants(CSHARP_CONSTANTS),
  new CodeConstants(JAVA_CONSTANTS),
];
const CONSTANT_SYNTAX = constantResolvers();

/**
 * A placeholder for a value declared in code (`${go:…}`, `${cs:…}`, `${jv:…}`): resolved per file, never as
 * config.
 */
export const isCodePlaceholder = (value: string): boolean =>
  goPlaceholderOf(value) !== undefined ||
  CONSTANT_SYNTAX.some((constants) => constants.placeholderOf(value) !== undefined);

/**
 * The values facts name indirectly: config properties behind `${key}` placeholders, deploy-manifest
 * environment variables (`env.NAME` properties) and Go package-level values (`${go:pkg.Name}`), indexed
 * once from every file's properties.
 */
export class PropertyValues {
  /** Root → key → its first value in that root (under the default profile when it has one there). */
  private readonly byRoot = new Map<string, Map<string, string>>();
  /** Root → key → every value in that root, in file order, with the profile each applies under. */
  private readonly profiled = new Map<string, Map<string, ProfiledValue[]>>();
  /** Key → its distinct values across the workspace. */
  private readonly all = new Map<string, string[]>();
  private readonly goValues = new Map<string, GoValue[]>();
  private readonly constants = constantResolvers();

  constructor(files: readonly IndexedFile[]) {
    for (const file of files) {
      for (const property of file.facts.properties ?? []) {
        if (property.key.startsWith('go:')) {
          const values =
            this.goValues.get(property.key) ?? this.goValues.set(property.key, []).get(property.key);
          values?.push({ root: file.root, dir: dirOf(file.path), value: property.value });
          continue;
        }
        const owner = this.constants.find((constants) => constants.ownsKey(property.key));
        if (owner !== undefined) {
          owner.add(file, property);
          continue;
        }
        const map = this.byRoot.get(file.root) ?? this.byRoot.set(file.root, new Map()).get(file.root);
        const first = this.valuesIn(file.root, property.key)[0];
        if (!map?.has(property.key) || (first?.profile !== undefined && property.profile === undefined))
          map?.set(property.key, property.value);
        const inRoot = this.profiled.get(file.root) ?? this.profiled.set(file.root, new Map()).get(file.root);
        const list = inRoot?.get(property.key) ?? inRoot?.set(property.key, []).get(property.key);
        list?.push(
          property.profile === undefined
            ? { value: property.value }
            : { value: property.value, profile: property.profile },
        );
        const values = this.all.get(property.key) ?? this.all.set(property.key, []).get(property.key);
        if (!values?.includes(property.value)) values?.push(property.value);
      }
    }
  }

  /** Every value of `key` in one root, in file order, each with the profile it applies under. */
  valuesIn(root: string, key: string): readonly ProfiledValue[] {
    return this.profiled.get(root)?.get(key) ?? [];
  }

  /** The distinct values of `key` across the workspace. */
  workspaceValues(key: string): readonly string[] {
    return this.all.get(key) ?? [];
  }

  /** The profiles some property of the root applies under. */
  profilesOf(root: string): string[] {
    const profiles = new Set<string>();
    for (const list of this.profiled.get(root)?.values() ?? [])
      for (const v of list) if (v.profile !== undefined) profiles.add(v.profile);
    return [...profiles].sort();
  }

  /**
   * A value with its placeholder resolved: a `${key}` in the same root first, then uniquely in the
   * workspace, else its default; a `${go:…}`, `${cs:…}` or `${jv:…}` value for the file `from` (none without
   * it). Anything else is returned as written.
   */
  resolve(value: string, root: string, from?: IndexedFile): string | undefined {
    const goKey = goPlaceholderOf(value);
    if (goKey !== undefined) return from ? resolveGoValue(this.goValues.get(goKey), goKey, from) : undefined;
    for (const constants of this.constants) {
      const ref = constants.placeholderOf(value);
      if (ref !== undefined) return from ? constants.resolve(ref, from) : undefined;
    }
    const placeholder = placeholderOf(value);
    if (!placeholder) return value;
    const local = this.byRoot.get(root)?.get(placeholder.key);
    if (local !== undefined) return local;
    const global = this.all.get(placeholder.key);
    if (global && global.length === 1) return global[0];
    return placeholder.fallback;
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
