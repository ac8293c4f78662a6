/**
 * Receiver typing for the call sites of Go, Rust, C and C++: the names each function binds (parameters,
 * locals) with the type the file proves for them, read once per function and only for functions whose
 * calls ask. A name bound twice with different types (or once without a type) has no type: shadowing is
 * not followed, so a name the file does not pin down stays unknown rather than guessed.
 *
 * The binding nodes ride along in the call collector's one query (`bindingSyntax`): it meets them in
 * pre-order, so a declaration is recorded before the calls below it read it, and no second walk is paid.
 */
import type { Node } from 'web-tree-sitter';
import type { CallSyntax } from './call-sites.js';

/** A binding's type, or how to read it when a call first asks (most bound names are never called on). */
export type BoundType = string | (() => string | undefined) | undefined;

/** Names bound in one function: name → the type every binding agrees on, or none. */
export class BoundNames {
  /** One binding's type, several bindings' types, or the type they were read to agree on. */
  private readonly types = new Map<string, BoundType | BoundType[]>();

  bind(name: string, type: BoundType): void {
    if (name === '' || name === '_') return;
    if (!this.types.has(name)) {
      this.types.set(name, type);
      return;
    }
    const known = this.types.get(name);
    if (Array.isArray(known)) known.push(type);
    else this.types.set(name, [known, type]);
  }

  /** Whether the function binds the name at all (a local hides a package, a callable local is no declaration). */
  has(name: string): boolean {
    return this.types.has(name);
  }

  typeOf(name: string): string | undefined {
    const entry = this.types.get(name);
    if (typeof entry === 'string' || entry === undefined) return entry;
    let agreed: string | undefined;
    for (const type of Array.isArray(entry) ? entry : [entry]) {
      const read = typeof type === 'function' ? type() : type;
      if (read === undefined || (agreed !== undefined && read !== agreed)) {
        agreed = undefined;
        break;
      }
      agreed = read;
    }
    this.types.set(name, agreed);
    return agreed;
  }
}

interface Range<T> {
  readonly start: number;
  readonly end: number;
  readonly node: Node;
  read?: T;
}

/**
 * The functions of a file by source range; the innermost one holding an offset gives what `read` learns
 * of it (the names it binds, its receiver), read on first use.
 */
export class FunctionScopes<T> {
  private readonly ranges: Range<T>[];

  constructor(
    nodes: readonly Node[],
    private readonly read: (fn: Node) => T,
  ) {
    this.ranges = nodes
      .map((node) => ({ start: node.startIndex, end: node.endIndex, node }))
      .sort((a, b) => a.start - b.start || b.end - a.end);
  }

  /** What the innermost function around `offset` binds; undefined outside every function. */
  at(offset: number): T | undefined {
    const range = this.innermost(offset);
    if (range === undefined) return undefined;
    range.read ??= this.read(range.node);
    return range.read;
  }

  private innermost(offset: number): Range<T> | undefined {
    // The last range starting at or before the offset, then back to the first that still holds it.
    let low = 0;
    let high = this.ranges.length - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if ((this.ranges[mid]?.start ?? Infinity) <= offset) {
        found = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    for (let i = found; i >= 0; i--) {
      const range = this.ranges[i];
      if (range !== undefined && range.end > offset) return range;
    }
    return undefined;
  }
}

/**
 * Readers for node types that bind names: each records through `bind` and yields no call. Spread into a
 * language's `CallSyntax` next to its call readers.
 */
export function bindingSyntax(types: readonly string[], bind: (node: Node) => void): CallSyntax {
  const read = (node: Node): undefined => {
    bind(node);
    return undefined;
  };
  return Object.fromEntries(types.map((type) => [type, read]));
}
