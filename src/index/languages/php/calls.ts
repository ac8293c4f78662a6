/**
 * PHP call sites: `$this->x()`, `self::x()` and `static::x()` on the enclosing class, `$repo->save()` typed
 * by a parameter, a property (promoted constructor parameters included) or a `new` assigned earlier,
 * `Foo::bar()` on a class (its `use` import as the module), `parent::x()` on the superclass, `new Foo()`
 * and plain function calls (a `use function` import as the module). Language constructs that parse as calls
 * (`isset`, `empty`, `die`) and calls of variables or closures are not calls of declarations.
 */
import type { Node } from 'web-tree-sitter';
import { type CallSite, type CallSyntax, callSiteQuery } from '../shared/call-sites.js';
import { enclosing, type PhpScopes } from './scope.js';
import { named } from './values.js';

/** What a file's `use` lines bring in, by the name the file calls them. */
export interface PhpUses {
  /** `use A\B\Repo;` → `Repo` → `A\B\Repo`; `use A\Ids as Gen;` → `Gen` → `A\Ids`. */
  readonly classes: ReadonlyMap<string, string>;
  /** `use function A\fmt;` → `fmt` → `A\fmt`. */
  readonly functions: ReadonlyMap<string, string>;
}

const CONSTRUCTS = new Set(['isset', 'empty', 'die', 'exit', 'eval']);
/** Declared types that name no class: a call on such a value says nothing about its callee. */
const SCALAR_TYPES = new Set([
  'array',
  'bool',
  'callable',
  'float',
  'int',
  'iterable',
  'mixed',
  'null',
  'object',
  'string',
  'void',
  'false',
  'true',
]);
const CLASSES = new Set(['class_declaration', 'trait_declaration', 'enum_declaration']);
const NAME_TYPES = new Set(['name', 'qualified_name']);

/** `\A\B\Repo` → `Repo`. */
function simpleName(text: string): string {
  return text.slice(text.lastIndexOf('\\') + 1);
}

/** The call nodes `phpCallSyntax` reads, found in the extractor's shared walk. */
export const PHP_CALL_SITES = callSiteQuery([
  'member_call_expression',
  'nullsafe_member_call_expression',
  'scoped_call_expression',
  'function_call_expression',
  'object_creation_expression',
]);

export function phpCallSyntax(scopes: PhpScopes, uses: PhpUses): CallSyntax {
  const reader = new PhpCallReader(scopes, uses);
  return {
    member_call_expression: (node) => reader.memberCall(node),
    nullsafe_member_call_expression: (node) => reader.memberCall(node),
    scoped_call_expression: (node) => reader.scopedCall(node),
    function_call_expression: (node) => reader.functionCall(node),
    object_creation_expression: (node) => reader.creation(node),
  };
}

class PhpCallReader {
  constructor(
    private readonly scopes: PhpScopes,
    private readonly uses: PhpUses,
  ) {}

  memberCall(node: Node): CallSite | undefined {
    const name = node.childForFieldName('name');
    const object = node.childForFieldName('object');
    if (name?.type !== 'name' || object === null) return undefined;
    if (object.text === '$this') return { name: name.text, receiver: '$this', self: true, at: name };
    const type = this.receiverType(object);
    return {
      name: name.text,
      receiver: object.text,
      ...(type === undefined ? {} : { receiverType: type }),
      at: name,
    };
  }

  scopedCall(node: Node): CallSite | undefined {
    const name = node.childForFieldName('name');
    const scope = node.childForFieldName('scope');
    if (name?.type !== 'name' || scope === null) return undefined;
    const receiver = scope.text;
    if (scope.type === 'relative_scope') {
      if (receiver !== 'parent') return { name: name.text, receiver, self: true };
      // `parent::__construct()` is the constructor chain, like `super(…)`: no call of a declaration.
      if (name.text === '__construct') return undefined;
      const cls = enclosing(node, CLASSES);
      const parent = named(named(cls).find((child) => child.type === 'base_clause'))[0]?.text;
      return {
        name: name.text,
        receiver,
        ...(parent === undefined ? {} : { receiverType: this.className(parent) }),
      };
    }
    if (NAME_TYPES.has(scope.type)) {
      const module = this.classModule(receiver);
      return {
        name: name.text,
        receiver,
        receiverType: this.className(receiver),
        ...(module === undefined ? {} : { module }),
      };
    }
    const type = this.receiverType(scope);
    return { name: name.text, receiver, ...(type === undefined ? {} : { receiverType: type }) };
  }

  functionCall(node: Node): CallSite | undefined {
    const callee = node.childForFieldName('function');
    if (callee === null || !NAME_TYPES.has(callee.type)) return undefined;
    const name = simpleName(callee.text);
    if (CONSTRUCTS.has(name.toLowerCase())) return undefined;
    const module = callee.type === 'name' ? this.uses.functions.get(name) : undefined;
    return module === undefined ? { name } : { name: simpleName(module), module };
  }

  creation(node: Node): CallSite | undefined {
    const written = named(node).find((child) => NAME_TYPES.has(child.type))?.text;
    const name = this.createdClass(node);
    if (written === undefined || name === undefined) return undefined;
    const module = this.classModule(written);
    return { name, construct: true, ...(module === undefined ? {} : { module }) };
  }

  /** The class a name written in the file stands for, as its declaration names it (an alias undone). */
  private className(written: string): string {
    return simpleName(written.includes('\\') ? written : (this.uses.classes.get(written) ?? written));
  }

  /** The module of a class written by its imported short name or alias. */
  private classModule(written: string): string | undefined {
    return written.includes('\\') ? undefined : this.uses.classes.get(written);
  }

  /** The receiver's class when the file declares it: a typed parameter or property, or `new X()` assigned. */
  private receiverType(object: Node): string | undefined {
    const declared = this.declaredClass(this.scopes.typeOf(object), object);
    if (declared !== undefined) return declared;
    const value = this.scopes.valueOf(object);
    return value?.type === 'object_creation_expression' ? this.createdClass(value) : undefined;
  }

  /** A declared type as a class name: `?Repo` → `Repo`; unions, scalars and `array` say nothing. */
  private declaredClass(type: string | undefined, at: Node): string | undefined {
    if (type === undefined || /[|&()]/.test(type)) return undefined;
    const bare = type.replace(/^\?/, '').replace(/^\\/, '');
    if (SCALAR_TYPES.has(bare.toLowerCase())) return undefined;
    if (bare === 'self' || bare === 'static') return enclosingClassName(at);
    return this.className(bare);
  }

  /** The class `new X(…)` builds, as its declaration names it; `new static` is the enclosing class. */
  private createdClass(creation: Node): string | undefined {
    const written = named(creation).find((child) => NAME_TYPES.has(child.type))?.text;
    if (written === undefined) return undefined;
    return written === 'static' || written === 'self'
      ? enclosingClassName(creation)
      : this.className(written);
  }
}

function enclosingClassName(node: Node): string | undefined {
  return enclosing(node, CLASSES)?.childForFieldName('name')?.text;
}

/**
 * The classes, interfaces and traits a type declaration names after `extends`/`implements` or `use`s in its
 * body, as written without the leading `\`; an import alias is undone (`use A\Base as B` … `extends B` →
 * `Base`).
 */
export function phpSupertypes(declaration: Node, body: Node | null, uses: PhpUses): string[] {
  const clauses = named(declaration).filter(
    (child) => child.type === 'base_clause' || child.type === 'class_interface_clause',
  );
  const traits = named(body).filter((child) => child.type === 'use_declaration');
  return [...clauses, ...traits]
    .flatMap((clause) => named(clause).filter((child) => NAME_TYPES.has(child.type)))
    .map((name) => {
      const written = name.text.replace(/^\\/, '');
      const imported = written.includes('\\') ? undefined : uses.classes.get(written);
      return imported === undefined || simpleName(imported) === written ? written : simpleName(imported);
    });
}
