/**
 * What a Python file binds, for contract resolution: import aliases (where a name comes from), module and
 * class constants (gathered before the main walk, since a function may use a constant declared below
 * it), and the frames of the walk (which variable or `self.` attribute holds a stub, a producer, a client).
 */
import type { Node } from 'web-tree-sitter';
import type { Binding, Origin } from './contracts.js';
import { callArguments, dotted, resolveParts, type ValueScope } from './values.js';
import { topicOf, type Parts } from '../shared/tree-utils.js';

interface Alias {
  readonly module: string;
  /** For `from m import x`: the name as exported by `m`. */
  readonly original?: string;
}

export interface Frame {
  readonly kind: 'module' | 'class' | 'function';
  readonly parent?: Frame;
  /** Names bound in this scope. */
  readonly bindings: Map<string, Binding>;
  /** Class frames: `self.x` attributes bound anywhere in the class. */
  readonly attrs: Map<string, Binding>;
  /** Function frames: local names assigned a string-like value; null when assigned twice differently. */
  readonly strings: Map<string, Parts | null>;
  /** Class frames: the dotted class name inside the file. */
  readonly className?: string;
  /** Class frames: the gRPC service a `*Servicer` subclass implements. */
  readonly servicer?: string;
}

export function newFrame(kind: Frame['kind'], parent?: Frame, extra: Partial<Frame> = {}): Frame {
  return {
    kind,
    bindings: new Map(),
    attrs: new Map(),
    strings: new Map(),
    ...extra,
    ...(parent ? { parent } : {}),
  };
}

function joinModule(module: string, name: string): string {
  return module.endsWith('.') ? `${module}${name}` : `${module}.${name}`;
}

/** The file-wide tables: imports, module constants, class constants. */
export class PyScope {
  private readonly aliases = new Map<string, Alias>();
  private readonly constants = new Map<string, Parts | null>();
  private readonly classConstants = new Map<string, Map<string, Parts>>();
  /** Class → `self.` field → the value its methods assign it (null when they assign different ones). */
  private readonly instanceFields = new Map<string, Map<string, Parts | null>>();
  /** Annotated fields of same-file model classes (pydantic, dataclasses): field → the classes declaring it. */
  private readonly modelFields = new Map<string, Set<string>>();
  /** `Class.field` → the value every `Class(field=…)` call of the file passes; null when they differ. */
  private readonly fieldValues = new Map<string, Parts | null>();
  /** The module while `collectFieldValues` has yet to run: only a URL reading a model field needs it. */
  private root: Node | undefined;

  /** Records the names an import statement binds. */
  addImportAliases(node: Node): void {
    if (node.type === 'import_statement') {
      for (const child of node.childrenForFieldName('name')) {
        if (child?.type === 'dotted_name') {
          const first = child.text.split('.')[0] ?? child.text;
          this.aliases.set(first, { module: first });
        } else if (child?.type === 'aliased_import') {
          const alias = child.childForFieldName('alias')?.text;
          const module = child.childForFieldName('name')?.text;
          if (alias !== undefined && module !== undefined) this.aliases.set(alias, { module });
        }
      }
      return;
    }
    const module = node.childForFieldName('module_name')?.text;
    if (module === undefined) return;
    for (const child of node.childrenForFieldName('name')) {
      if (child?.type === 'dotted_name') this.aliases.set(child.text, { module, original: child.text });
      else if (child?.type === 'aliased_import') {
        const alias = child.childForFieldName('alias')?.text;
        const original = child.childForFieldName('name')?.text;
        if (alias !== undefined && original !== undefined) this.aliases.set(alias, { module, original });
      }
    }
  }

  /** Where a dotted name used in the file comes from. */
  originOf(path: string): Origin {
    const segments = path.split('.');
    const first = segments[0] ?? path;
    const alias = this.aliases.get(first);
    const name = segments[segments.length - 1] ?? path;
    if (segments.length === 1) {
      return alias?.original === undefined
        ? { name, qualified: false }
        : { module: alias.module, name: alias.original, qualified: false };
    }
    if (alias === undefined) return { name, qualified: true };
    const base = alias.original === undefined ? alias.module : joinModule(alias.module, alias.original);
    return { module: [base, ...segments.slice(1, -1)].join('.'), name, qualified: true };
  }

  /** True when the file imports `root` or one of its submodules. */
  importsModule(root: string): boolean {
    for (const alias of this.aliases.values())
      if (alias.module === root || alias.module.startsWith(`${root}.`)) return true;
    return false;
  }

  /**
   * True when the file imports `path` or a module under it, however the import is written: `import
   * paho.mqtt.client as mqtt`, `from google.cloud import pubsub_v1`, `from kombu import Queue`.
   */
  importsModulePath(path: string): boolean {
    for (const alias of this.aliases.values()) {
      const full = alias.original === undefined ? alias.module : joinModule(alias.module, alias.original);
      for (const imported of [alias.module, full])
        if (imported === path || imported.startsWith(`${path}.`)) return true;
    }
    return false;
  }

  /** True when `name` is bound by an import (a name the file did not define itself). */
  isImported(name: string): boolean {
    return this.aliases.has(name);
  }

  /** Gathers module-level imports and constants and class constants, in source order. */
  collect(root: Node): void {
    const scope = this.valueScope();
    const visit = (node: Node): void => {
      for (const child of node.namedChildren) {
        if (child === null) continue;
        switch (child.type) {
          case 'import_statement':
          case 'import_from_statement':
            this.addImportAliases(child);
            break;
          case 'expression_statement': {
            const assignment = child.namedChildren[0];
            if (assignment?.type !== 'assignment') break;
            const left = assignment.childForFieldName('left');
            const right = assignment.childForFieldName('right');
            if (left?.type !== 'identifier' || right === null) break;
            const parts = resolveParts(right, scope);
            const previous = this.constants.get(left.text);
            this.constants.set(left.text, previous === undefined ? parts : samePartsOrNull(previous, parts));
            break;
          }
          case 'decorated_definition': {
            const definition = child.childForFieldName('definition');
            if (definition?.type === 'class_definition') this.collectClass(definition, scope);
            break;
          }
          case 'class_definition':
            this.collectClass(child, scope);
            break;
          case 'if_statement':
          case 'elif_clause':
          case 'else_clause':
          case 'try_statement':
          case 'except_clause':
          case 'finally_clause':
          case 'block':
            visit(child);
            break;
          default:
            break;
        }
      }
    };
    visit(root);
    if (this.modelFields.size > 0) this.root = root;
  }

  /**
   * `ChatUiConfig(agentBaseUrl=f"http://{os.getenv('AGENT_HOST')}/prompt")`: what a model class's fields
   * are built with, when the value is self-contained (literals and env reads, no variables).
   */
  private collectFieldValues(root: Node): void {
    this.root = undefined;
    const plain: ValueScope = { name: () => undefined, member: () => undefined };
    const classes = new Set([...this.modelFields.values()].flatMap((set) => [...set]));
    for (const call of root.descendantsOfType('call')) {
      const callee = call?.childForFieldName('function');
      if (call === null || callee?.type !== 'identifier' || !classes.has(callee.text)) continue;
      for (const [field, value] of callArguments(call.childForFieldName('arguments')).keywords) {
        if (!this.modelFields.get(field)?.has(callee.text)) continue;
        const parts = resolveParts(value, plain);
        const key = `${callee.text}.${field}`;
        const known = parts.some((part) => part.t === 'expr') ? null : parts;
        const previous = this.fieldValues.get(key);
        this.fieldValues.set(
          key,
          previous === undefined ? known : known === null ? null : samePartsOrNull(previous, known),
        );
      }
    }
  }

  private collectClass(node: Node, scope: ValueScope): void {
    const name = node.childForFieldName('name')?.text;
    const body = node.childForFieldName('body');
    if (name === undefined || body === null) return;
    const bases = node.childForFieldName('superclasses')?.namedChildren ?? [];
    const isEnum = bases.some((base) => /Enum$|^(enum\.)?(Int)?Flag$/.test(dotted(base) ?? ''));
    const members = new Map<string, Parts>();
    for (const statement of body.namedChildren) {
      const assignment = statement?.type === 'expression_statement' ? statement.namedChildren[0] : undefined;
      if (assignment?.type !== 'assignment') continue;
      const left = assignment.childForFieldName('left');
      const right = assignment.childForFieldName('right');
      if (left?.type === 'identifier' && assignment.childForFieldName('type') !== null) {
        const owners = this.modelFields.get(left.text) ?? new Set<string>();
        this.modelFields.set(left.text, owners.add(name));
      }
      if (left?.type !== 'identifier' || right === null) continue;
      const parts = resolveParts(right, scope);
      // An enum member without a string value is known by its name (`ORDER_CREATED = auto()`).
      members.set(left.text, isEnum && topicOf(parts) === undefined ? [{ t: 'lit', v: left.text }] : parts);
    }
    this.classConstants.set(name, members);
    this.collectInstanceFields(name, body);
  }

  /**
   * `self.base_url = os.environ["ORDERS_URL"]` in a method (usually `__init__`): what the instance field
   * holds, read with the method's own earlier locals; a field assigned two different values holds none.
   */
  private collectInstanceFields(className: string, body: Node): void {
    const fields = new Map<string, Parts | null>();
    for (const statement of body.namedChildren) {
      const method =
        statement?.type === 'decorated_definition' ? statement.childForFieldName('definition') : statement;
      if (method?.type !== 'function_definition') continue;
      const locals = new Map<string, Parts>();
      const scope: ValueScope = {
        name: (local) => locals.get(local) ?? this.constants.get(local) ?? undefined,
        member: (owner, member) => this.classConstants.get(owner)?.get(member),
      };
      for (const assignment of method.descendantsOfType('assignment')) {
        const left = assignment?.childForFieldName('left');
        const right = assignment?.childForFieldName('right');
        if (left === null || left === undefined || right === null || right === undefined) continue;
        if (left.type === 'identifier') locals.set(left.text, resolveParts(right, scope));
        const path = dotted(left);
        if (path === undefined || !path.startsWith('self.') || path.split('.').length !== 2) continue;
        const parts = resolveParts(right, scope);
        const field = path.slice(5);
        const previous = fields.get(field);
        fields.set(field, previous === undefined ? parts : samePartsOrNull(previous, parts));
      }
    }
    this.instanceFields.set(className, fields);
  }

  /**
   * Value lookups from inside `frame` (or at module level when absent). With `fieldFlow` (URLs only), a
   * field read on some object (`self.config.agent_url`) takes the value the file builds that field's only
   * model class with, and marks the result inferred.
   */
  valueScope(frame?: Frame, fieldFlow = false): ValueScope {
    const used = { inferred: false };
    const fieldValue = (owner: string, name: string): Parts | undefined => {
      const classes = this.modelFields.get(name);
      const first = owner.split('.')[0] ?? owner;
      if (classes?.size !== 1 || owner === 'self' || owner === 'cls' || this.aliases.has(first))
        return undefined;
      if (this.root !== undefined) this.collectFieldValues(this.root);
      const parts = this.fieldValues.get(`${[...classes][0] ?? ''}.${name}`) ?? undefined;
      if (parts !== undefined) used.inferred = true;
      return parts;
    };
    return {
      used,
      name: (name) => {
        for (let current = frame; current !== undefined; current = current.parent) {
          if (current.kind !== 'function') continue;
          const local = current.strings.get(name);
          if (local !== undefined) return local ?? undefined;
        }
        return this.constants.get(name) ?? undefined;
      },
      member: (owner, name) => {
        const own = owner === 'self' || owner === 'cls';
        const className = own ? enclosingClass(frame)?.className : owner;
        const constant = className === undefined ? undefined : this.classConstants.get(className)?.get(name);
        const field =
          own && className !== undefined
            ? (this.instanceFields.get(className)?.get(name) ?? undefined)
            : undefined;
        return constant ?? field ?? (fieldFlow ? fieldValue(owner, name) : undefined);
      },
    };
  }
}

function samePartsOrNull(a: Parts | null, b: Parts): Parts | null {
  return a !== null && JSON.stringify(a) === JSON.stringify(b) ? a : null;
}

export function enclosingClass(frame: Frame | undefined): Frame | undefined {
  for (let current = frame; current !== undefined; current = current.parent) {
    if (current.kind === 'class') return current;
  }
  return undefined;
}

/** A receiver key: `name` or `self.attr`; undefined for other shapes. */
export function receiverKey(node: Node | null): string | undefined {
  if (node?.type === 'identifier') return node.text;
  const path = dotted(node);
  if (path === undefined) return undefined;
  const [owner, attr, ...rest] = path.split('.');
  return (owner === 'self' || owner === 'cls') && attr !== undefined && rest.length === 0
    ? `self.${attr}`
    : undefined;
}

/** What `key` holds, seen from `frame` (Python scoping: class bodies are not visible from methods). */
export function lookupBinding(frame: Frame, key: string): Binding | undefined {
  if (key.startsWith('self.')) {
    const owner = enclosingClass(frame);
    const attr = key.slice(5);
    return owner?.attrs.get(attr) ?? owner?.bindings.get(attr);
  }
  for (let current: Frame | undefined = frame; current !== undefined; current = current.parent) {
    if (current.kind === 'class' && current !== frame) continue;
    const found = current.bindings.get(key);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Records a local assignment so that `topic = "x"; produce(topic)` resolves, and so that a local name
 * assigned anything else (or a parameter, with no parts) shadows a module constant of the same name.
 */
export function recordLocal(frame: Frame, name: string, parts?: Parts): void {
  if (frame.kind !== 'function') return;
  const known = parts !== undefined && parts.some((part) => part.t !== 'expr') ? parts : null;
  const previous = frame.strings.get(name);
  frame.strings.set(
    name,
    previous === undefined || known === null ? known : samePartsOrNull(previous, known),
  );
}
