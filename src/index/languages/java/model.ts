/**
 * What the Java declaration walk learns that contract detection needs: classes with their fields and
 * annotations, per-body scopes (parameters and locals), same-file constants, and the call sites found in
 * bodies. Nodes are only held while one file is extracted.
 */
import type { Node } from 'web-tree-sitter';
import { lastSegment, unescapeJvm } from '../shared/jvm/common.js';
import { oneLine } from '../shared/tree-utils.js';
import { type AnnotationInfo, type ValueResolver } from '../shared/jvm/annotations.js';

export interface JavaVar {
  readonly name: string;
  /** Declared type without type arguments (`KafkaTemplate`, `PaymentServiceGrpc.PaymentServiceBlockingStub`); undefined for `var`. */
  readonly type: string | undefined;
  readonly init: Node | undefined;
  readonly isParam: boolean;
  readonly annotations: readonly AnnotationInfo[];
  /** The field's symbol, for facts attributed to a field declaration. */
  readonly symbol?: number;
  readonly line: number;
  /** Values assigned after the declaration (`this.stub = …` in a constructor), with the scope they were written in. */
  readonly assigned: { readonly node: Node; readonly scope: JavaScope }[];
  /** Memo of the stub service this variable holds (`null`: none), filled on first use. */
  stub?: string | null;
}

export type JavaClassKind = 'class' | 'interface' | 'enum' | 'record' | 'annotation';

export interface JavaMethod {
  readonly id: number;
  readonly name: string;
  readonly line: number;
  readonly annotations: readonly AnnotationInfo[];
  readonly keywords: ReadonlySet<string>;
  readonly isConstructor: boolean;
  /** Declared return type without type arguments (`Consumer` for `Consumer<Order>`). */
  readonly returnType: string | undefined;
  /** Type of the last parameter, without type arguments (`StreamObserver`). */
  readonly lastParamType: string | undefined;
  /** Parameter names in order, for reading what a helper returns for given arguments. */
  readonly params: readonly string[];
  /** The body (held while the file is extracted); undefined for abstract and interface methods. */
  readonly body: Node | undefined;
  /** The body's scope: its parameters and locals. */
  readonly scope: JavaScope;
}

export interface JavaClass {
  readonly id: number;
  readonly name: string;
  readonly qualified: string;
  readonly kind: JavaClassKind;
  readonly nameLine: number;
  readonly outer: JavaClass | undefined;
  readonly annotations: readonly AnnotationInfo[];
  readonly superclass: string | undefined;
  readonly interfaces: readonly string[];
  /** Implemented or extended interfaces as written, type arguments included (`JpaRepository<Person, Long>`). */
  readonly interfacesWritten: readonly string[];
  readonly fields: Map<string, JavaVar>;
  readonly methods: JavaMethod[];
}

export interface JavaScope {
  readonly cls: JavaClass;
  /** The symbol facts found in this body are attributed to (method, constructor, field, or class). */
  readonly symbol: number;
  readonly vars: Map<string, JavaVar>;
}

export interface JavaSite {
  readonly node: Node;
  readonly scope: JavaScope;
  /** For a `method_invocation`: its name (read once; every detector looks at it). */
  readonly nameNode: Node | null;
  readonly name: string;
  readonly object: Node | null;
}

export interface JavaConstant {
  readonly node: Node;
  readonly cls: JavaClass;
  /** The field it is declared by (name, type, line). */
  readonly field: JavaVar;
  /** Another file can read it: not `private`. */
  readonly reachable: boolean;
}

export interface JavaFile {
  readonly classes: JavaClass[];
  /** `method_invocation`, `object_creation_expression` and `assignment_expression` nodes in source order. */
  readonly sites: JavaSite[];
  /** `static final` fields (and interface fields) by simple name. */
  readonly constants: Map<string, JavaConstant[]>;
  /** Enum constants by `Enum.MEMBER` (and `Outer.Enum.MEMBER`) → the string they stand for. */
  readonly enumMembers: Map<string, string>;
  /** Simple name → import source, for single-type imports. */
  readonly imports: Map<string, string>;
  /** `import static a.b.Holder.NAME;`: `NAME` → `a.b.Holder`. */
  readonly staticImports: Map<string, string>;
  /** `import static a.b.Holder.*;`: `a.b.Holder`, in source order. */
  readonly staticWildcards: string[];
}

/** Annotations of a `modifiers` node, in source order. */
export function javaAnnotations(modifiers: Node | undefined): AnnotationInfo[] {
  if (modifiers === undefined) return [];
  const out: AnnotationInfo[] = [];
  for (const child of modifiers.namedChildren) {
    if (child !== null && (child.type === 'annotation' || child.type === 'marker_annotation'))
      out.push(javaAnnotation(child));
  }
  return out;
}

export function javaAnnotation(node: Node): AnnotationInfo {
  const args: { name: string | undefined; value: Node }[] = [];
  const list = node.childForFieldName('arguments');
  for (const child of list?.namedChildren ?? []) {
    if (child === null || child.type.endsWith('comment')) continue;
    if (child.type === 'element_value_pair') {
      const key = child.childForFieldName('key');
      const value = child.childForFieldName('value');
      if (key !== null && value !== null) args.push({ name: key.text, value });
    } else {
      args.push({ name: undefined, value: child });
    }
  }
  return {
    name: lastSegment(node.childForFieldName('name')?.text ?? ''),
    text: oneLine(node.text, 'as-written'),
    args,
  };
}

/** Type text without type arguments, annotations or array brackets: `Map<String, X>[]` → `Map`. */
export function plainType(type: Node | null): string | undefined {
  if (type === null) return undefined;
  const text = type.text
    .replace(/@\w+(?:\([^)]*\))?\s*/g, '')
    .replace(/<[^]*>/g, '')
    .replace(/\[\]/g, '')
    .trim();
  return text === 'var' ? undefined : text;
}

export function findVar(name: string, scope: JavaScope): JavaVar | undefined {
  return scope.vars.get(name) ?? findField(name, scope.cls);
}

export function findField(name: string, cls: JavaClass | undefined): JavaVar | undefined {
  for (let current = cls; current !== undefined; current = current.outer) {
    const field = current.fields.get(name);
    if (field !== undefined) return field;
  }
  return undefined;
}

/** The variable an expression reads: `x`, `this.x`, `Outer.this.x`. */
export function varOf(node: Node, scope: JavaScope): JavaVar | undefined {
  if (node.type === 'identifier') return findVar(node.text, scope);
  if (node.type === 'field_access') {
    const object = node.childForFieldName('object');
    const field = node.childForFieldName('field');
    if (field !== null && object !== null && (object.type === 'this' || object.text.endsWith('.this'))) {
      return findField(field.text, scope.cls);
    }
  }
  return undefined;
}

export const argumentsOf = (call: Node): Node[] =>
  (call.childForFieldName('arguments')?.namedChildren ?? []).filter(
    (arg): arg is Node => arg !== null && !arg.type.endsWith('comment'),
  );

/** The declared type of a variable, or for `var x = new T(…)` the constructed type. */
export function typeOfVar(variable: JavaVar): string | undefined {
  if (variable.type !== undefined) return variable.type;
  if (variable.init?.type === 'object_creation_expression')
    return plainType(variable.init.childForFieldName('type'));
  return undefined;
}

/**
 * `exact` when the receiver's declared type is one of `types`, `heuristic` when its type is unknown (an
 * inherited field, a parameter of another file's type) but its name says what it is, undefined otherwise:
 * a receiver of any other known type is not a match, whatever its name.
 */
export function receiverConfidence(
  object: Node,
  scope: JavaScope,
  types: ReadonlySet<string>,
  namePattern: RegExp,
): 'exact' | 'heuristic' | undefined {
  const variable = varOf(object, scope);
  const type = variable === undefined ? undefined : typeOfVar(variable);
  if (type !== undefined) return types.has(lastSegment(type)) ? 'exact' : undefined;
  const name = object.type === 'field_access' ? (object.childForFieldName('field')?.text ?? '') : object.text;
  return (object.type === 'identifier' || object.type === 'field_access') && namePattern.test(name)
    ? 'heuristic'
    : undefined;
}

/** The body of a string literal, escapes decoded; text blocks lose their common indentation. */
export function javaString(node: Node): string {
  const text = node.text;
  if (text.startsWith('"""')) {
    const body = text.slice(3, -3).replace(/^[^\n]*\n/, '');
    const lines = body.split('\n');
    const indent = Math.min(
      ...lines.filter((line) => line.trim() !== '').map((line) => /^\s*/.exec(line)?.[0].length ?? 0),
    );
    return unescapeJvm(lines.map((line) => line.slice(Number.isFinite(indent) ? indent : 0)).join('\n'));
  }
  return unescapeJvm(text.slice(1, -1));
}

/** Resolves annotation and argument values against the file's constants, from inside `cls`. */
export class JavaResolver implements ValueResolver {
  constructor(
    private readonly file: JavaFile,
    private readonly cls: JavaClass | undefined,
    /** Constants followed so far; bounds `A = B; B = A` cycles. */
    private readonly depth = 0,
  ) {}

  strings(node: Node): readonly string[] | undefined {
    switch (node.type) {
      case 'element_value_array_initializer':
      case 'array_initializer': {
        const out: string[] = [];
        for (const child of node.namedChildren) {
          if (child === null || child.type.endsWith('comment')) continue;
          const values = this.strings(child);
          if (values === undefined) return undefined;
          out.push(...values);
        }
        return out;
      }
      case 'array_creation_expression': {
        const values = node.childForFieldName('value');
        return values === null ? undefined : this.strings(values);
      }
      case 'identifier':
      case 'field_access': {
        const constant = this.constant(node);
        if (constant === undefined) return undefined;
        if (
          constant.node.type.endsWith('array_initializer') ||
          constant.node.type === 'array_creation_expression'
        ) {
          return this.inside(constant)?.strings(constant.node);
        }
        const one = this.string(node);
        return one === undefined ? undefined : [one];
      }
      default: {
        const one = this.string(node);
        return one === undefined ? undefined : [one];
      }
    }
  }

  /** One string: a literal, a constant, an enum member, or a `+` concatenation of those. */
  string(node: Node): string | undefined {
    switch (node.type) {
      case 'string_literal':
        return javaString(node);
      case 'parenthesized_expression': {
        const inner = node.namedChildren[0];
        return inner === null || inner === undefined ? undefined : this.string(inner);
      }
      case 'binary_expression': {
        if (node.childForFieldName('operator')?.text !== '+') return undefined;
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        if (left === null || right === null) return undefined;
        const a = this.string(left);
        const b = a === undefined ? undefined : this.string(right);
        return a === undefined || b === undefined ? undefined : a + b;
      }
      case 'identifier':
      case 'field_access': {
        const member = node.type === 'field_access' ? this.enumMember(node.text) : undefined;
        if (member !== undefined) return member;
        const constant = this.constant(node);
        if (constant === undefined) return undefined;
        return this.inside(constant)?.string(constant.node);
      }
      default:
        return undefined;
    }
  }

  names(node: Node): readonly string[] {
    if (node.type === 'element_value_array_initializer' || node.type === 'array_initializer') {
      return node.namedChildren.flatMap((child) => (child === null ? [] : this.names(child)));
    }
    return [lastSegment(node.text.trim())];
  }

  /**
   * A `static final` constant named by `NAME`, `Class.NAME` or `a.b.Class.NAME`: the enclosing classes win
   * over a homonym elsewhere in the file; a name declared in several unrelated classes resolves to nothing.
   */
  private constant(node: Node): JavaConstant | undefined {
    const text = node.text.replace(/\s+/g, '');
    const name = lastSegment(text);
    const candidates = this.file.constants.get(name);
    if (candidates === undefined) return undefined;
    if (node.type === 'field_access') {
      const owner = text.slice(0, text.lastIndexOf('.'));
      const ownerLast = lastSegment(owner);
      return candidates.find((c) => c.cls.qualified === owner || c.cls.name === ownerLast);
    }
    for (let cls = this.cls; cls !== undefined; cls = cls.outer) {
      const own = candidates.find((c) => c.cls === cls);
      if (own !== undefined) return own;
    }
    return candidates.length === 1 ? candidates[0] : undefined;
  }

  private enumMember(text: string): string | undefined {
    const compact = text.replace(/\s+/g, '');
    const direct = this.file.enumMembers.get(compact);
    if (direct !== undefined) return direct;
    const segments = compact.split('.');
    return segments.length > 2 ? this.file.enumMembers.get(segments.slice(-2).join('.')) : undefined;
  }

  /** A resolver for a constant's initializer, which reads names from the constant's own class. */
  private inside(constant: JavaConstant): JavaResolver | undefined {
    return this.depth >= 8 ? undefined : new JavaResolver(this.file, constant.cls, this.depth + 1);
  }
}
