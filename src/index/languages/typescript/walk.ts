/**
 * The walk shared by TypeScript, TSX and JavaScript extraction: scopes and bindings, the generic descent
 * that finds call, `new` and assignment sites, and the helpers that turn a declaration node into a
 * symbol. Declarations are added by the subclasses (typescript-classes.ts, typescript.ts).
 */
import type { Language, Node, TreeCursor } from 'web-tree-sitter';
import type { LanguageId, SymbolFact } from '../../facts.js';
import { onCall, onNew } from './contracts.js';
import { holderFromExpr, holderFromType, typeName, type Site } from './holders.js';
import { READ_DECORATORS } from './decorators.js';
import { callImportFact, commonJsExports, destructured } from './imports.js';
import { isConditional, type ClassState, type DecoratorInfo, type Entry, type FileState } from './model.js';
import { FactBuilder, type MutableSymbol } from '../shared/fact-builder.js';
import { endLineOf } from '../shared/tree-utils.js';
import { cap, named } from './declaration-text.js';
import { memberPath, toVal, type Val } from './values.js';
import { type ValueTables } from './resolve-values.js';
import { boundNames, declaredType, noteCall, valueType } from './call-types.js';

export const NO_LOCALS = (): undefined => undefined;
export const FUNCTION_VALUES = new Set([
  'arrow_function',
  'function_expression',
  'function',
  'generator_function',
]);
const FUNCTION_NODES = new Set([
  ...FUNCTION_VALUES,
  'function_declaration',
  'generator_function_declaration',
  'method_definition',
]);
const SITES = new Set([
  ...FUNCTION_NODES,
  'call_expression',
  'new_expression',
  'variable_declarator',
  'assignment_expression',
]);
/** Subtrees that can hold no call, `new` or assignment worth reading. */
const LEAVES = new Set([
  'comment',
  'string',
  'number',
  'regex',
  'identifier',
  'property_identifier',
  'type_identifier',
  'this',
  'true',
  'false',
  'null',
  'undefined',
  'type_annotation',
  'type_arguments',
  'type_parameters',
  'predefined_type',
  'interface_declaration',
  'type_alias_declaration',
  'import_statement',
  'jsx_text',
  'shorthand_property_identifier',
  'statement_identifier',
]);

const DESCEND = 0;
const SKIP = 1;
const SITE = 2;
const kindsByLanguage = new WeakMap<Language, Uint8Array>();

/**
 * What the walk does with each node type id of a grammar: skip it (anonymous tokens, leaves, types), read
 * it (a call, `new`, assignment, binding or function), or just descend. Computed once per grammar, so the
 * walk asks the cursor one question per node instead of two.
 */
function kindsOf(language: Language): Uint8Array {
  let kinds = kindsByLanguage.get(language);
  if (kinds === undefined) {
    kinds = new Uint8Array(language.nodeTypeCount);
    for (let id = 0; id < kinds.length; id++) {
      const type = language.types[id] ?? '';
      if (!language.nodeTypeIsNamed(id) || LEAVES.has(type)) kinds[id] = SKIP;
      else if (SITES.has(type)) kinds[id] = SITE;
    }
    kindsByLanguage.set(language, kinds);
  }
  return kinds;
}

export abstract class WalkerBase {
  readonly facts: FactBuilder;

  readonly state: FileState;

  protected readonly scopes: Map<string, Entry>[] = [];

  protected symbol: number | undefined;

  protected cls: number | undefined;

  protected readonly exportedNames = new Set<string>();

  constructor(
    path: string,
    protected readonly source: string,
    language: LanguageId,
  ) {
    this.facts = new FactBuilder(language);
    const classes: ClassState[] = [];
    const classByName = new Map<string, number>();
    const consts = new Map<string, Val>();
    const enums = new Map<string, Map<string, Val | undefined>>();
    const tables: ValueTables = {
      consts,
      enums,
      thisField: (cls, name) => {
        const seen = new Set<number>();
        for (let c = classes[cls]; c !== undefined && !seen.has(c.symbol);) {
          seen.add(c.symbol);
          const val = c.fields.get(name)?.val;
          if (val !== undefined) return val;
          const base = c.extendsName === undefined ? undefined : classByName.get(c.extendsName);
          c = base === undefined ? undefined : classes[base];
        }
        return undefined;
      },
    };
    this.state = {
      path,
      classes,
      classByName,
      moduleVars: new Map(),
      importBindings: new Map(),
      consts,
      enums,
      tables,
      pkgLoaders: new Map(),
      symbolAt: (name, parent) => {
        const symbol = this.facts.symbols.find((s) =>
          parent === undefined ? s.qualifiedName === name : s.parent === parent && s.name === name,
        );
        return symbol === undefined ? undefined : { id: symbol.id, line: symbol.startLine };
      },
      stubs: [],
      calledServices: new Set(),
      handedOn: new Set(),
      pending: [],
      routerMounts: new Map(),
      callNotes: new Map(),
    };
  }

  readonly locals = (name: string): Entry | undefined => {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const entry = this.scopes[i]?.get(name);
      if (entry !== undefined) return entry;
    }
    return undefined;
  };

  protected site(node: Node): Site {
    return { cls: this.cls, symbol: this.symbol, line: node.startPosition.row + 1, locals: this.locals };
  }

  protected addSymbol(
    kind: SymbolFact['kind'],
    name: string,
    qualifiedName: string,
    node: Node,
    sigStart: number,
    sigEnd: number,
    extra: Partial<MutableSymbol>,
  ): number {
    const startRow =
      this.source.slice(node.startIndex, sigStart).split('\n').length - 1 + node.startPosition.row;
    return this.facts.addSymbol({
      kind,
      name,
      qualifiedName,
      signature: cap(this.source.slice(sigStart, sigEnd)),
      startLine: startRow + 1,
      endLine: endLineOf(node),
      ...extra,
    });
  }

  protected bodyLines(body: Node | null): Partial<MutableSymbol> {
    if (body === null) return {};
    const first = body.startPosition.row + 2;
    const last = body.endPosition.row;
    return first <= last ? { bodyStartLine: first, bodyEndLine: last } : {};
  }

  protected decorator(node: Node): DecoratorInfo {
    const inner = node.firstNamedChild;
    const fn = inner?.type === 'call_expression' ? inner.childForFieldName('function') : inner;
    const path = fn === null || fn === undefined ? undefined : memberPath(fn);
    const name = path?.[path.length - 1] ?? '';
    const argList =
      inner?.type === 'call_expression' && READ_DECORATORS.has(name)
        ? inner.childForFieldName('arguments')
        : null;
    const args =
      argList === null
        ? []
        : named(argList)
            .filter((a) => a.type !== 'comment')
            .map((a) => toVal(a, NO_LOCALS, undefined));
    return { name, text: cap(node.text), args, line: node.startPosition.row + 1 };
  }

  protected meta(
    parent: number | undefined,
    exported: boolean,
    doc: string | undefined,
    decorators?: readonly DecoratorInfo[],
  ): Partial<MutableSymbol> {
    return {
      ...(doc === undefined || doc === '' ? {} : { docstring: doc }),
      ...(decorators === undefined || decorators.length === 0
        ? {}
        : { decorators: decorators.map((d) => d.text) }),
      ...(parent === undefined ? {} : { parent }),
      exported,
    };
  }

  /** Binds a name in the innermost function scope, or at module level outside functions. */
  protected bind(name: string, entry: Entry): void {
    if (this.scopes.length > 0) this.scopes[this.scopes.length - 1]?.set(name, entry);
    else this.state.moduleVars.set(name, entry);
  }

  /** A variable binding: remembers what it holds (locals now, module-level for the end), then walks its value. */
  protected declarator(node: Node, constPrefix?: string): void {
    const nameNode = node.childForFieldName('name');
    const value = node.childForFieldName('value');
    if (nameNode?.type === 'identifier') {
      const site = this.site(node);
      const holder = value === null ? undefined : holderFromExpr(value, site);
      const val = value === null ? undefined : toVal(value, this.locals, this.cls);
      const type =
        declaredType(node.childForFieldName('type')) ?? valueType(value, this.state, this.cls, this.locals);
      const entry: Entry = {
        ...(holder === undefined ? {} : { holder }),
        ...(val === undefined || val.k === 'opaque' ? {} : { val }),
        ...(type === undefined ? {} : { type }),
      };
      this.bind(nameNode.text, entry);
      if (constPrefix !== undefined && entry.val !== undefined) {
        this.state.consts.set(constPrefix + nameNode.text, entry.val);
        if (constPrefix !== '' && !this.state.consts.has(nameNode.text))
          this.state.consts.set(nameNode.text, entry.val);
      }
    } else {
      // Every name of the pattern is a local (`const [value, setValue] = …`); reads of the environment keep their value.
      for (const local of boundNames(nameNode)) this.bind(local, {});
      for (const { local, val } of destructured(nameNode, value)) {
        this.bind(local, val === undefined ? {} : { val });
        if (val !== undefined && constPrefix !== undefined) {
          this.state.consts.set(constPrefix + local, val);
          if (constPrefix !== '' && !this.state.consts.has(local)) this.state.consts.set(local, val);
        }
      }
    }
    if (value !== null) this.visit(value);
  }

  /** Walks a function: its parameters become locals (typed ones may hold clients), then its body. */
  protected fn(node: Node, ctor?: { readonly cls: ClassState; readonly symbol: number }): void {
    const scope = new Map<string, Entry>();
    const params = node.childForFieldName('parameters') ?? node.childForFieldName('parameter');
    for (const param of params === null ? [] : params.type === 'identifier' ? [params] : named(params)) {
      const pattern = param.type === 'identifier' ? param : param.childForFieldName('pattern');
      if (pattern?.type !== 'identifier') {
        for (const name of boundNames(pattern)) scope.set(name, {});
        continue;
      }
      // Parameter decorators and modifiers matter only for constructor parameter properties.
      const decorators =
        ctor === undefined
          ? []
          : named(param)
              .filter((c) => c.type === 'decorator')
              .map((d) => this.decorator(d));
      const injectQueue = decorators.find((d) => d.name === 'InjectQueue')?.args[0];
      const annotation = param === pattern ? null : param.childForFieldName('type');
      const holder = annotation === null ? undefined : holderFromType(typeName(annotation), injectQueue);
      const type = declaredType(annotation);
      scope.set(pattern.text, {
        ...(holder === undefined ? {} : { holder }),
        ...(type === undefined ? {} : { type }),
      });
      const isProperty =
        ctor !== undefined &&
        param.children.some(
          (c) =>
            c !== null &&
            (c.type === 'accessibility_modifier' || c.type === 'readonly' || c.type === 'override_modifier'),
        );
      if (ctor !== undefined && isProperty) {
        ctor.cls.fields.set(pattern.text, {
          line: param.startPosition.row + 1,
          symbol: ctor.symbol,
          ...(holder === undefined ? {} : { typed: holder }),
          ...(type === undefined ? {} : { type }),
        });
      }
    }
    this.scopes.push(scope);
    const body = node.childForFieldName('body');
    if (body !== null) this.visit(body);
    this.scopes.pop();
  }

  /** Generic walk for contract evidence; declarations below the top level are not symbols. */
  visit(node: Node): void {
    const type = node.type;
    if (LEAVES.has(type) || this.handle(node, type)) return;
    // A cursor walks the rest: it creates no Node object for the many nodes that are only passed through.
    const language = node.tree.language;
    const cursor = node.walk();
    try {
      if (cursor.gotoFirstChild()) this.descend(cursor, kindsOf(language), language.types);
    } finally {
      cursor.delete();
    }
  }

  private descend(cursor: TreeCursor, kinds: Uint8Array, types: readonly string[]): void {
    do {
      const id = cursor.nodeTypeId;
      const kind = kinds[id] ?? DESCEND;
      if (kind === SKIP || (kind === SITE && this.handle(cursor.currentNode, types[id] ?? ''))) continue;
      if (cursor.gotoFirstChild()) {
        this.descend(cursor, kinds, types);
        cursor.gotoParent();
      }
    } while (cursor.gotoNextSibling());
  }

  /** Reads a site; true when the node's subtree has been walked already. */
  private handle(node: Node, type: string): boolean {
    if (FUNCTION_NODES.has(type)) {
      this.fn(node);
      return true;
    }
    switch (type) {
      case 'call_expression':
        this.call(node);
        return false;
      case 'new_expression':
        onNew(this.state, node, this.site(node));
        return false;
      case 'variable_declarator':
        this.declarator(node);
        return true;
      case 'assignment_expression':
        this.assignment(node);
        return false;
      default:
        return false;
    }
  }

  protected call(node: Node): void {
    const callee = node.childForFieldName('function');
    const isRequire =
      callee?.type === 'identifier' && callee.text === 'require' && this.locals('require') === undefined;
    if (callee?.type === 'import' || isRequire) {
      const fact = callImportFact(node, this.state.importBindings);
      if (fact !== undefined) {
        this.facts.addImport(fact);
        return;
      }
    }
    noteCall(this.state, node, this.cls, this.locals);
    onCall(this.state, node, this.site(node));
  }

  protected assignment(node: Node): void {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (left === null || right === null) return;
    const site = this.site(node);
    const path = memberPath(left);
    if (this.scopes.length === 0 && left.type === 'member_expression')
      for (const name of commonJsExports(left, right)) this.exportedNames.add(name);
    if (path?.length === 2 && path[0] === 'this' && this.cls !== undefined) {
      const cls = this.state.classes[this.cls] as ClassState;
      const name = path[1] ?? '';
      const holder = holderFromExpr(right, site);
      const val = toVal(right, this.locals, this.cls);
      const field = cls.fields.get(name) ?? { line: site.line, symbol: this.symbol ?? cls.symbol };
      if (holder !== undefined && !(isConditional(holder) && field.assigned !== undefined))
        field.assigned = holder;
      if (val.k !== 'opaque' && field.val === undefined) field.val = val;
      field.type ??= valueType(right, this.state, this.cls, this.locals);
      cls.fields.set(name, field);
    } else if (left.type === 'identifier') {
      const holder = holderFromExpr(right, site);
      const type = valueType(right, this.state, this.cls, this.locals);
      if (holder === undefined && type === undefined) return;
      const scope = [...this.scopes].reverse().find((s) => s.has(left.text)) ?? this.state.moduleVars;
      const known = scope.get(left.text);
      if (holder !== undefined && !(isConditional(holder) && known?.holder !== undefined))
        scope.set(left.text, { holder });
      if (type !== undefined) scope.set(left.text, { ...scope.get(left.text), type });
    }
  }
}
