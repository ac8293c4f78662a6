/**
 * TypeScript/JavaScript call sites for the call graph: what each call and `new` names, read after the walk
 * from the file's imports, classes and the notes the walk took at each member call (call-types.ts).
 *
 * - `import { a as b } from './x'` then `b()` → `a` from `./x`; `ns.f()`/`X.f()` on a namespace, default or
 *   CommonJS import → `f` from that module;
 * - `this.f()` is a self call; `this.repo.save()`, `repo.save()` and `super.save()` carry the receiver's
 *   type when a field, parameter, local or the `extends` clause declares it;
 * - `new X()` constructs `X`; `new X().run()` runs on an `X`.
 *
 * `require()`/`import()`, `super()`, decorators (`@Injectable()`), tagged templates, calls of a parameter or local
 * (`callback()`) and the language's own globals (`console.log`, `setTimeout`, `new Map()`) are no calls of
 * a declaration and are left out.
 */
import type { Node } from 'web-tree-sitter';
import type { CallFact, SymbolFact } from '../../facts.js';
import { collectCalls, type CallSite, type CallSyntax } from '../shared/call-sites.js';
import { constructedType, fieldType, isThisMember } from './call-types.js';
import type { FileState } from './model.js';

/** Built-in globals of JavaScript runtimes: calls on them or of them reach no declaration of the workspace. */
const GLOBALS = new Set([
  'Array',
  'BigInt',
  'Boolean',
  'Buffer',
  'Date',
  'Error',
  'Intl',
  'JSON',
  'Map',
  'Math',
  'Number',
  'Object',
  'Promise',
  'Proxy',
  'RangeError',
  'Reflect',
  'RegExp',
  'Set',
  'String',
  'Symbol',
  'TypeError',
  'URL',
  'URLSearchParams',
  'WeakMap',
  'WeakSet',
  'clearInterval',
  'clearTimeout',
  'console',
  'decodeURI',
  'decodeURIComponent',
  'document',
  'encodeURI',
  'encodeURIComponent',
  'fetch',
  'globalThis',
  'isFinite',
  'isNaN',
  'parseFloat',
  'parseInt',
  'process',
  'queueMicrotask',
  'require',
  'setImmediate',
  'setInterval',
  'setTimeout',
  'structuredClone',
  'window',
]);

/** Receivers longer than this in the source are not copied: the collector keeps none that long anyway. */
const LONGEST_RECEIVER = 400;

/** What the readers consult: the file's text, the walk's state and the names the file declares at its top. */
interface FileScope {
  readonly source: string;
  readonly state: FileState;
  readonly declared: ReadonlySet<string>;
}

/** The call facts of a walked file. */
export function typescriptCalls(
  root: Node,
  source: string,
  state: FileState,
  symbols: readonly SymbolFact[],
): CallFact[] {
  const declared = new Set(symbols.filter((s) => s.parent === undefined).map((s) => s.name));
  for (const name of state.moduleVars.keys()) declared.add(name);
  const scope: FileScope = { source, state, declared };
  const syntax: CallSyntax = {
    call_expression: (node) => callSite(node, scope),
    new_expression: (node) => newSite(node, scope),
  };
  return collectCalls(root, syntax, symbols);
}

function callSite(node: Node, scope: FileScope): CallSite | undefined {
  // Read from the text, which is cheaper than asking for the parent or the arguments node.
  const { source } = scope;
  if (source[node.startIndex - 1] === '@' || source[node.endIndex - 1] === '`') return undefined;
  let callee = node.childForFieldName('function');
  while (callee?.type === 'non_null_expression') callee = callee.firstNamedChild;
  if (callee?.type === 'identifier')
    return scope.state.callNotes.has(node.id) ? undefined : bareCall(callee.text, scope);
  if (callee?.type !== 'member_expression') return undefined;
  const object = callee.childForFieldName('object');
  const property = callee.childForFieldName('property');
  if (object === null || property === null) return undefined;
  const site = { name: property.text, receiver: receiverText(object), at: property };
  return receiverSite(node, object, site, scope);
}

/** `f()`: a name imported by name is called under the name it is exported with. */
function bareCall(name: string, scope: FileScope): CallSite | undefined {
  const binding = scope.state.importBindings.get(name);
  if (binding === undefined) return isGlobal(name, scope) ? undefined : { name };
  const exported = binding.imported === '*' || binding.imported === 'default' ? name : binding.imported;
  return { name: exported, module: binding.source };
}

/** `x.f()`: what the receiver tells about where `f` is declared. */
function receiverSite(
  node: Node,
  object: Node,
  site: { readonly name: string; readonly receiver?: string; readonly at: Node },
  scope: FileScope,
): CallSite | undefined {
  const { state } = scope;
  const note = state.callNotes.get(node.id);
  switch (object.type) {
    case 'this':
      // Outside a class (an object literal's method, an old-style constructor) `this` names no type.
      return note?.cls === undefined ? site : { ...site, self: true };
    case 'super': {
      const base = note?.cls === undefined ? undefined : state.classes[note.cls]?.extendsName;
      return base === undefined ? site : { ...site, receiverType: base };
    }
    case 'identifier': {
      if (note?.local !== undefined)
        return note.local === null ? site : { ...site, receiverType: note.local };
      const name = object.text;
      const binding = state.importBindings.get(name);
      if (binding !== undefined)
        return binding.imported === '*' || binding.imported === 'default'
          ? { ...site, module: binding.source }
          : site;
      const type = state.moduleVars.get(name)?.type ?? (state.classByName.has(name) ? name : undefined);
      if (type !== undefined) return { ...site, receiverType: type };
      return isGlobal(name, scope) ? undefined : site;
    }
    case 'member_expression': {
      const type = isThisMember(object)
        ? fieldType(state, note?.cls, object.childForFieldName('property')?.text ?? '')
        : undefined;
      return type === undefined ? site : { ...site, receiverType: type };
    }
    default: {
      const type = constructedType(object);
      return type === undefined ? site : { ...site, receiverType: type };
    }
  }
}

/** `new X()`, `new ns.X()`: constructs `X`, from the module it is imported from when it is. */
function newSite(node: Node, scope: FileScope): CallSite | undefined {
  const ctor = node.childForFieldName('constructor');
  if (ctor?.type === 'identifier') {
    const call = bareCall(ctor.text, scope);
    return call === undefined ? undefined : { ...call, construct: true };
  }
  if (ctor?.type !== 'member_expression') return undefined;
  const object = ctor.childForFieldName('object');
  const property = ctor.childForFieldName('property');
  if (object === null || property === null) return undefined;
  const binding = object.type === 'identifier' ? scope.state.importBindings.get(object.text) : undefined;
  const fromModule = binding !== undefined && (binding.imported === '*' || binding.imported === 'default');
  return {
    name: property.text,
    receiver: receiverText(object),
    ...(fromModule ? { module: binding.source } : {}),
    construct: true,
  };
}

/** A runtime global the file does not declare or import under that name. */
function isGlobal(name: string, scope: FileScope): boolean {
  return GLOBALS.has(name) && !scope.declared.has(name);
}

function receiverText(node: Node): string | undefined {
  return node.endIndex - node.startIndex <= LONGEST_RECEIVER ? node.text : undefined;
}
