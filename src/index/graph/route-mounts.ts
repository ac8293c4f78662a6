/**
 * Route mounts (`http_mount` facts, see facts.ts): the prefixes a route is served under that its own file
 * does not spell. Before routes reach the route table, each route fact is rewritten to its full paths:
 *
 *   folder mount without `routes` (WAR context path) + folder mount with `routes` (JAX-RS application path)
 *   + the `import:` mounts of its file, outermost first + the route's own path.
 *
 * A file mounted twice serves its routes under both prefixes; a file no mount names keeps its routes as
 * they are. Work is linear in the number of facts: mounts are indexed once, each file's prefixes memoised.
 */
import type { ContractFact } from '../facts.js';
import type { IndexedFile } from '../snapshot.js';
import { ImportResolver } from './imports-resolver.js';
import type { RootImportSettings } from './imports-settings.js';

type MountFact = Extract<ContractFact, { kind: 'http_mount' }>;
type RouteFact = Extract<ContractFact, { kind: 'http_route' }>;

interface FolderMount {
  readonly dir: string;
  readonly prefix: string;
  readonly routes: string | undefined;
}

/** A mount of one file by another: the prefix, and the file whose own prefixes come outside it. */
interface ImportMount {
  readonly prefix: string;
  readonly from: IndexedFile;
}

/** More prefixes than this for one file (mounts fanning out at every level) are cut: none is lost silently, the first ones are kept. */
const MAX_PREFIXES = 64;
/** Mount chains deeper than this are cycles or generated code. */
const MAX_DEPTH = 16;

const fileKey = (file: IndexedFile): string => `${file.root}\u0000${file.path}`;

function isUnder(path: string, dir: string): boolean {
  return dir === '' || path.startsWith(`${dir}/`);
}

/** Collects the mounts of every file: folder mounts per root, import mounts per mounted file. */
class MountIndex {
  readonly folders = new Map<string, FolderMount[]>();
  readonly imports = new Map<string, ImportMount[]>();
  private readonly chains = new Map<string, readonly string[]>();

  constructor(files: readonly IndexedFile[], settings: readonly RootImportSettings[]) {
    let resolver: ImportResolver | undefined;
    for (const file of files) {
      for (const fact of file.facts.contracts) {
        if (fact.kind !== 'http_mount') continue;
        if (fact.target.startsWith('folder:')) {
          const dir = fact.target.slice('folder:'.length).replace(/^\/+|\/+$/g, '');
          const list = this.folders.get(file.root) ?? this.folders.set(file.root, []).get(file.root);
          list?.push({ dir, prefix: fact.prefix, routes: fact.routes });
        } else if (fact.target.startsWith('import:')) {
          resolver ??= new ImportResolver(files, settings);
          this.addImportMount(resolver, file, fact);
        }
      }
    }
  }

  get empty(): boolean {
    return this.folders.size === 0 && this.imports.size === 0;
  }

  private addImportMount(resolver: ImportResolver, file: IndexedFile, fact: MountFact): void {
    const source = fact.target.slice('import:'.length);
    const { targets } = resolver.resolve(file, {
      source,
      line: fact.line,
      ...(fact.names === undefined ? {} : { names: fact.names }),
      ...(fact.resolved === undefined ? {} : { resolved: fact.resolved }),
    });
    for (const target of targets) {
      if (target.kind !== 'file' || target.file === file) continue;
      const key = fileKey(target.file);
      const list = this.imports.get(key) ?? this.imports.set(key, []).get(key);
      list?.push({ prefix: fact.prefix, from: file });
    }
  }

  /** The prefixes the `import:` mounts give a file's routes, outermost first; `['']` when none. */
  chainOf(file: IndexedFile): readonly string[] {
    const key = fileKey(file);
    let known = this.chains.get(key);
    if (known === undefined) {
      const found = this.prefixesOf(file, new Set());
      known = found.length === 0 ? [''] : found;
      this.chains.set(key, known);
    }
    return known;
  }

  /**
   * The prefixes of one file when reached through the files in `visiting`: a mount that closes a cycle
   * (or goes deeper than any real application) gives none, so a cycle adds nothing and ends.
   */
  private prefixesOf(file: IndexedFile, visiting: Set<string>): string[] {
    const key = fileKey(file);
    const mounts = this.imports.get(key);
    if (mounts === undefined) return [''];
    if (visiting.has(key) || visiting.size >= MAX_DEPTH) return [];
    visiting.add(key);
    const prefixes = new Set<string>();
    for (const mount of mounts)
      for (const outer of this.prefixesOf(mount.from, visiting))
        prefixes.add(joinPrefix(outer, mount.prefix));
    visiting.delete(key);
    return [...prefixes].slice(0, MAX_PREFIXES);
  }

  /** The prefixes of the nearest folder mounts of one kind (with or without a `routes` filter) over a route. */
  folderPrefixes(file: IndexedFile, route: RouteFact, filtered: boolean): readonly string[] {
    const candidates = (this.folders.get(file.root) ?? []).filter(
      (m) =>
        (m.routes !== undefined) === filtered &&
        (m.routes === undefined || route.via.startsWith(m.routes)) &&
        isUnder(file.path, m.dir),
    );
    if (candidates.length === 0) return [''];
    const depth = Math.max(...candidates.map((m) => m.dir.length));
    return [...new Set(candidates.filter((m) => m.dir.length === depth).map((m) => m.prefix))];
  }
}

/**
 * Joins normalised paths (`/api` + `/v1` + `/orders/{id}`): `/` and `''` add nothing. The route's own
 * path is not normalised again, so what it spells (a `${…}` placeholder) stays as written.
 */
export function joinPaths(...parts: readonly string[]): string {
  const segments = parts
    .map((part) => part.trim().replace(/\/+$/, ''))
    .filter((part) => part !== '')
    .map((part) => (part.startsWith('/') ? part : `/${part}`));
  return segments.join('') || '/';
}

const joinPrefix = (outer: string, inner: string): string => {
  const joined = joinPaths(outer, inner);
  return joined === '/' ? '' : joined;
};

function mountedRoutes(index: MountIndex, file: IndexedFile, route: RouteFact): RouteFact[] {
  const chain = index.chainOf(file);
  const out = new Map<string, RouteFact>();
  for (const context of index.folderPrefixes(file, route, false))
    for (const application of index.folderPrefixes(file, route, true))
      for (const inner of chain) {
        const path = joinPaths(context, application, inner, route.path);
        if (!out.has(path)) out.set(path, path === route.path ? route : { ...route, path });
      }
  return [...out.values()].slice(0, MAX_PREFIXES);
}

/**
 * The files with every route fact rewritten to the paths its mounts serve it under. Files without routes,
 * and every file when no mount exists, are returned as they are.
 */
export function applyRouteMounts(
  files: readonly IndexedFile[],
  settings: readonly RootImportSettings[],
): readonly IndexedFile[] {
  const index = new MountIndex(files, settings);
  if (index.empty) return files;
  return files.map((file) => {
    const { contracts } = file.facts;
    if (!contracts.some((fact) => fact.kind === 'http_route')) return file;
    const rewritten = contracts.flatMap((fact): readonly ContractFact[] =>
      fact.kind === 'http_route' ? mountedRoutes(index, file, fact) : [fact],
    );
    const same = rewritten.length === contracts.length && rewritten.every((fact, i) => fact === contracts[i]);
    return same ? file : { ...file, facts: { ...file.facts, contracts: rewritten } };
  });
}
