/**
 * C# scopes for contract resolution. A pre-pass over type declarations (not method bodies) records each
 * class's constants, string fields and client-typed fields, and what its constructors assign to fields, so
 * that a method may use a field declared below it. The walk then adds method locals in statement order.
 */
import type { Node } from 'web-tree-sitter';
import { bindingOfExpression, bindingOfType, declaredBinding, type CsBinding } from './contracts.js';
import { csDotted, kids, resolveCs, type CsValueScope } from './values.js';
import type { Parts } from '../shared/tree-utils.js';

export interface ClassInfo {
  readonly name: string;
  readonly parent?: ClassInfo;
  /** Fields and properties with a string-like initial value (null: assigned differently twice). */
  readonly values: Map<string, Parts | null>;
  readonly bindings: Map<string, CsBinding>;
  /** Every field and property name, whatever its type: a name that is a variable, never a type. */
  readonly members: Set<string>;
  /** The gRPC service a `X.XBase` subclass implements. */
  service?: string;
}

export interface CsFrame {
  readonly parent?: CsFrame;
  readonly cls?: ClassInfo;
  readonly locals: Map<string, CsBinding>;
  readonly values: Map<string, Parts | null>;
}

export const TYPE_DECLARATIONS = new Set([
  'class_declaration',
  'record_declaration',
  'struct_declaration',
  'interface_declaration',
  'enum_declaration',
]);

export function newCsFrame(parent?: CsFrame, cls?: ClassInfo): CsFrame {
  return { locals: new Map(), values: new Map(), ...(parent ? { parent } : {}), ...(cls ? { cls } : {}) };
}

function hasParts(parts: Parts): boolean {
  return parts.some((part) => part.t !== 'expr');
}

function remember(map: Map<string, Parts | null>, name: string, parts: Parts): void {
  const previous = map.get(name);
  const known = hasParts(parts) ? parts : null;
  map.set(
    name,
    previous === undefined
      ? known
      : previous !== null && JSON.stringify(previous) === JSON.stringify(known)
        ? previous
        : null,
  );
}

/** A variable declarator's name and initial value (`x = value`). */
export function declarator(node: Node): { readonly name?: Node; readonly value?: Node } {
  const name = node.childForFieldName('name') ?? undefined;
  const value = kids(node)
    .filter((child) => child.id !== name?.id && child.type !== 'bracketed_argument_list')
    .pop();
  return { ...(name ? { name } : {}), ...(value ? { value } : {}) };
}

export class CsScope {
  /** Classes by simple name; a name declared twice keeps the first (lookups are best effort). */
  readonly classes = new Map<string, ClassInfo>();
  /** Classes by declaration node id, for the walk. */
  readonly byNode = new Map<number, ClassInfo>();

  collect(node: Node, parent?: ClassInfo): void {
    for (const child of kids(node)) {
      if (TYPE_DECLARATIONS.has(child.type)) this.collectClass(child, parent);
      else if (child.type === 'namespace_declaration' || child.type === 'declaration_list')
        this.collect(child, parent);
      else if (child.type === 'file_scoped_namespace_declaration') this.collect(child, parent);
    }
  }

  private collectClass(node: Node, parent?: ClassInfo): void {
    const name = node.childForFieldName('name')?.text ?? '';
    const info: ClassInfo = {
      name,
      values: new Map(),
      bindings: new Map(),
      members: new Set(),
      ...(parent ? { parent } : {}),
    };
    if (!this.classes.has(name)) this.classes.set(name, info);
    this.byNode.set(node.id, info);
    const frame = newCsFrame(undefined, info);
    const scope = this.valueScope(frame);
    // A primary constructor's parameters are in scope in the whole type.
    for (const parameter of kids(kids(node).find((child) => child.type === 'parameter_list'))) {
      const binding = bindingOfType(parameter.childForFieldName('type'));
      const parameterName = parameter.childForFieldName('name')?.text;
      if (binding !== undefined && parameterName !== undefined) info.bindings.set(parameterName, binding);
    }
    for (const member of kids(node.childForFieldName('body'))) {
      if (TYPE_DECLARATIONS.has(member.type)) {
        this.collectClass(member, info);
      } else if (member.type === 'field_declaration' || member.type === 'event_field_declaration') {
        const declaration = kids(member).find((child) => child.type === 'variable_declaration');
        const typeBinding = bindingOfType(declaration?.childForFieldName('type'));
        for (const variable of kids(declaration).filter((child) => child.type === 'variable_declarator')) {
          const { name: nameNode, value } = declarator(variable);
          if (nameNode === undefined) continue;
          info.members.add(nameNode.text);
          const binding = declaredBinding(
            typeBinding,
            bindingOfExpression(value, { scope, lookup: () => undefined }),
          );
          if (binding !== undefined) info.bindings.set(nameNode.text, binding);
          if (value !== undefined) remember(info.values, nameNode.text, resolveCs(value, scope));
        }
      } else if (member.type === 'property_declaration') {
        const binding = bindingOfType(member.childForFieldName('type'));
        const propertyName = member.childForFieldName('name')?.text;
        if (propertyName !== undefined) info.members.add(propertyName);
        if (binding !== undefined && propertyName !== undefined) info.bindings.set(propertyName, binding);
      } else if (member.type === 'constructor_declaration') {
        this.collectConstructor(member, info, scope);
      }
    }
  }

  /** `_client = client;`, `_producer = new ProducerBuilder<…>(c).Build();`, `_base = Environment…;` */
  private collectConstructor(node: Node, info: ClassInfo, scope: CsValueScope): void {
    const parameters = new Map<string, CsBinding>();
    for (const parameter of kids(node.childForFieldName('parameters'))) {
      const binding = bindingOfType(parameter.childForFieldName('type'));
      const parameterName = parameter.childForFieldName('name')?.text;
      if (binding !== undefined && parameterName !== undefined) parameters.set(parameterName, binding);
    }
    for (const statement of kids(node.childForFieldName('body'))) {
      const assignment = statement.type === 'expression_statement' ? kids(statement)[0] : undefined;
      if (assignment?.type !== 'assignment_expression') continue;
      const target = csDotted(assignment.childForFieldName('left'))?.replace(/^this\./, '');
      const right = assignment.childForFieldName('right');
      if (target === undefined || target.includes('.') || right === null) continue;
      const binding = bindingOfExpression(right, { scope, lookup: (key) => parameters.get(key) });
      if (binding !== undefined) info.bindings.set(target, binding);
      if (right.type !== 'identifier' || !parameters.has(right.text))
        remember(info.values, target, resolveCs(right, scope));
    }
  }

  /** Value lookups from inside `frame`. */
  valueScope(frame: CsFrame): CsValueScope {
    return {
      name: (name) => {
        for (let current: CsFrame | undefined = frame; current !== undefined; current = current.parent) {
          const local = current.values.get(name);
          if (local !== undefined) return local ?? undefined;
          if (current.locals.has(name)) return undefined;
        }
        for (let cls = innermostClass(frame); cls !== undefined; cls = cls.parent) {
          const value = cls.values.get(name);
          if (value !== undefined) return value ?? undefined;
        }
        return undefined;
      },
      member: (owner, name) => {
        const cls = this.classes.get(owner.slice(owner.lastIndexOf('.') + 1));
        return cls?.values.get(name) ?? undefined;
      },
      foreignType: (path) => {
        const segments = path.split('.');
        if (!segments.every((segment) => /^\p{Lu}\w*$/u.test(segment))) return false;
        if (this.classes.has(segments.at(-1) ?? '')) return false;
        const first = segments[0] ?? '';
        for (let current: CsFrame | undefined = frame; current !== undefined; current = current.parent)
          if (current.values.has(first) || current.locals.has(first)) return false;
        for (let cls = innermostClass(frame); cls !== undefined; cls = cls.parent)
          if (cls.members.has(first) || cls.values.has(first) || cls.bindings.has(first)) return false;
        return true;
      },
    };
  }

  /** What `key` (`name` or `this.name`) holds, seen from `frame`. */
  lookup(frame: CsFrame, key: string): CsBinding | undefined {
    const name = key.startsWith('this.') ? key.slice(5) : key;
    if (!key.startsWith('this.')) {
      for (let current: CsFrame | undefined = frame; current !== undefined; current = current.parent) {
        const local = current.locals.get(name);
        if (local !== undefined) return local;
      }
    }
    for (let cls = innermostClass(frame); cls !== undefined; cls = cls.parent) {
      const binding = cls.bindings.get(name);
      if (binding !== undefined) return binding;
    }
    return undefined;
  }

  /** Records a local variable: its binding (if any) and its string value (or that it shadows one). */
  bindLocal(frame: CsFrame, name: string, binding: CsBinding | undefined, parts: Parts | undefined): void {
    if (binding !== undefined) frame.locals.set(name, binding);
    remember(frame.values, name, parts ?? []);
  }
}

export function innermostClass(frame: CsFrame): ClassInfo | undefined {
  for (let current: CsFrame | undefined = frame; current !== undefined; current = current.parent) {
    if (current.cls !== undefined) return current.cls;
  }
  return undefined;
}
