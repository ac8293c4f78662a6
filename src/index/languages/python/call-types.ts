/**
 * What a Python file proves about the callees of its calls, gathered during the walk: the names its imports
 * bind (module aliases and names imported by name, with the import fact's exact `source`), the locals of
 * each scope with the type an annotation or a class call gives them, the types of `self.` attributes, and
 * the scope each call sits in. call-facts.ts reads them once the walk is done.
 */
import type { Node } from 'web-tree-sitter';
import { enclosingClass, type Frame } from './scope.js';
import { dotted } from './values.js';

/** A binding's type: declared by an annotation, or the callee of `x = T(…)`, a class only if T turns out one. */
export interface TypeEvidence {
  readonly name: string;
  readonly call?: true;
}

/** `from m import n as local`: the import fact's source and the name as `m` exports it. */
export interface NameImport {
  readonly source: string;
  readonly name: string;
}

/** `self.repo`: an attribute of the instance. */
const SELF_ATTRIBUTE = /^self\.(\w+)$/;

/** A dotted name written without spaces or calls (`Repo`, `models.Repo`). */
const DOTTED = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$/;

/** Names of `typing` wrappers whose argument is the type: `Optional[Repo]` holds a `Repo`. */
const WRAPPERS = new Set([
  'Optional',
  'typing.Optional',
  'Final',
  'typing.Final',
  'ClassVar',
  'typing.ClassVar',
]);

export class PyCallTypes {
  /** Receiver text → the import fact source it names: `c` for `import a.b as c`, `a.b` for `import a.b`. */
  readonly modules = new Map<string, string>();
  /** Local name → what `from … import` bound it to. */
  readonly names = new Map<string, NameImport>();
  /** Function and module scopes: local name → its type, null when unknown (it still hides an import). */
  private readonly locals = new WeakMap<Frame, Map<string, TypeEvidence | null>>();
  /** Class scopes: attribute (`self.repo`, or annotated in the class body) → its type, null when it varies. */
  private readonly attrs = new WeakMap<Frame, Map<string, TypeEvidence | null>>();
  /** Call node id → the scope it sits in. */
  readonly frames = new Map<number, Frame>();

  addImport(node: Node): void {
    if (node.type === 'import_statement') {
      for (const child of node.childrenForFieldName('name')) {
        if (child?.type === 'dotted_name') this.modules.set(child.text, child.text);
        else if (child?.type === 'aliased_import') {
          const source = child.childForFieldName('name')?.text;
          const alias = child.childForFieldName('alias')?.text;
          if (source !== undefined && alias !== undefined) this.modules.set(alias, source);
        }
      }
      return;
    }
    const source = node.childForFieldName('module_name')?.text;
    if (source === undefined) return;
    for (const child of node.childrenForFieldName('name')) {
      const name = child?.type === 'aliased_import' ? child.childForFieldName('name')?.text : child?.text;
      const local = child?.type === 'aliased_import' ? child.childForFieldName('alias')?.text : name;
      if (name !== undefined && local !== undefined) this.names.set(local, { source, name });
    }
  }

  parameter(frame: Frame, name: string, annotation: Node | null): void {
    const type = annotatedType(annotation);
    this.scopeOf(this.locals, frame).set(name, type === undefined ? null : { name: type });
  }

  /**
   * `x = T()`, `x: T = …`, `self.x = T()`, `self.x = typed_param`, `x: T` in a class body, and
   * `with T() as x` (`value` the expression bound, `annotation` its `: T`).
   */
  bind(frame: Frame, left: Node | null, value: Node | null, annotation: Node | null): void {
    if (left?.type === 'identifier') {
      const evidence = this.evidenceOf(frame, value, annotation);
      if (frame.kind === 'class') {
        if (evidence !== undefined) this.merge(this.scopeOf(this.attrs, frame), left.text, evidence);
      } else this.merge(this.scopeOf(this.locals, frame), left.text, evidence ?? null);
      return;
    }
    const attr = left?.type === 'attribute' ? SELF_ATTRIBUTE.exec(left.text)?.[1] : undefined;
    const owner = attr === undefined ? undefined : enclosingClass(frame);
    if (attr === undefined || owner === undefined) return;
    this.merge(this.scopeOf(this.attrs, owner), attr, this.evidenceOf(frame, value, annotation) ?? null);
  }

  noteCall(node: Node, frame: Frame): void {
    this.frames.set(node.id, frame);
  }

  /**
   * The local `name` as seen from `frame` (Python scoping: class bodies are not visible from their methods):
   * its type evidence, null for a local of unknown type, undefined when no scope of the file binds it.
   */
  local(frame: Frame | undefined, name: string): TypeEvidence | null | undefined {
    for (let current = frame; current !== undefined; current = current.parent) {
      if (current.kind === 'class') continue;
      const found = this.locals.get(current)?.get(name);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** The type of `self.<attr>` in the class around `frame`. */
  attr(frame: Frame | undefined, attr: string): TypeEvidence | undefined {
    const owner = enclosingClass(frame);
    return (owner === undefined ? undefined : this.attrs.get(owner)?.get(attr)) ?? undefined;
  }

  private evidenceOf(frame: Frame, right: Node | null, annotation: Node | null): TypeEvidence | undefined {
    const declared = annotatedType(annotation);
    if (declared !== undefined) return { name: declared };
    if (right?.type === 'identifier') return this.local(frame, right.text) ?? undefined;
    if (right?.type !== 'call') return undefined;
    const callee = right.childForFieldName('function');
    const name = callee?.type === 'identifier' || callee?.type === 'attribute' ? callee.text : '';
    return DOTTED.test(name) ? { name, call: true } : undefined;
  }

  /** A name bound twice to different types has none. */
  private merge(scope: Map<string, TypeEvidence | null>, name: string, evidence: TypeEvidence | null): void {
    const known = scope.get(name);
    scope.set(name, known === undefined || sameEvidence(known, evidence) ? evidence : null);
  }

  private scopeOf(
    table: WeakMap<Frame, Map<string, TypeEvidence | null>>,
    frame: Frame,
  ): Map<string, TypeEvidence | null> {
    let scope = table.get(frame);
    if (scope === undefined) table.set(frame, (scope = new Map()));
    return scope;
  }
}

function sameEvidence(a: TypeEvidence | null, b: TypeEvidence | null): boolean {
  return a === b || (a !== null && b !== null && a.name === b.name && a.call === b.call);
}

/**
 * The class an annotation names: `Repo`, `db.Repo`, `"Repo"`, `Optional[Repo]`, `Repo | None`; a generic
 * (`List[Repo]`) is its own type (`List`).
 */
export function annotatedType(node: Node | null | undefined): string | undefined {
  const type = node?.type === 'type' ? node.firstNamedChild : node;
  if (type === null || type === undefined) return undefined;
  switch (type.type) {
    case 'identifier':
    case 'attribute':
      return dotted(type);
    case 'string': {
      const text = type.text.replace(/^[rRbBuU]?(['"]{1,3})([\s\S]*)\1$/, '$2').trim();
      return /^[A-Za-z_][\w.]*$/.test(text) ? text : undefined;
    }
    case 'generic_type': {
      const name = type.firstNamedChild;
      const argument = type.namedChildren.find((c) => c?.type === 'type_parameter')?.firstNamedChild;
      return WRAPPERS.has(name?.text ?? '') ? annotatedType(argument) : annotatedType(name);
    }
    case 'subscript': {
      const value = type.childForFieldName('value');
      return WRAPPERS.has(dotted(value) ?? '')
        ? annotatedType(type.childForFieldName('subscript'))
        : annotatedType(value);
    }
    case 'binary_operator': {
      // `Repo | None`: the one side that is not None.
      const sides = [type.childForFieldName('left'), type.childForFieldName('right')].filter(
        (side) => side !== null && side.type !== 'none',
      );
      return sides.length === 1 ? annotatedType(sides[0]) : undefined;
    }
    default:
      return undefined;
  }
}
