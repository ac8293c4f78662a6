/**
 * Python value resolution for contract facts: turns an expression (a literal, an f-string, a concatenation,
 * a `.format()` call, a same-file constant, an enum member, an `os.getenv` read) into parts, from which a
 * topic name or a URL is assembled. Anything that is not provably a value stays an opaque `expr` part, so a
 * variable name can never become a topic.
 */
import type { Node } from 'web-tree-sitter';
import type { Part, Parts } from '../shared/tree-utils.js';

export type { Parts };

/** What the resolver can look up: the file's constants, seen from where the expression is. */
export interface ValueScope {
  /** A plain name: function-local literal, else a module-level constant. */
  name(name: string): Parts | undefined;
  /** `Owner.NAME` (same-file class or enum) or `self.NAME` (the enclosing class). */
  member(owner: string, name: string): Parts | undefined;
  /** Set when a value came through a config object's field (`self.config.url` ← `Config(url=…)`): a guess. */
  readonly used?: { inferred: boolean };
}

/** The text between a string's quotes, and whether it is an f-string; undefined for other nodes. */
function stringPieces(node: Node): { readonly prefix: string; readonly pieces: readonly Node[] } | undefined {
  if (node.type !== 'string') return undefined;
  const start = node.firstChild;
  const prefix = start?.type === 'string_start' ? start.text.replace(/['"]/g, '').toLowerCase() : '';
  const pieces = node.namedChildren.filter(
    (child): child is Node => child !== null && child.type !== 'string_start' && child.type !== 'string_end',
  );
  return { prefix, pieces };
}

/** A plain string literal's text (no interpolation, no bytes); undefined for anything else. */
export function literalString(node: Node | null | undefined): string | undefined {
  if (node === null || node === undefined) return undefined;
  if (node.type === 'concatenated_string') {
    let text = '';
    for (const child of node.namedChildren) {
      const value = literalString(child);
      if (value === undefined) return undefined;
      text += value;
    }
    return text;
  }
  const string = stringPieces(node);
  if (string === undefined || string.prefix.includes('b')) return undefined;
  if (string.pieces.some((piece) => piece.type === 'interpolation')) return undefined;
  return string.pieces.map((piece) => piece.text).join('');
}

/** The last identifier of an expression, used to name a placeholder (`order.id` → `id`). */
export function lastIdentifier(node: Node): string {
  const names = node.text.match(/[A-Za-z_]\w*/g);
  return names?.[names.length - 1] ?? 'param';
}

/** Dotted text of an identifier/attribute chain (`a.b.c`); undefined when any link is something else. */
export function dotted(node: Node | null | undefined): string | undefined {
  if (node === null || node === undefined) return undefined;
  if (node.type === 'identifier') return node.text;
  if (node.type !== 'attribute') return undefined;
  const object = dotted(node.childForFieldName('object'));
  const attribute = node.childForFieldName('attribute');
  return object === undefined || attribute === null ? undefined : `${object}.${attribute.text}`;
}

/** The positional arguments and keyword arguments of an `argument_list`. */
export function callArguments(list: Node | null): {
  readonly positional: readonly Node[];
  readonly keywords: ReadonlyMap<string, Node>;
} {
  const positional: Node[] = [];
  const keywords = new Map<string, Node>();
  for (const child of list?.namedChildren ?? []) {
    if (child === null || child.type === 'comment') continue;
    if (child.type === 'keyword_argument') {
      const name = child.childForFieldName('name');
      const value = child.childForFieldName('value');
      if (name !== null && value !== null) keywords.set(name.text, value);
    } else if (child.type !== 'list_splat' && child.type !== 'dictionary_splat') {
      positional.push(child);
    }
  }
  return { positional, keywords };
}

const ENV_GETTERS = new Set(['os.getenv', 'os.environ.get', 'environ.get', 'getenv']);

/** `os.getenv("X", "d")`, `os.environ.get("X")`, `os.environ["X"]` → an env part; undefined otherwise. */
function envRead(node: Node): Part | undefined {
  if (node.type === 'subscript') {
    const value = dotted(node.childForFieldName('value'));
    const key = literalString(node.childForFieldName('subscript'));
    if ((value === 'os.environ' || value === 'environ') && key !== undefined) return { t: 'env', name: key };
    return undefined;
  }
  if (node.type !== 'call') return undefined;
  const callee = dotted(node.childForFieldName('function'));
  if (callee === undefined || !ENV_GETTERS.has(callee)) return undefined;
  const { positional, keywords } = callArguments(node.childForFieldName('arguments'));
  const key = literalString(positional[0] ?? keywords.get('key'));
  if (key === undefined) return undefined;
  const fallback = literalString(positional[1] ?? keywords.get('default'));
  return fallback === undefined ? { t: 'env', name: key } : { t: 'env', name: key, fallback };
}

/** Resolves an expression into parts; unresolvable pieces become `expr` parts. */
export function resolveParts(node: Node, scope: ValueScope): Parts {
  switch (node.type) {
    case 'string':
    case 'concatenated_string':
      return stringParts(node, scope);
    case 'parenthesized_expression': {
      const inner = node.namedChildren[0];
      return inner === null || inner === undefined ? [] : resolveParts(inner, scope);
    }
    case 'binary_operator': {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      const operator = node.childForFieldName('operator')?.text;
      if (operator === '+' && left !== null && right !== null) {
        return [...resolveParts(left, scope), ...resolveParts(right, scope)];
      }
      const template = operator === '%' ? literalString(left) : undefined;
      if (template !== undefined && right !== null) return percentParts(template, right, scope);
      break;
    }
    case 'identifier':
      return scope.name(node.text) ?? [{ t: 'expr', name: node.text }];
    case 'attribute': {
      const member = memberParts(node, scope);
      if (member !== undefined) return member;
      break;
    }
    case 'subscript':
    case 'call': {
      const env = envRead(node);
      if (env !== undefined) return [env];
      if (node.type === 'call') return callParts(node, scope);
      break;
    }
    default:
      break;
  }
  return [{ t: 'expr', name: lastIdentifier(node) }];
}

/** `Enum.MEMBER`, `Enum.MEMBER.value`, `self.CONST`, `Class.CONST`. */
function memberParts(node: Node, scope: ValueScope): Parts | undefined {
  let target = node;
  const attribute = node.childForFieldName('attribute')?.text;
  if (attribute === 'value') {
    const object = node.childForFieldName('object');
    if (object?.type === 'attribute') target = object;
  }
  const path = dotted(target);
  if (path === undefined) return undefined;
  const dot = path.lastIndexOf('.');
  return scope.member(path.slice(0, dot), path.slice(dot + 1));
}

function stringParts(node: Node, scope: ValueScope): Parts {
  if (node.type === 'concatenated_string') {
    return node.namedChildren.flatMap((child) => (child === null ? [] : stringParts(child, scope)));
  }
  const string = stringPieces(node);
  if (string === undefined) return [{ t: 'expr', name: lastIdentifier(node) }];
  const fString = string.prefix.includes('f');
  const parts: Part[] = [];
  for (const piece of string.pieces) {
    if (piece.type === 'interpolation') {
      const expression = piece.childForFieldName('expression');
      parts.push(...(expression === null ? [] : resolveParts(expression, scope)));
    } else {
      parts.push({
        t: 'lit',
        v: fString ? piece.text.replace(/\{\{/g, '{').replace(/\}\}/g, '}') : piece.text,
      });
    }
  }
  return parts;
}

/** `"/orders/%s" % order_id`, `"%s/x/%d" % (base, n)`, `"%(base)s/x" % {"base": b}`. */
function percentParts(template: string, right: Node, scope: ValueScope): Parts {
  const inner = right.type === 'parenthesized_expression' ? (right.namedChildren[0] ?? right) : right;
  const items =
    inner.type === 'tuple' ? inner.namedChildren.filter((item): item is Node => item !== null) : [inner];
  const named = new Map<string, Node>();
  if (inner.type === 'dictionary') {
    for (const pair of inner.namedChildren) {
      const key = pair?.type === 'pair' ? literalString(pair.childForFieldName('key')) : undefined;
      const value = pair?.childForFieldName('value');
      if (key !== undefined && value !== null && value !== undefined) named.set(key, value);
    }
  }
  const parts: Part[] = [];
  let next = 0;
  let last = 0;
  for (const match of template.matchAll(/%(?:\(([^)]*)\))?[-#0 +]*(?:\d+|\*)?(?:\.\d+)?([a-zA-Z%])/g)) {
    parts.push({ t: 'lit', v: template.slice(last, match.index) });
    last = match.index + match[0].length;
    if (match[2] === '%') {
      parts.push({ t: 'lit', v: '%' });
      continue;
    }
    const key = match[1];
    const argument = key === undefined ? items[next++] : named.get(key);
    parts.push(
      ...(argument === undefined
        ? [{ t: 'expr' as const, name: key ?? 'param' }]
        : resolveParts(argument, scope)),
    );
  }
  parts.push({ t: 'lit', v: template.slice(last) });
  return parts;
}

const URL_JOINS = /(^|\.)urljoin$/;

/** `urljoin(base, "orders/1")`: the base, then the relative part (a `/` between them). */
function joinParts(node: Node, scope: ValueScope): Parts | undefined {
  const callee = dotted(node.childForFieldName('function'));
  if (callee === undefined || !URL_JOINS.test(callee)) return undefined;
  const { positional } = callArguments(node.childForFieldName('arguments'));
  const [base, relative] = positional;
  if (base === undefined || relative === undefined) return undefined;
  const head = resolveParts(base, scope);
  const tail = resolveParts(relative, scope);
  const first = tail[0];
  // An absolute path replaces the base's own path: `urljoin("http://a/api/", "/x")` is `http://a/x`.
  const origin =
    head.length === 1 && head[0]?.t === 'lit' ? /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(head[0].v) : null;
  if (first?.t === 'lit' && first.v.startsWith('/') && origin !== null)
    return [{ t: 'lit', v: origin[0] }, ...tail];
  return [...head, { t: 'lit', v: '/' }, ...tail];
}

/** `"{}/x/{}".format(a, b)`, `str(x)` and `urljoin(a, b)`; any other call is opaque. */
function callParts(node: Node, scope: ValueScope): Parts {
  const joined = joinParts(node, scope);
  if (joined !== undefined) return joined;
  const callee = node.childForFieldName('function');
  const isStr = callee?.type === 'identifier' && callee.text === 'str';
  const isFormat =
    !isStr && callee?.type === 'attribute' && callee.childForFieldName('attribute')?.text === 'format';
  if (isStr || isFormat) {
    const { positional, keywords } = callArguments(node.childForFieldName('arguments'));
    if (isStr && positional.length === 1 && positional[0]) return resolveParts(positional[0], scope);
    const template = isFormat ? literalString(callee?.childForFieldName('object')) : undefined;
    if (template !== undefined) return formatParts(template, positional, keywords, scope);
  }
  return [{ t: 'expr', name: lastIdentifier(callee ?? node) }];
}

function formatParts(
  template: string,
  positional: readonly Node[],
  keywords: ReadonlyMap<string, Node>,
  scope: ValueScope,
): Parts {
  const parts: Part[] = [];
  let next = 0;
  let last = 0;
  for (const match of template.matchAll(/\{\{|\}\}|\{([^{}]*)\}/g)) {
    const index = match.index;
    parts.push({ t: 'lit', v: template.slice(last, index) });
    last = index + match[0].length;
    if (match[0] === '{{' || match[0] === '}}') {
      parts.push({ t: 'lit', v: match[0][0] ?? '' });
      continue;
    }
    const field = (match[1] ?? '').split(/[!:.[]/)[0] ?? '';
    const argument =
      field === ''
        ? positional[next++]
        : /^\d+$/.test(field)
          ? positional[Number(field)]
          : keywords.get(field);
    parts.push(
      ...(argument === undefined
        ? [{ t: 'expr' as const, name: field || 'param' }]
        : resolveParts(argument, scope)),
    );
  }
  parts.push({ t: 'lit', v: template.slice(last) });
  return parts;
}
