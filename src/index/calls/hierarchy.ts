/**
 * Type hierarchy over the declarations: who extends or implements a type (declared supertypes, followed
 * down), and — for languages whose interfaces are satisfied by method sets (Go) — which structs cover an
 * interface's methods. Declared links are `exact` as far as the supertype name resolved; structural ones
 * are `heuristic` (a struct may cover the names with other signatures).
 */
import type { Confidence } from '../facts.js';
import { languageSpec } from '../languages/registry.js';
import type { DeclarationTable, DeclId } from './declarations.js';
import type { CallResolver } from './resolve-call.js';

/** Whether a file's language lets any type with the interface's method names satisfy it. */
const structural = (language: string | undefined): boolean =>
  languageSpec(language)?.structuralInterfaces === true;

export interface Implementation {
  readonly type: DeclId;
  readonly confidence: Confidence;
}

/** Subtype lists per supertype, built once per declaration table. */
const subtypeIndex = new WeakMap<DeclarationTable, Map<DeclId, DeclId[]>>();

function subtypesOf(decls: DeclarationTable, resolver: CallResolver): Map<DeclId, DeclId[]> {
  let index = subtypeIndex.get(decls);
  if (index) return index;
  index = new Map();
  for (let id = 0; id < decls.size; id++) {
    if (!decls.symbolOf(id).supertypes) continue;
    for (const parent of resolver.supertypeDecls(id)) {
      const list = index.get(parent);
      if (list) list.push(id);
      else index.set(parent, [id]);
    }
  }
  subtypeIndex.set(decls, index);
  return index;
}

/** Types extending or implementing `type`, nearest first; for a Go interface, also the structs covering it. */
export function implementationsOf(
  decls: DeclarationTable,
  resolver: CallResolver,
  type: DeclId,
): Implementation[] {
  const found = new Map<DeclId, Confidence>();
  const subtypes = subtypesOf(decls, resolver);
  let level = [type];
  while (level.length > 0) {
    const next: DeclId[] = [];
    for (const parent of level)
      for (const child of subtypes.get(parent) ?? [])
        if (!found.has(child) && child !== type) {
          found.set(child, 'exact');
          next.push(child);
        }
    level = next;
  }
  for (const struct of structuralImplementations(decls, resolver, type))
    if (!found.has(struct)) found.set(struct, 'heuristic');
  return [...found.entries()].map(([id, confidence]) => ({ type: id, confidence }));
}

/**
 * The type declaration(s) a method belongs to: its enclosing type, else the types named like its owner that
 * its file can see (a Go method in another file than its struct). None for a function.
 */
function ownerTypes(decls: DeclarationTable, resolver: CallResolver, method: DeclId): DeclId[] {
  const file = decls.fileOf(method);
  const ownerName = decls.ownerOf(method);
  if (ownerName === undefined) return [];
  const ownerId = decls.enclosingType(file, decls.symbolOf(method).id);
  return ownerId !== undefined ? [ownerId] : resolver.visibleTypes(file, ownerName);
}

/** The methods one method overrides or implements: same name, in its type's supertypes or satisfied interfaces. */
export function overriddenMethods(decls: DeclarationTable, resolver: CallResolver, method: DeclId): DeclId[] {
  const symbol = decls.symbolOf(method);
  const owners = ownerTypes(decls, resolver, method);
  if (owners.length === 0) return [];
  const out = new Set<DeclId>();
  const seen = new Set<DeclId>(owners);
  let level = owners.flatMap((owner) => resolver.supertypeDecls(owner));
  while (level.length > 0) {
    const next: DeclId[] = [];
    for (const parent of level) {
      if (seen.has(parent)) continue;
      seen.add(parent);
      for (const m of resolver.methodsOfType(parent, symbol.name)) out.add(m);
      next.push(...resolver.supertypeDecls(parent));
    }
    level = next;
  }
  // Go: every workspace interface with this method name that the owner's method set covers.
  for (const candidate of decls.named(symbol.name)) {
    const iface = interfaceOwning(decls, candidate);
    if (iface === undefined || out.has(candidate)) continue;
    if (owners.some((owner) => structuralImplementations(decls, resolver, iface).includes(owner)))
      out.add(candidate);
  }
  return [...out];
}

/**
 * The methods that override or implement one method: the same name declared on the types implementing or
 * extending its type (declared or, for a Go interface, structural). A call bound to the method may run any
 * of them, so each comes with the weaker confidence of its type's link.
 */
export function overridingMethods(
  decls: DeclarationTable,
  resolver: CallResolver,
  method: DeclId,
): Implementation[] {
  const name = decls.symbolOf(method).name;
  const out = new Map<DeclId, Confidence>();
  for (const owner of ownerTypes(decls, resolver, method))
    for (const impl of implementationsOf(decls, resolver, owner))
      for (const m of resolver.methodsOfType(impl.type, name))
        if (m !== method && !out.has(m)) out.set(m, impl.confidence);
  return [...out.entries()].map(([id, confidence]) => ({ type: id, confidence }));
}

/** The interface declaring a method, when the method sits in an interface of a structural language. */
function interfaceOwning(decls: DeclarationTable, method: DeclId): DeclId | undefined {
  const file = decls.fileOf(method);
  if (!structural(file.language)) return undefined;
  const parent = decls.symbolOf(method).parent;
  if (parent === undefined || file.facts.symbols[parent]?.kind !== 'interface') return undefined;
  return decls.idOf(file, parent);
}

/** Structural implementations per interface, computed once per declaration table. */
const structuralIndex = new WeakMap<DeclarationTable, Map<DeclId, DeclId[]>>();

function structuralImplementations(decls: DeclarationTable, resolver: CallResolver, type: DeclId): DeclId[] {
  let known = structuralIndex.get(decls);
  if (!known) structuralIndex.set(decls, (known = new Map()));
  let found = known.get(type);
  if (!found) known.set(type, (found = coveringStructs(decls, resolver, type)));
  return found;
}

/** Go structs whose methods include every method name of the interface `type` (none for other types). */
function coveringStructs(decls: DeclarationTable, resolver: CallResolver, type: DeclId): DeclId[] {
  const file = decls.fileOf(type);
  const symbol = decls.symbolOf(type);
  if (symbol.kind !== 'interface' || !structural(file.language)) return [];
  const methods = file.facts.symbols
    .filter((s) => s.parent === symbol.id && s.kind === 'method')
    .map((s) => s.name);
  if (methods.length === 0) return [];
  const [first, ...rest] = methods as [string, ...string[]];
  const out: DeclId[] = [];
  for (const candidate of decls.named(first)) {
    const ownerName = decls.ownerOf(candidate);
    const candidateFile = decls.fileOf(candidate);
    if (ownerName === undefined || candidateFile.language !== file.language) continue;
    for (const struct of resolver.visibleTypes(candidateFile, ownerName)) {
      if (decls.symbolOf(struct).kind === 'interface' || out.includes(struct)) continue;
      if (rest.every((name) => resolver.methodsOfType(struct, name).length > 0)) out.push(struct);
    }
  }
  return out;
}
