/**
 * How Java, Kotlin, Scala and C# calls read their receiver into a call fact. Each grammar reduces a call to
 * a name and a `Receiver` (what it is called on, by shape); the rules of what that shape proves are the
 * same in the four languages:
 *
 * - a bare call inside a class is a call on `this` (`self`), unless the name was imported by name (then
 *   `module` is that import);
 * - `this.f()` is `self`; `super.f()` calls the method of the class the file says it extends;
 * - `x.f()` and `this.x.f()` take the declared type of the parameter, local, field or property `x`;
 * - `Type.f()` on a name no variable holds: an imported type gives its import as `module` (and the type);
 *   a type declared in the file or named like a type (capitalised, not a CONSTANT) gives the type;
 * - `new T().f()` is called on a `T`.
 */
import type { Node } from 'web-tree-sitter';
import type { CallSite } from '../call-sites.js';
import type { TypedNames } from './typed-names.js';

/** What a call is made on, by its shape. */
export type Receiver =
  | { readonly kind: 'none' }
  | { readonly kind: 'this' }
  | { readonly kind: 'super' }
  /** A simple name: a variable, or a type. */
  | { readonly kind: 'name'; readonly name: string }
  /** `this.name`. */
  | { readonly kind: 'member'; readonly name: string }
  /** `a.b.C`: identifiers only (a qualified type, or a field of a field). */
  | { readonly kind: 'path'; readonly path: string }
  /** A constructor call: `new T(…)`, Kotlin `T(…)` of a known class. */
  | { readonly kind: 'new'; readonly type: string }
  /** Anything else (a call result, an index, a literal): its type is unknown. */
  | { readonly kind: 'other' };

/** What a file's language and imports tell about names that are not variables. */
export interface ReceiverContext {
  readonly names: TypedNames;
  /** Simple name (or alias) → the import source that brings that type or function in by name. */
  readonly imports: ReadonlyMap<string, string>;
  /** Java `import static a.b.Holder.name`: `name` → `a.b.Holder` (the import's source). */
  readonly staticImports?: ReadonlyMap<string, string>;
  /**
   * Whether `a.b.C` with an unknown first name may be read as a qualified type. C# members are capitalised
   * like types (`HttpContext.Request.Headers`), so it reads only paths starting at a type of the file or
   * at a `using` alias.
   */
  readonly qualifiedPaths: boolean;
}

/** Capitalised with a lower-case letter somewhere: `OrderRepo`, `Q` is not, nor is `MAX_SIZE`. */
export const looksLikeType = (name: string): boolean => /^[A-Z][\w$]*[a-z][\w$]*$/.test(name);

/** The last segment of a dotted name. */
const simpleName = (name: string): string => name.slice(name.lastIndexOf('.') + 1);

/** Longest receiver the collector keeps; a longer one would be dropped and the call read as bare. */
const MAX_RECEIVER = 80;

/**
 * A receiver as written, with a chain's line breaks before `.` removed (`a\n  .b()` → `a.b()`), and cut
 * with `…` when too long to keep: a long builder chain is still a receiver, of a type nobody knows.
 */
export function receiverText(node: Node): string {
  const text = node.text;
  const flat = text.includes('\n') ? text.replace(/\s*\n\s*(?=[.?])/g, '').replace(/\s*\n\s*/g, ' ') : text;
  return flat.length > MAX_RECEIVER ? `${flat.slice(0, MAX_RECEIVER - 1)}…` : flat;
}

/**
 * The facts a call of `name` on `receiver` at `offset` carries: `written` is the receiver as shown, `at` the
 * node the call's line is read from.
 */
export function callOn(
  name: string,
  receiver: Receiver,
  written: string | undefined,
  offset: number,
  context: ReceiverContext,
  at?: Node,
): CallSite {
  const base: CallSite = {
    name,
    ...(written === undefined ? {} : { receiver: written }),
    ...(at === undefined ? {} : { at }),
  };
  switch (receiver.kind) {
    case 'none':
      return { ...base, ...bareCall(name, offset, context) };
    case 'this':
      return { ...base, self: true };
    case 'super': {
      const superclass = context.names.classAt(offset)?.superclass;
      return superclass === undefined ? base : { ...base, receiverType: superclass };
    }
    case 'member':
      return withType(base, unaliased(context.names.typeOf(receiver.name, offset, true), context));
    case 'name':
      return { ...base, ...namedReceiver(receiver.name, offset, context) };
    case 'path':
      return { ...base, ...pathReceiver(receiver.path, offset, context) };
    case 'new':
      return withType(base, receiver.type);
    case 'other':
      return base;
  }
}

const withType = (site: CallSite, type: string | undefined): CallSite =>
  type === undefined ? site : { ...site, receiverType: type };

/** A bare call: an import by name, else a method of the enclosing class. */
function bareCall(name: string, offset: number, context: ReceiverContext): Partial<CallSite> {
  const holder = context.staticImports?.get(name);
  if (holder !== undefined) return { module: holder, receiverType: simpleName(holder) };
  const imported = context.imports.get(name);
  if (imported !== undefined) return { name: simpleName(imported), module: imported };
  return context.names.classAt(offset) === undefined ? {} : { self: true };
}

/** `x.f()`: a variable's declared type, else `x` as a type (imported, declared here, or named like one). */
function namedReceiver(name: string, offset: number, context: ReceiverContext): Partial<CallSite> {
  const variable = context.names.lookup(name, offset);
  if (variable !== undefined) return typeOfVariable(variable.type, context);
  const imported = context.imports.get(name);
  if (imported !== undefined) {
    const type = simpleName(imported);
    return looksLikeType(type) ? { receiverType: type, module: imported } : {};
  }
  return context.names.classNames.has(name) || looksLikeType(name) ? { receiverType: name } : {};
}

function typeOfVariable(type: string | undefined, context: ReceiverContext): Partial<CallSite> {
  const real = unaliased(type, context);
  return real === undefined || context.names.typeParameters.has(real) ? {} : { receiverType: real };
}

/** A type named by an import alias (`import a.B as C`, `using C = a.B;`) is the type it renames. */
function unaliased(type: string | undefined, context: ReceiverContext): string | undefined {
  const imported = type === undefined ? undefined : context.imports.get(type);
  return imported === undefined ? type : simpleName(imported);
}

/** `a.b.C.f()`: a qualified type when its first name is no variable and its last one names a type. */
function pathReceiver(path: string, offset: number, context: ReceiverContext): Partial<CallSite> {
  const segments = path.split('.');
  const first = segments[0] ?? '';
  const last = segments[segments.length - 1] ?? '';
  if (segments.length === 2 && first === context.names.classAt(offset)?.name) {
    // `OrderService.LOGGER.info(…)` inside `OrderService`: its own static field.
    const type = unaliased(context.names.typeOf(last, offset, true), context);
    if (type !== undefined) return { receiverType: type };
  }
  const variable = first === 'this' || first === 'super' || context.names.lookup(first, offset) !== undefined;
  if (variable || !looksLikeType(last)) return {};
  const imported = context.imports.get(first);
  if (imported !== undefined) return { receiverType: [simpleName(imported), ...segments.slice(1)].join('.') };
  if (context.names.classNames.has(first) || context.qualifiedPaths) return { receiverType: path };
  return {};
}
