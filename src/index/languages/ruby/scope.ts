/**
 * Ruby scopes for value resolution: a pre-pass records the file's constants, each class's instance
 * variable assignments, each method's local assignments in source order, and the classes that include
 * HTTParty with their `base_uri`.
 */
import type { Node } from 'web-tree-sitter';
import { callArgs, type RubyValueScope } from './values.js';
import type { FoundSites, SiteQuery } from '../shared/site-walk.js';

const METHODS = new Set(['method', 'singleton_method']);
const CLASSES = new Set(['class', 'module']);
/** What the pre-pass reads: the file's assignments and class-body calls (`collectSites`). */
export const RUBY_SCOPE_SITES: SiteQuery = {
  sites: new Set(['assignment', 'call']),
  leaves: new Set(['comment', 'string', 'integer', 'simple_symbol']),
};

/** The innermost enclosing node of one of `types`, or null. */
export function enclosing(node: Node, types: ReadonlySet<string>): Node | null {
  for (let current = node.parent; current !== null; current = current.parent)
    if (types.has(current.type)) return current;
  return null;
}

export class RubyScopes {
  private readonly constants = new Map<string, Node>();
  /** Class node id → instance variable → assigned values. */
  private readonly instances = new Map<number, Map<string, Node[]>>();
  /** Method node id (0: outside methods) → local → assignments (end offset, value) in source order. */
  private readonly locals = new Map<number, Map<string, { end: number; value: Node }[]>>();
  /**
   * Every name assigned as a local or an instance variable anywhere in the file: a name never assigned has
   * no value, which is known without walking up to the enclosing method or class (each step up the tree
   * crosses into wasm, and calls on a variable are looked up by the thousand).
   */
  private readonly localNames = new Set<string>();
  private readonly instanceNames = new Set<string>();
  /** Classes including HTTParty, by name: the `base_uri` they declare (null: none). */
  readonly httparty = new Map<string, Node | null>();

  /** `found`: the sites of `RUBY_SCOPE_SITES`. */
  constructor(found: FoundSites) {
    found.nodes.forEach((site, index) => {
      if (found.types[index] === 'assignment') this.assignment(site);
      else this.classMacro(site);
    });
  }

  private assignment(node: Node): void {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (left === null || right === null) return;
    if (left.type === 'constant') {
      this.constants.set(left.text, right);
    } else if (left.type === 'instance_variable') {
      this.instanceNames.add(left.text);
      const cls = enclosing(node, CLASSES)?.id ?? 0;
      const variables = this.instances.get(cls) ?? new Map<string, Node[]>();
      this.instances.set(cls, variables);
      variables.set(left.text, [...(variables.get(left.text) ?? []), right]);
    } else if (left.type === 'identifier') {
      this.localNames.add(left.text);
      const method = enclosing(node, METHODS)?.id ?? 0;
      const variables = this.locals.get(method) ?? new Map<string, { end: number; value: Node }[]>();
      this.locals.set(method, variables);
      variables.set(left.text, [...(variables.get(left.text) ?? []), { end: node.endIndex, value: right }]);
    }
  }

  /** `include HTTParty` and `base_uri …` in a class body. */
  private classMacro(node: Node): void {
    if (node.childForFieldName('receiver') !== null) return;
    const method = node.childForFieldName('method')?.text;
    // Asked first: finding the enclosing class and method walks up the tree, for every call of the file.
    if (method !== 'include' && method !== 'base_uri') return;
    const cls = enclosing(node, CLASSES);
    const name = cls?.childForFieldName('name')?.text;
    if (name === undefined || enclosing(node, METHODS) !== null) return;
    const first = callArgs(node).positional[0];
    if (method === 'include' && first?.text === 'HTTParty' && !this.httparty.has(name))
      this.httparty.set(name, null);
    else if (method === 'base_uri' && first !== undefined) this.httparty.set(name, first);
  }

  /** The name of the class enclosing `node` when that class includes HTTParty. */
  httpartyClassAt(node: Node): string | undefined {
    for (let cls = enclosing(node, CLASSES); cls !== null; cls = enclosing(cls, CLASSES)) {
      const name = cls.childForFieldName('name')?.text;
      if (name !== undefined && this.httparty.has(name)) return name;
    }
    return undefined;
  }

  /** The value a variable (local or instance) holds where `node` is. */
  valueOf(node: Node): Node | undefined {
    const scope = this.scopeAt(node);
    if (node.type === 'identifier') return scope.local(node.text);
    if (node.type === 'instance_variable') return scope.instance(node.text);
    if (node.type === 'constant') return scope.constant(node.text);
    return undefined;
  }

  scopeAt(node: Node): RubyValueScope {
    return {
      local: (name) => {
        if (!this.localNames.has(name)) return undefined;
        const list = this.locals.get(enclosing(node, METHODS)?.id ?? 0)?.get(name) ?? [];
        let found: Node | undefined;
        for (const entry of list) if (entry.end < node.startIndex) found = entry.value;
        return found;
      },
      instance: (name) => {
        if (!this.instanceNames.has(name)) return undefined;
        const values = this.instances.get(enclosing(node, CLASSES)?.id ?? 0)?.get(name) ?? [];
        return values.length === 1 ? values[0] : undefined;
      },
      constant: (name) => this.constants.get(name),
      at: (other) => this.scopeAt(other),
    };
  }
}
