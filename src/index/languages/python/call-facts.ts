/**
 * Python call sites for the call graph, read after the walk from what call-types.ts gathered:
 *
 * - `from a import b as c` then `c()` → `b` from `a`; `mod.f()` on an `import a.b as mod` → `f` from `a.b`;
 *   `c.f()` on a name imported by name → `f` from `a` with receiver `c` (the resolver tells a module `a.b`
 *   from a name of `a`), except a class (CapWords) imported by name: `User.create()` runs on `User`;
 * - `self.f()`/`cls.f()` in a class is a self call; `self.repo.save()`, `repo.save()` and `super().save()`
 *   carry the receiver's type when an annotation, a class call (`self.repo = Repo()`) or the bases say it;
 * - `Foo()` constructs `Foo` when `Foo` is a class declared in the file, or imported and named like one.
 *
 * Decorators, `super()`, calls of a parameter or local (`callback()`) and builtins (`print`, `len`) that the
 * file does not redefine are no calls of a declaration and are left out.
 */
import type { Node } from 'web-tree-sitter';
import type { CallFact, SymbolFact } from '../../facts.js';
import { collectCalls, type CallSite } from '../shared/call-sites.js';
import type { PyCallTypes, TypeEvidence } from './call-types.js';
import { enclosingClass, type Frame } from './scope.js';
import { superclassNames } from './symbols.js';
import { dotted } from './values.js';

const BUILTINS = new Set(
  (
    'abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile ' +
    'complex delattr dict dir divmod enumerate eval exec exit filter float format frozenset getattr ' +
    'globals hasattr hash help hex id input int isinstance issubclass iter len list locals map max ' +
    'memoryview min next object oct open ord pow print property quit range repr reversed round set ' +
    'setattr slice sorted staticmethod str sum super tuple type vars zip Exception ValueError TypeError ' +
    'KeyError IndexError RuntimeError AttributeError NotImplementedError StopIteration OSError IOError'
  ).split(' '),
);

/** A class name by convention (CapWords), for a name imported from another module. */
const CLASS_NAME = /^_?[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$/;

/** Receivers longer than this in the source are not copied: the collector keeps none that long anyway. */
const LONGEST_RECEIVER = 400;

interface FileScope {
  readonly source: string;
  readonly types: PyCallTypes;
  /** Classes the file declares, by name. */
  readonly classes: ReadonlySet<string>;
  /** Names the file declares at its top. */
  readonly declared: ReadonlySet<string>;
}

export function pythonCalls(
  root: Node,
  source: string,
  types: PyCallTypes,
  symbols: readonly SymbolFact[],
): CallFact[] {
  const scope: FileScope = {
    source,
    types,
    classes: new Set(symbols.filter((s) => s.kind === 'class').map((s) => s.name)),
    declared: new Set(symbols.filter((s) => s.parent === undefined).map((s) => s.name)),
  };
  return collectCalls(root, { call: (node) => callSite(node, scope) }, symbols);
}

function callSite(node: Node, scope: FileScope): CallSite | undefined {
  // `@app.route(…)`: read from the text, which is cheaper than asking for the parent.
  if (scope.source[node.startIndex - 1] === '@') return undefined;
  const callee = node.childForFieldName('function');
  const frame = scope.types.frames.get(node.id);
  if (callee?.type === 'identifier') return bareCall(callee.text, frame, scope);
  if (callee?.type !== 'attribute') return undefined;
  const object = callee.childForFieldName('object');
  const attribute = callee.childForFieldName('attribute');
  if (object === null || attribute === null) return undefined;
  const receiver = object.endIndex - object.startIndex <= LONGEST_RECEIVER ? object.text : undefined;
  const site = { name: attribute.text, receiver, at: attribute };
  const facts = receiverFacts(object, frame, scope);
  // `pb2.Stub(…)`, `models.User(…)`: a class-like name taken from a module constructs it.
  const construct = facts.module !== undefined && CLASS_NAME.test(site.name);
  return { ...site, ...facts, ...(construct ? { construct } : {}) };
}

/** `f()`: a name imported by name is called under the name it is exported with; a class call constructs. */
function bareCall(name: string, frame: Frame | undefined, scope: FileScope): CallSite | undefined {
  if (scope.types.local(frame, name) !== undefined) return undefined;
  const imported = scope.types.names.get(name);
  if (imported !== undefined)
    return {
      name: imported.name,
      module: imported.source,
      ...(CLASS_NAME.test(imported.name) ? { construct: true } : {}),
    };
  if (scope.classes.has(name)) return { name, construct: true };
  return BUILTINS.has(name) && !scope.declared.has(name) ? undefined : { name };
}

/** What the receiver of `x.f()` tells: a self call, the module `f` comes from, or the receiver's type. */
function receiverFacts(
  object: Node,
  frame: Frame | undefined,
  scope: FileScope,
): Pick<CallSite, 'self' | 'module' | 'receiverType'> {
  const { types } = scope;
  if (object.type === 'identifier') {
    const name = object.text;
    const local = types.local(frame, name);
    if ((name === 'self' || name === 'cls') && enclosingClass(frame) !== undefined) return { self: true };
    if (local !== undefined) return typeFacts(local, scope);
    const module = types.modules.get(name);
    if (module !== undefined) return { module };
    const imported = types.names.get(name);
    if (imported !== undefined)
      return CLASS_NAME.test(imported.name) ? { receiverType: imported.name } : { module: imported.source };
    return scope.classes.has(name) ? { receiverType: name } : {};
  }
  if (object.type === 'attribute') {
    const path = dotted(object);
    const module = path === undefined ? undefined : types.modules.get(path);
    if (module !== undefined) return { module };
    const [self, attr, ...rest] = path?.split('.') ?? [];
    if (self !== 'self' || attr === undefined || rest.length > 0) return {};
    return typeFacts(types.attr(frame, attr), scope);
  }
  if (object.type === 'call') {
    const callee = object.childForFieldName('function');
    if (callee?.type === 'identifier' && callee.text === 'super') return superFacts(object);
    const name = dotted(callee);
    return name === undefined ? {} : typeFacts({ name, call: true }, scope);
  }
  return {};
}

/** The receiver type evidence proves: an annotation always, a call only of a class. */
function typeFacts(evidence: TypeEvidence | null | undefined, scope: FileScope): { receiverType?: string } {
  if (evidence === null || evidence === undefined) return {};
  if (evidence.call === undefined) return { receiverType: evidence.name };
  const type = classCalled(evidence.name, scope);
  return type === undefined ? {} : { receiverType: type };
}

/** The class `T(…)` instantiates, or undefined when `T` is not known as a class. */
function classCalled(callee: string, scope: FileScope): string | undefined {
  const dot = callee.indexOf('.');
  if (dot === -1) {
    if (scope.classes.has(callee)) return callee;
    const imported = scope.types.names.get(callee);
    return imported !== undefined && CLASS_NAME.test(imported.name) ? imported.name : undefined;
  }
  // `models.User()`: a class-like name reached through an imported module.
  const head = callee.slice(0, dot);
  const last = callee.slice(callee.lastIndexOf('.') + 1);
  const viaImport = scope.types.modules.has(head) || scope.types.names.has(head);
  return viaImport && CLASS_NAME.test(last) ? callee : undefined;
}

/** `super().f()`: runs `f` of the enclosing class's first base. */
function superFacts(call: Node): { receiverType?: string } {
  let node: Node | null = call.parent;
  while (node !== null && node.type !== 'class_definition') node = node.parent;
  const base = node === null ? undefined : superclassNames(node)[0];
  return base === undefined ? {} : { receiverType: base };
}
