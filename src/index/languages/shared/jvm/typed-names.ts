/**
 * What a file declares about the types of its names, for reading call receivers: every parameter, local,
 * field and property with the source range it is visible in, and every class with its range and the class
 * it extends. Java, Kotlin, Scala and C# fill it from one `descendantsOfType` query over their declaration
 * nodes (each language's `declared-types.ts`); a call then asks what a name means at its offset.
 */
import type { Node } from 'web-tree-sitter';
import { bareTypeName } from '../call-sites.js';

/** A declared name, visible from `start` to `end` (source offsets). */
export interface TypedName {
  readonly name: string;
  /** The declared type as written, without type arguments; undefined when the declaration does not say. */
  readonly type: string | undefined;
  readonly start: number;
  readonly end: number;
  /** A field or property of a class (what `this.name` reads), not a parameter or local. */
  readonly member: boolean;
}

/** A class, interface, object or trait declared in the file. */
export interface DeclaredClass {
  readonly name: string;
  readonly start: number;
  readonly end: number;
  /** The class it extends when the file says which supertype that is (what `super.f()` calls). */
  readonly superclass: string | undefined;
}

export class TypedNames {
  private readonly byName = new Map<string, TypedName[]>();
  private readonly classes: DeclaredClass[] = [];
  /** Names of the classes declared in the file. */
  readonly classNames = new Set<string>();
  /** Type parameters (`<T>`): a variable of such a type has no type a declaration can be found for. */
  readonly typeParameters = new Set<string>();

  /** Declares `name` over `scope` from `from` on (default: the whole scope). */
  add(name: string, type: string | undefined, scope: Node, member: boolean, from = scope.startIndex): void {
    const entry: TypedName = { name, type: usableType(type), start: from, end: scope.endIndex, member };
    const list = this.byName.get(name);
    if (list === undefined) this.byName.set(name, [entry]);
    else list.push(entry);
  }

  addClass(name: string, node: Node, superclass: string | undefined): void {
    this.classes.push({ name, start: node.startIndex, end: node.endIndex, superclass });
    this.classNames.add(name);
  }

  /**
   * The declaration `name` refers to at `offset`: of those visible there, the one whose visibility starts
   * last is the innermost (a local after its enclosing method's parameters, those after the class's fields).
   */
  lookup(name: string, offset: number, membersOnly = false): TypedName | undefined {
    let best: TypedName | undefined;
    for (const entry of this.byName.get(name) ?? []) {
      if (entry.start > offset || entry.end <= offset || (membersOnly && !entry.member)) continue;
      if (best === undefined || entry.start >= best.start) best = entry;
    }
    return best;
  }

  /** The type of a name declared in the file, when its declaration says it and it is no type parameter. */
  typeOf(name: string, offset: number, membersOnly = false): string | undefined {
    const type = this.lookup(name, offset, membersOnly)?.type;
    return type === undefined || this.typeParameters.has(type) ? undefined : type;
  }

  /** The innermost class holding `offset`. */
  classAt(offset: number): DeclaredClass | undefined {
    let best: DeclaredClass | undefined;
    for (const cls of this.classes) {
      if (cls.start <= offset && offset < cls.end && (best === undefined || cls.start >= best.start))
        best = cls;
    }
    return best;
  }
}

/** A type name fit for a receiver type: `var`, `dynamic`, an empty or a function type tells nothing. */
function usableType(type: string | undefined): string | undefined {
  if (type === undefined) return undefined;
  const bare = bareTypeName(type);
  return /^[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)*$/u.test(bare) &&
    bare !== 'var' &&
    bare !== 'dynamic'
    ? bare
    : undefined;
}
