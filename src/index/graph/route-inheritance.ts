/**
 * Inherited routes (`http_mount` facts with an `inherits:` target, see facts.ts): a resource class that
 * extends a class declared in another file (a shared library's `AbstractCRUDEndpoint`) serves the routes
 * that class's methods declare, under its own class prefix. Before mounts are applied, the routes of the
 * base class are copied into the subclass's file, so the subclass file's own mounts (context path,
 * application path) apply to them like to the routes it spells. The base file keeps its routes as they are.
 *
 * The base class is found by its qualified name, else by its simple name when that is unique in the
 * subclass's root, then in the workspace. Chains (`A extends B extends C`) follow the mounts of each base
 * class; a method a class declares routes for itself hides the routes of the method it overrides.
 */
import type { ContractFact, FileFacts } from '../facts.js';
import type { IndexedFile } from '../snapshot.js';
import { type MethodShape, methodShape, overrides } from './method-overrides.js';
import { joinPaths } from './route-mounts.js';

type MountFact = Extract<ContractFact, { kind: 'http_mount' }>;
type RouteFact = Extract<ContractFact, { kind: 'http_route' }>;

const INHERITS = 'inherits:';
/** Inheritance chains deeper than this are cycles or generated code. */
const MAX_DEPTH = 16;

/** A class declaration: its file and its symbol there. */
interface ClassRef {
  readonly file: IndexedFile;
  readonly symbol: number;
}

/** A route a class's method declares, its path relative to the class (the class's own prefix removed). */
interface ClassRoute {
  readonly method: string;
  readonly path: string;
  readonly via: string;
  /** The method declaring it: an override in a subclass replaces the route. */
  readonly member: MethodShape;
}

const isInheritsMount = (fact: ContractFact): fact is MountFact =>
  fact.kind === 'http_mount' && fact.target.startsWith(INHERITS) && fact.symbol !== undefined;

const classKey = (ref: ClassRef): string => `${ref.file.root}\u0000${ref.file.path}\u0000${ref.symbol}`;

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** The path of a route below its class's own prefix: `/abstract/{id}` with `classPath` `/abstract` → `/{id}`. */
function relativePath(route: RouteFact): string {
  const prefix = route.classPath;
  if (prefix === undefined || prefix === '/') return route.path;
  if (route.path === prefix) return '/';
  return route.path.startsWith(`${prefix}/`) ? route.path.slice(prefix.length) : route.path;
}

/** The method a route is declared on, when its symbol is a member of `owner`. */
function memberOf(facts: FileFacts, route: RouteFact, owner: number): MethodShape | undefined {
  const symbol = route.symbol === undefined ? undefined : facts.symbols[route.symbol];
  return symbol?.parent === owner ? methodShape(symbol) : undefined;
}

/** The methods of `owner` that declare routes of their own. */
function routeMembers(facts: FileFacts, owner: number): MethodShape[] {
  return facts.contracts.flatMap((fact) => {
    const member = fact.kind === 'http_route' ? memberOf(facts, fact, owner) : undefined;
    return member === undefined ? [] : [member];
  });
}

const overridden = (route: ClassRoute, members: readonly MethodShape[]): boolean =>
  members.some((member) => overrides(member, route.member));

/** Every class of the workspace by qualified name (`package.Outer.Inner`) and by simple name. */
class ClassIndex {
  private readonly qualified = new Map<string, ClassRef[]>();
  private readonly simple = new Map<string, ClassRef[]>();
  private readonly routes = new Map<string, readonly ClassRoute[]>();

  constructor(files: readonly IndexedFile[]) {
    for (const file of files) {
      const { package: pkg, symbols } = file.facts;
      for (const symbol of symbols) {
        if (symbol.kind !== 'class') continue;
        const ref = { file, symbol: symbol.id };
        push(
          this.qualified,
          pkg === undefined ? symbol.qualifiedName : `${pkg}.${symbol.qualifiedName}`,
          ref,
        );
        push(this.simple, symbol.name, ref);
      }
    }
  }

  /** The declarations of the class an `inherits:` mount names, the mounting class itself excluded. */
  resolve(from: IndexedFile, mount: MountFact): readonly ClassRef[] {
    const target = mount.target.slice(INHERITS.length);
    const notSelf = (ref: ClassRef): boolean => ref.file !== from || ref.symbol !== mount.symbol;
    const exact = (this.qualified.get(target) ?? []).filter(notSelf);
    if (exact.length > 0) {
      const sameRoot = exact.filter((ref) => ref.file.root === from.root);
      return sameRoot.length > 0 ? sameRoot : exact;
    }
    const named = (this.simple.get(target.slice(target.lastIndexOf('.') + 1)) ?? []).filter(notSelf);
    const sameRoot = named.filter((ref) => ref.file.root === from.root);
    if (sameRoot.length > 0) return sameRoot.length === 1 ? sameRoot : [];
    return named.length === 1 ? named : [];
  }

  /** The routes a class serves relative to its prefix: its methods' own, then those it inherits. */
  routesOf(ref: ClassRef, visiting: Set<string> = new Set()): readonly ClassRoute[] {
    const key = classKey(ref);
    const known = this.routes.get(key);
    if (known !== undefined) return known;
    if (visiting.has(key) || visiting.size >= MAX_DEPTH) return [];
    visiting.add(key);
    const { facts } = ref.file;
    const own: ClassRoute[] = [];
    for (const fact of facts.contracts) {
      if (fact.kind !== 'http_route') continue;
      const member = memberOf(facts, fact, ref.symbol);
      if (member !== undefined)
        own.push({ method: fact.method, path: relativePath(fact), via: fact.via, member });
    }
    const members = own.map((route) => route.member);
    const inherited = facts.contracts
      .filter((fact): fact is MountFact => isInheritsMount(fact) && fact.symbol === ref.symbol)
      .flatMap((mount) => this.resolve(ref.file, mount))
      .flatMap((base) => this.routesOf(base, visiting))
      .filter((route) => !overridden(route, members));
    visiting.delete(key);
    const found = distinct([...own, ...inherited]);
    this.routes.set(key, found);
    return found;
  }
}

function distinct(routes: readonly ClassRoute[]): ClassRoute[] {
  const seen = new Map<string, ClassRoute>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (!seen.has(key)) seen.set(key, route);
  }
  return [...seen.values()];
}

/** The routes a file's `inherits:` mounts add to it, none that the file already declares. */
function inheritedRoutes(index: ClassIndex, file: IndexedFile): RouteFact[] {
  const { contracts } = file.facts;
  const seen = new Set(
    contracts.flatMap((fact) => (fact.kind === 'http_route' ? [`${fact.method} ${fact.path}`] : [])),
  );
  const added: RouteFact[] = [];
  for (const mount of contracts) {
    if (!isInheritsMount(mount) || mount.symbol === undefined) continue;
    const members = routeMembers(file.facts, mount.symbol);
    for (const base of index.resolve(file, mount)) {
      for (const route of index.routesOf(base)) {
        if (overridden(route, members)) continue;
        const path = joinPaths(mount.prefix, route.path);
        const key = `${route.method} ${path}`;
        if (seen.has(key)) continue;
        seen.add(key);
        added.push({
          kind: 'http_route',
          method: route.method,
          path,
          ...(mount.prefix === '/' || mount.prefix === '' ? {} : { classPath: mount.prefix }),
          symbol: mount.symbol,
          line: mount.line,
          via: route.via,
        });
      }
    }
  }
  return added;
}

/**
 * The files with the routes their classes inherit from classes of other files added. Every file is
 * returned as it is when no file has an `inherits:` mount, or when its mounts add nothing.
 */
export function applyRouteInheritance(files: readonly IndexedFile[]): readonly IndexedFile[] {
  if (!files.some((file) => file.facts.contracts.some(isInheritsMount))) return files;
  const index = new ClassIndex(files);
  return files.map((file) => {
    if (!file.facts.contracts.some(isInheritsMount)) return file;
    const added = inheritedRoutes(index, file);
    if (added.length === 0) return file;
    return { ...file, facts: { ...file.facts, contracts: [...file.facts.contracts, ...added] } };
  });
}
