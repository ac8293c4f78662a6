/**
 * PHP scopes for value resolution: a pre-pass records each function's variable assignments in source
 * order, the declared types of parameters and properties, each class's constants and what its properties
 * hold (default or constructor assignment), and the file's global constants (`const X`, `define('X', …)`).
 */
import type { Node } from 'web-tree-sitter';
import { argumentsOf, named, phpLiteral, type PhpValueScope } from './values.js';
import type { FoundSites, SiteQuery } from '../shared/site-walk.js';

const FUNCTIONS = new Set([
  'anonymous_function',
  'arrow_function',
  'function_definition',
  'method_declaration',
]);
/** What the pre-pass reads (`collectSites`). */
export const PHP_SCOPE_SITES: SiteQuery = {
  sites: new Set([
    'class_declaration',
    'const_declaration',
    'property_declaration',
    'assignment_expression',
    'function_call_expression',
    ...FUNCTIONS,
  ]),
  leaves: new Set(['comment', 'string', 'name', 'integer']),
};

interface ClassInfo {
  readonly constants: Map<string, Node>;
  readonly properties: Map<string, Node>;
  /** Declared types of properties and promoted constructor parameters, without a leading `\`. */
  readonly types: Map<string, string>;
}

/** The innermost enclosing node of one of `types`, or null. */
export function enclosing(node: Node, types: ReadonlySet<string>): Node | null {
  for (let current = node.parent; current !== null; current = current.parent)
    if (types.has(current.type)) return current;
  return null;
}

const CLASSES = new Set(['class_declaration', 'trait_declaration', 'enum_declaration']);

export class PhpScopes {
  private readonly classes = new Map<string, ClassInfo>();
  private readonly globals = new Map<string, Node>();
  /** Per function node id (0: the file's top level): variable → assigned values in source order. */
  private readonly assignments = new Map<number, Map<string, { at: number; value: Node }[]>>();
  /** Per function node id: parameter → declared type. */
  private readonly parameterTypes = new Map<number, Map<string, string>>();

  /** `found`: the sites of `PHP_SCOPE_SITES`. */
  constructor(found: FoundSites) {
    found.nodes.forEach((site, index) => this.record(site, found.types[index] as string));
  }

  private classOf(node: Node): ClassInfo | undefined {
    const cls = enclosing(node, CLASSES);
    const name = cls?.childForFieldName('name')?.text;
    if (name === undefined) return undefined;
    let info = this.classes.get(name);
    if (info === undefined) {
      info = { constants: new Map(), properties: new Map(), types: new Map() };
      this.classes.set(name, info);
    }
    return info;
  }

  private record(node: Node, type: string): void {
    if (type === 'const_declaration') {
      const target = this.classOf(node)?.constants ?? this.globals;
      for (const element of named(node).filter((child) => child.type === 'const_element')) {
        const [name, value] = named(element);
        if (name !== undefined && value !== undefined) target.set(name.text, value);
      }
    } else if (type === 'property_declaration') {
      const info = this.classOf(node);
      const declared = node.childForFieldName('type')?.text.replace(/^\??\\?/, '');
      for (const element of named(node).filter((child) => child.type === 'property_element')) {
        const [name, value] = named(element);
        const key = name?.text.replace(/^\$/, '') ?? '';
        if (value !== undefined) info?.properties.set(key, value);
        if (declared !== undefined) info?.types.set(key, declared);
      }
    } else if (type === 'function_call_expression') {
      const [name, value] = argumentsOf(node);
      const key = phpLiteral(name);
      if (node.childForFieldName('function')?.text === 'define' && key !== undefined && value !== undefined)
        this.globals.set(key, value);
    } else if (type === 'assignment_expression') {
      this.assignment(node);
    } else if (FUNCTIONS.has(type)) {
      this.parameters(node);
    }
  }

  private assignment(node: Node): void {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (left === null || right === null) return;
    const fn = enclosing(node, FUNCTIONS);
    if (left.type === 'variable_name') {
      const key = fn?.id ?? 0;
      const variables = this.assignments.get(key) ?? new Map<string, { at: number; value: Node }[]>();
      this.assignments.set(key, variables);
      const list = variables.get(left.text) ?? [];
      list.push({ at: node.endIndex, value: right });
      variables.set(left.text, list);
    } else if (
      left.type === 'member_access_expression' &&
      left.childForFieldName('object')?.text === '$this' &&
      fn?.childForFieldName('name')?.text === '__construct'
    ) {
      this.classOf(node)?.properties.set(left.childForFieldName('name')?.text ?? '', right);
    }
  }

  private parameters(node: Node): void {
    const types = new Map<string, string>();
    for (const parameter of named(node.childForFieldName('parameters'))) {
      const name = parameter.childForFieldName('name')?.text;
      const declared = parameter.childForFieldName('type')?.text.replace(/^\??\\?/, '');
      if (name === undefined || declared === undefined) continue;
      types.set(name, declared);
      if (parameter.type === 'property_promotion_parameter')
        this.classOf(node)?.types.set(name.replace(/^\$/, ''), declared);
    }
    this.parameterTypes.set(node.id, types);
  }

  /** The declared type of a variable (its parameter's) or of `$this->x` (its property's), where `node` is. */
  typeOf(node: Node): string | undefined {
    if (node.type === 'variable_name') {
      for (let fn = enclosing(node, FUNCTIONS); fn !== null; fn = enclosing(fn, FUNCTIONS)) {
        const type = this.parameterTypes.get(fn.id)?.get(node.text);
        if (type !== undefined) return type;
        if (fn.type !== 'anonymous_function' && fn.type !== 'arrow_function') break;
      }
      return undefined;
    }
    if (node.type === 'member_access_expression' && node.childForFieldName('object')?.text === '$this')
      return this.classOf(node)?.types.get(node.childForFieldName('name')?.text ?? '');
    return undefined;
  }

  /** The value `$name` or `$this->name` holds where `node` is, as the node written for it. */
  valueOf(node: Node): Node | undefined {
    if (node.type === 'variable_name') return this.variableAt(node, node.text);
    if (node.type === 'member_access_expression' && node.childForFieldName('object')?.text === '$this')
      return this.classOf(node)?.properties.get(node.childForFieldName('name')?.text ?? '');
    return undefined;
  }

  private variableAt(at: Node, name: string): Node | undefined {
    const fn = enclosing(at, FUNCTIONS);
    const list = this.assignments.get(fn?.id ?? 0)?.get(name) ?? [];
    // The last assignment ended before the use (`$u = $u . "/x"` reads the one before); a later one is none.
    let found: Node | undefined;
    for (const entry of list) if (entry.at < at.startIndex) found = entry.value;
    return found;
  }

  /** Value lookups as seen from `node`. */
  scopeAt(node: Node): PhpValueScope {
    return {
      variable: (name) => this.variableAt(node, name),
      property: (name) => this.classOf(node)?.properties.get(name),
      constant: (owner, name) => {
        if (owner === '') return this.globals.get(name);
        const info =
          owner === undefined ? this.classOf(node) : this.classes.get(owner.split('\\').pop() ?? '');
        return info?.constants.get(name);
      },
      at: (other) => this.scopeAt(other),
    };
  }
}
