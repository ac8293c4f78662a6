/**
 * Values of TypeScript/JavaScript expressions as plain data. Extraction reads an argument (a topic, a
 * service name, a URL) into a {@link Val} while its node is alive, and resolves it only after the whole
 * file has been walked: constants, enums and class fields may be declared below their first use, and
 * nodes cannot be kept past the extractor's return.
 */
import type { Node } from 'web-tree-sitter';

export type Val =
  | { readonly k: 'str'; readonly v: string }
  /** An identifier or member chain not bound to a local: `TOPIC`, `Streams.ORDER`, `this.baseUrl` (cls = class index). */
  | { readonly k: 'ref'; readonly path: readonly string[]; readonly cls?: number }
  | { readonly k: 'env'; readonly name: string }
  /** A template literal or a `+` concatenation. */
  | { readonly k: 'cat'; readonly parts: readonly Val[] }
  /** `a ?? b`, `a || b`. */
  | { readonly k: 'or'; readonly options: readonly Val[] }
  | { readonly k: 'obj'; readonly props: ReadonlyMap<string, Val> }
  | { readonly k: 'arr'; readonly items: readonly Val[] }
  /** A parameter, a call, anything whose value extraction cannot know; `last` is its last identifier. */
  | { readonly k: 'opaque'; readonly last?: string };

/** What an identifier means where it is used: a local with a known value, a local without one, or neither. */
export type LocalLookup = (name: string) => { readonly val?: Val } | undefined;

const MAX_DEPTH = 4;
const MAX_ITEMS = 32;

export function lastIdentifier(text: string): string | undefined {
  if (text.length > 200) return undefined;
  // Words inside string literals are not identifiers: `${pkg.replace('@scope/', '')}` ends in `replace`.
  const all = text.replace(/(['"`])(?:\\.|(?!\1)[^\\])*\1/g, '').match(/[A-Za-z_$][\w$]*/g);
  return all?.[all.length - 1];
}

function decodeEscapes(raw: string): string {
  return raw.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])/g, (_all, esc: string) => {
    if (esc.startsWith('u{')) return String.fromCodePoint(parseInt(esc.slice(2, -1), 16));
    if (esc.startsWith('u') || esc.startsWith('x')) return String.fromCharCode(parseInt(esc.slice(1), 16));
    const simple: Record<string, string> = {
      n: '\n',
      t: '\t',
      r: '\r',
      b: '\b',
      f: '\f',
      v: '\v',
      '0': '\0',
    };
    return simple[esc] ?? (esc === '\n' ? '' : esc);
  });
}

/** The value of a `string` node (quotes removed, escapes decoded). */
export function stringValue(node: Node): string {
  const inner = node.text.slice(1, -1);
  return inner.includes('\\') ? decodeEscapes(inner) : inner;
}

/** Member chain `a.b.c` / `this.a` as identifiers, or undefined when a link is not a plain name. */
export function memberPath(node: Node): string[] | undefined {
  switch (node.type) {
    case 'identifier':
      return [node.text];
    case 'this':
      return ['this'];
    case 'member_expression': {
      const object = node.childForFieldName('object');
      const property = node.childForFieldName('property');
      if (object === null || property === null || property.type === 'private_property_identifier')
        return undefined;
      const head = memberPath(object);
      return head === undefined ? undefined : [...head, property.text];
    }
    case 'parenthesized_expression':
    case 'as_expression':
    case 'satisfies_expression':
    case 'non_null_expression': {
      const inner = node.firstNamedChild;
      return inner === null ? undefined : memberPath(inner);
    }
    default:
      return undefined;
  }
}

/** Unwraps `(x)`, `x as T`, `x satisfies T`, `x!`, `<T>x` and `await x`. */
export function unwrap(node: Node): Node {
  let current = node;
  for (;;) {
    switch (current.type) {
      case 'parenthesized_expression':
      case 'as_expression':
      case 'satisfies_expression':
      case 'non_null_expression':
      case 'type_assertion':
      case 'await_expression': {
        const inner = current.type === 'type_assertion' ? current.lastNamedChild : current.firstNamedChild;
        if (inner === null) return current;
        current = inner;
        break;
      }
      default:
        return current;
    }
  }
}

/** Reads an expression into a {@link Val}; `cls` is the enclosing class index (for `this.x`). */
export function toVal(node: Node, locals: LocalLookup, cls: number | undefined, depth = 0): Val {
  const n = unwrap(node);
  return readVal(n, locals, cls, depth) ?? { k: 'opaque', last: lastIdentifier(n.text) };
}

/** One node kind each; undefined when the expression is nothing the resolver can follow. */
function readVal(n: Node, locals: LocalLookup, cls: number | undefined, depth: number): Val | undefined {
  switch (n.type) {
    case 'string':
      return { k: 'str', v: stringValue(n) };
    case 'number':
      // A port (`port: 8443`) is part of a URL; numbers are never topics or paths on their own.
      return { k: 'str', v: n.text };
    case 'template_string':
      return templateVal(n, locals, cls, depth);
    case 'identifier': {
      if (n.text === 'undefined') return { k: 'opaque' };
      const local = locals(n.text);
      if (local !== undefined) return local.val ?? { k: 'opaque', last: n.text };
      return { k: 'ref', path: [n.text] };
    }
    case 'this':
    case 'member_expression':
    case 'subscript_expression':
      return memberVal(n, locals, cls);
    case 'binary_expression':
      return binaryVal(n, locals, cls, depth);
    case 'object':
      return depth > MAX_DEPTH ? undefined : objectVal(n, locals, cls, depth);
    case 'array': {
      if (depth > MAX_DEPTH) return undefined;
      const items: Val[] = [];
      for (const child of n.namedChildren) {
        if (child !== null && items.length < MAX_ITEMS) items.push(toVal(child, locals, cls, depth + 1));
      }
      return { k: 'arr', items };
    }
    case 'call_expression':
      return depth > MAX_DEPTH * 4 ? undefined : callVal(n, locals, cls, depth);
    case 'new_expression':
      return depth > MAX_DEPTH * 4 ? undefined : newVal(n, locals, cls, depth);
    default:
      return undefined;
  }
}

/** Functions that join URL or path pieces with `/`: `path.join(base, 'orders')`, `urlJoin(base, id)`. */
const JOINS = new Set([
  'path.join',
  'path.posix.join',
  'posix.join',
  'url.resolve',
  'urljoin',
  'urlJoin',
  'join',
]);

function argList(n: Node): Node[] {
  const list = n.childForFieldName('arguments');
  return list === null ? [] : list.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
}

/** Pieces joined by `/` (doubled slashes are normalised away with the path). */
function joined(parts: readonly Node[], locals: LocalLookup, cls: number | undefined, depth: number): Val {
  const out: Val[] = [];
  for (const [i, part] of parts.entries()) {
    if (i > 0) out.push({ k: 'str', v: '/' });
    out.push(toVal(part, locals, cls, depth + 1));
  }
  return { k: 'cat', parts: out };
}

/** Calls whose value is known from their arguments: `Object.freeze`, URL joins, `url.toString()`. */
function callVal(n: Node, locals: LocalLookup, cls: number | undefined, depth: number): Val | undefined {
  const callee = n.childForFieldName('function');
  const args = argList(n);
  const name = callee?.text ?? '';
  // `Object.freeze({...})` is the plain-JS spelling of a constant object.
  if (name === 'Object.freeze' && args[0] !== undefined) return toVal(args[0], locals, cls, depth + 1);
  if (JOINS.has(name) && args.length > 0 && (name !== 'join' || locals('join') === undefined))
    return joined(args, locals, cls, depth);
  // `new URL(x).toString()` and `String(x)` are the URL itself.
  const object = callee?.type === 'member_expression' ? callee.childForFieldName('object') : null;
  if (object !== null && callee?.childForFieldName('property')?.text === 'toString' && args.length === 0)
    return toVal(object, locals, cls, depth + 1);
  if (name === 'String' && args.length === 1 && args[0] !== undefined)
    return toVal(args[0], locals, cls, depth + 1);
  return undefined;
}

/**
 * `new URL(path, base)` is the path under the base; `new URL(url)` the URL. `new Request(url, init)` is
 * read as the options a client takes: `{ url, ...init }`.
 */
function newVal(n: Node, locals: LocalLookup, cls: number | undefined, depth: number): Val | undefined {
  const ctor = n.childForFieldName('constructor')?.text;
  const args = argList(n);
  const [first, second] = args;
  if (first === undefined) return undefined;
  if (ctor === 'URL' || ctor === 'url.URL')
    return second === undefined
      ? toVal(first, locals, cls, depth + 1)
      : joined([second, first], locals, cls, depth);
  if (ctor !== 'Request') return undefined;
  const init = second === undefined ? undefined : toVal(second, locals, cls, depth + 1);
  const props = new Map(init?.k === 'obj' ? init.props : []);
  props.set('url', toVal(first, locals, cls, depth + 1));
  return { k: 'obj', props };
}

function templateVal(n: Node, locals: LocalLookup, cls: number | undefined, depth: number): Val {
  const parts: Val[] = [];
  for (const child of n.namedChildren) {
    if (child === null) continue;
    if (child.type === 'string_fragment') parts.push({ k: 'str', v: child.text });
    else if (child.type === 'escape_sequence') parts.push({ k: 'str', v: decodeEscapes(child.text) });
    else if (child.type === 'template_substitution' && child.firstNamedChild !== null) {
      parts.push(toVal(child.firstNamedChild, locals, cls, depth + 1));
    }
  }
  return parts.length === 1 && parts[0]?.k === 'str' ? parts[0] : { k: 'cat', parts };
}

/** `a + b` concatenates; `a ?? b` and `a || b` are either. */
function binaryVal(n: Node, locals: LocalLookup, cls: number | undefined, depth: number): Val | undefined {
  const op = n.childForFieldName('operator')?.type;
  const left = n.childForFieldName('left');
  const right = n.childForFieldName('right');
  if (left === null || right === null || depth > MAX_DEPTH * 4) return undefined;
  const a = toVal(left, locals, cls, depth + 1);
  const b = toVal(right, locals, cls, depth + 1);
  if (op === '+') return { k: 'cat', parts: [...(a.k === 'cat' ? a.parts : [a]), b] };
  if (op === '??' || op === '||') return { k: 'or', options: [a, b] };
  return undefined;
}

function objectVal(n: Node, locals: LocalLookup, cls: number | undefined, depth: number): Val {
  const props = new Map<string, Val>();
  for (const child of n.namedChildren) {
    if (child === null || props.size >= MAX_ITEMS) continue;
    if (child.type === 'pair') {
      const key = child.childForFieldName('key');
      const value = child.childForFieldName('value');
      if (key === null || value === null) continue;
      const name =
        key.type === 'string' ? stringValue(key) : key.type === 'property_identifier' ? key.text : undefined;
      if (name !== undefined) props.set(name, toVal(value, locals, cls, depth + 1));
    } else if (child.type === 'shorthand_property_identifier') {
      const local = locals(child.text);
      props.set(
        child.text,
        local === undefined
          ? { k: 'ref', path: [child.text] }
          : (local.val ?? { k: 'opaque', last: child.text }),
      );
    }
  }
  return { k: 'obj', props };
}

function memberVal(n: Node, locals: LocalLookup, cls: number | undefined): Val {
  // `process.env['X']` reads the same variable as `process.env.X`.
  if (n.type === 'subscript_expression') {
    const object = n.childForFieldName('object');
    const index = n.childForFieldName('index');
    if (object?.text === 'process.env' && index?.type === 'string')
      return { k: 'env', name: stringValue(index) };
    return { k: 'opaque', last: lastIdentifier(n.text) };
  }
  const path = memberPath(n);
  if (path === undefined) return { k: 'opaque', last: lastIdentifier(n.text) };
  if (path.length === 3 && path[0] === 'process' && path[1] === 'env')
    return { k: 'env', name: path[2] ?? '' };
  // k6 scripts read their environment through the `__ENV` global.
  if (path.length === 2 && path[0] === '__ENV') return { k: 'env', name: path[1] ?? '' };
  const root = path[0] ?? '';
  if (root !== 'this') {
    const local = locals(root);
    if (local !== undefined) {
      // A member of a local constant object is still a constant; of anything else it is runtime data.
      let current: Val | undefined = local.val;
      for (const segment of path.slice(1))
        current =
          current?.k === 'obj'
            ? current.props.get(segment)
            : segment === 'href' && current?.k === 'cat'
              ? current // `url.href` of `const url = new URL(…)`
              : undefined;
      return current ?? { k: 'opaque', last: path[path.length - 1] };
    }
  }
  return root === 'this' && cls !== undefined ? { k: 'ref', path, cls } : { k: 'ref', path };
}
