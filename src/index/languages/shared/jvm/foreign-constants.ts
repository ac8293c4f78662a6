/**
 * JVM string constants that cross files, shared by Java and Kotlin: both export their reachable string
 * constants as `jv:` properties and write a destination naming a constant the file cannot see as a
 * `${jv:…}` placeholder, so a Java file and a Kotlin file resolve each other's constants through one
 * graph rule (`graph/java-constants.ts`).
 */
import type { Node } from 'web-tree-sitter';
import type { ValueResolver } from './annotations.js';

/** Properties are shown like configuration: names that usually hold credentials stay out. */
const SECRET_NAME = /passw|secret|token|credential|api_?key|private_?key|auth/i;
const MAX_VALUE = 256;

/** The property fact key of a constant: `jv:<package>.<classes>.<NAME>`. */
export const constantKey = (owner: string | undefined, name: string): string =>
  owner === undefined || owner === '' ? `jv:${name}` : `jv:${owner}.${name}`;

/** Whether a constant's name and value may be shown as a property. */
export const exportable = (name: string, value: string): boolean =>
  !SECRET_NAME.test(name) && value.length <= MAX_VALUE;

/** The placeholder of a reference to another file's constant, as the code spells it or qualified. */
export const foreignPlaceholder = (ref: string): string => `\${jv:${ref}}`;

/** A destination that names another file's constant is a placeholder: `heuristic`, never `exact`. */
export const isForeignConstant = (topic: string): boolean => topic.startsWith('${jv:');

/**
 * A resolver for topic destinations: what the file resolves itself, else a constant of another file as
 * its `${jv:…}` placeholder (each element of an array alike).
 */
export class DestinationResolver implements ValueResolver {
  constructor(
    private readonly own: ValueResolver & { string(node: Node): string | undefined },
    /** The placeholder for a reference to another file's constant, or undefined. */
    private readonly foreign: (node: Node) => string | undefined,
    /** The elements of an array or collection expression; undefined for anything else. */
    private readonly elements: (node: Node) => readonly Node[] | undefined,
  ) {}

  /** One destination: what the file resolves itself, else another file's constant as a placeholder. */
  string(node: Node): string | undefined {
    return this.own.string(node) ?? this.foreign(node);
  }

  strings(node: Node): readonly string[] | undefined {
    const own = this.own.strings(node);
    if (own !== undefined) return own;
    const elements = this.elements(node);
    if (elements !== undefined) {
      const out: string[] = [];
      for (const element of elements) {
        const values = this.strings(element);
        if (values === undefined) return undefined;
        out.push(...values);
      }
      return out;
    }
    const foreign = this.foreign(node);
    return foreign === undefined ? undefined : [foreign];
  }

  names(node: Node): readonly string[] {
    return this.own.names(node);
  }
}
