/**
 * C# value resolution for contract facts: string literals (regular, verbatim, raw, interpolated),
 * concatenation, `??` fallbacks, same-file constants and static fields, `nameof`, `new Uri(…)`,
 * `string.Format`, `Environment.GetEnvironmentVariable("X")` (an env part) and configuration reads
 * (`configuration["Orders:Url"]`, `GetValue<string>("Orders:Url")`, `GetSection("Orders")["Url"]`: a config
 * part keyed `Orders.Url`). Anything else is an opaque `expr` part, so a variable never becomes a topic.
 */
import type { Node } from 'web-tree-sitter';
import type { Part, Parts } from '../shared/tree-utils.js';

export interface CsValueScope {
  /** A simple name: local constant/variable, then a field of the enclosing classes. */
  name(name: string): Parts | undefined;
  /** `Owner.Name` where `Owner` is a class declared in this file. */
  member(owner: string, name: string): Parts | undefined;
  /**
   * True when a dotted PascalCase `path` can only name a type another file declares: no variable, field,
   * property or parameter in scope and no type of this file goes by it.
   */
  foreignType(path: string): boolean;
}

/** Named children without comments. */
export function kids(node: Node | null | undefined): Node[] {
  return (node?.namedChildren ?? []).filter(
    (child): child is Node => child !== null && child.type !== 'comment',
  );
}

/** The argument expressions of an `argument_list`, with the name of each named argument (`topic: "x"`). */
export function csArguments(list: Node | null): {
  readonly positional: readonly Node[];
  readonly named: ReadonlyMap<string, Node>;
} {
  const positional: Node[] = [];
  const named = new Map<string, Node>();
  for (const argument of kids(list)) {
    if (argument.type !== 'argument') continue;
    const name = argument.childForFieldName('name');
    const value = kids(argument)
      .filter((child) => child.id !== name?.id)
      .pop();
    if (value === undefined) continue;
    if (name !== null) named.set(name.text, value);
    else positional.push(value);
  }
  return { positional, named };
}

/** Dotted text of an identifier / member access / qualified name chain; undefined for other shapes. */
export function csDotted(node: Node | null | undefined): string | undefined {
  if (node === null || node === undefined) return undefined;
  switch (node.type) {
    case 'identifier':
    case 'this':
    case 'predefined_type':
      return node.text;
    case 'generic_name':
      return kids(node)[0]?.text;
    case 'qualified_name':
    case 'member_access_expression': {
      const left = csDotted(
        node.childForFieldName(node.type === 'qualified_name' ? 'qualifier' : 'expression'),
      );
      const right = csDotted(node.childForFieldName('name'));
      return left === undefined || right === undefined ? undefined : `${left}.${right}`;
    }
    default:
      return undefined;
  }
}

/** A literal string's text, or undefined when the node is no plain literal. */
export function csLiteral(node: Node | null | undefined): string | undefined {
  if (node === null || node === undefined) return undefined;
  switch (node.type) {
    case 'string_literal':
      return kids(node)
        .map((child) => child.text)
        .join('');
    case 'verbatim_string_literal':
      return node.text.slice(2, -1).replace(/""/g, '"');
    case 'raw_string_literal':
      return kids(node).find((child) => child.type === 'raw_string_content')?.text ?? '';
    default:
      return undefined;
  }
}

function lastIdentifier(node: Node): string {
  const names = node.text.match(/[A-Za-z_]\w*/g);
  return names?.[names.length - 1] ?? 'param';
}

function opaque(node: Node): Parts {
  return [{ t: 'expr', name: lastIdentifier(node) }];
}

function operatorOf(node: Node): string | undefined {
  return (
    node.childForFieldName('operator')?.type ??
    node.children.find((child) => child !== null && !child.isNamed)?.type
  );
}

/** Resolves an expression into parts; unresolvable pieces become `expr` parts. */
export function resolveCs(node: Node, scope: CsValueScope): Parts {
  const literal = csLiteral(node);
  if (literal !== undefined) return [{ t: 'lit', v: literal }];
  switch (node.type) {
    case 'interpolated_string_expression': {
      // In `$"…"` (not raw `$$"""…`), `{{` and `}}` are a literal brace.
      const unescape = /^(?:\$@?|@\$)"/.test(node.text);
      const parts: Part[] = [];
      for (const child of kids(node)) {
        if (child.type === 'interpolation') {
          const expression = kids(child).find(
            (inner) => inner.type !== 'interpolation_brace' && !inner.type.startsWith('interpolation_'),
          );
          parts.push(...(expression === undefined ? [] : resolveCs(expression, scope)));
        } else if (child.type !== 'interpolation_start' && child.type !== 'interpolation_quote') {
          parts.push({
            t: 'lit',
            v: unescape ? child.text.replace(/\{\{/g, '{').replace(/\}\}/g, '}') : child.text,
          });
        }
      }
      return parts;
    }
    case 'parenthesized_expression':
    case 'cast_expression':
    case 'await_expression':
    case 'postfix_unary_expression': {
      // `x!` (null-forgiving) is `x`; `i++` is no string.
      if (node.type === 'postfix_unary_expression' && !node.text.endsWith('!')) return opaque(node);
      const inner = kids(node).at(-1);
      return inner === undefined ? opaque(node) : resolveCs(inner, scope);
    }
    case 'binary_expression': {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      if (left === null || right === null) return opaque(node);
      const operator = operatorOf(node);
      if (operator === '+') return [...resolveCs(left, scope), ...resolveCs(right, scope)];
      if (operator === '??') {
        const first = resolveCs(left, scope);
        const fallback = csLiteral(right);
        const only = first[0];
        if (first.length === 1 && (only?.t === 'env' || only?.t === 'config') && fallback !== undefined)
          return [{ ...only, fallback }];
        return first;
      }
      return opaque(node);
    }
    case 'identifier':
      return scope.name(node.text) ?? opaque(node);
    case 'member_access_expression': {
      const path = csDotted(node);
      if (path === undefined) return opaque(node);
      const dot = path.lastIndexOf('.');
      const owner = path.slice(0, dot);
      const name = path.slice(dot + 1);
      return (owner === 'this' ? scope.name(name) : scope.member(owner, name)) ?? opaque(node);
    }
    case 'invocation_expression':
      return invocationParts(node, scope);
    case 'element_access_expression':
      return configParts(node) ?? opaque(node);
    case 'object_creation_expression': {
      // `new Uri(x)` is the URL `x`; `new Uri(base, "relative")` joins them.
      const type = csDotted(node.childForFieldName('type'));
      const [first, second] = csArguments(node.childForFieldName('arguments')).positional;
      if ((type !== 'Uri' && type !== 'System.Uri') || first === undefined) return opaque(node);
      const base = resolveCs(first, scope);
      return second === undefined ? base : [...base, { t: 'lit', v: '/' }, ...resolveCs(second, scope)];
    }
    default:
      return opaque(node);
  }
}

/** A receiver that holds the configuration: `configuration`, `_config`, `builder.Configuration`. */
const CONFIGURATION = /^_?config(?:uration)?$/i;

/** The configuration key a `GetSection` chain or a configuration receiver stands for (`''` for the root). */
function configSection(node: Node | null): string | undefined {
  if (node === null) return undefined;
  const path = csDotted(node);
  if (path !== undefined) return CONFIGURATION.test(path.split('.').pop() ?? '') ? '' : undefined;
  if (node.type !== 'invocation_expression') return undefined;
  const callee = node.childForFieldName('function');
  if (
    callee?.type !== 'member_access_expression' ||
    csDotted(callee.childForFieldName('name')) !== 'GetSection'
  )
    return undefined;
  const outer = configSection(callee.childForFieldName('expression'));
  const key = csLiteral(csArguments(node.childForFieldName('arguments')).positional[0]);
  return outer === undefined || key === undefined ? undefined : joinKey(outer, key);
}

/** .NET configuration keys nest with `:`; the graph reads them dotted, as every other configuration key. */
function joinKey(outer: string, key: string): string {
  const dotted = key.replace(/:/g, '.');
  return outer === '' ? dotted : `${outer}.${dotted}`;
}

/** `configuration["Orders:Url"]`, `configuration.GetSection("Orders")["Url"]` → a config part. */
function configParts(node: Node): Parts | undefined {
  const section = configSection(node.childForFieldName('expression'));
  const subscript = kids(node).find((child) => child.type === 'bracketed_argument_list');
  const key = csLiteral(kids(kids(subscript)[0]).at(-1));
  return section === undefined || key === undefined
    ? undefined
    : [{ t: 'config', key: joinKey(section, key) }];
}

/** `string.Format("{0}/orders/{1}", baseUrl, id)`: the format's literal text with its arguments in place. */
function formatParts(positional: readonly Node[], scope: CsValueScope): Parts | undefined {
  const format = csLiteral(positional[0]);
  if (format === undefined) return undefined;
  const parts: Part[] = [];
  let last = 0;
  for (const match of format.matchAll(/\{(\d+)(?:[,:][^}]*)?\}/g)) {
    parts.push({ t: 'lit', v: format.slice(last, match.index) });
    const argument = positional[Number(match[1]) + 1];
    parts.push(
      ...(argument === undefined ? [{ t: 'expr' as const, name: 'param' }] : resolveCs(argument, scope)),
    );
    last = match.index + match[0].length;
  }
  parts.push({ t: 'lit', v: format.slice(last) });
  return parts.filter((part) => part.t !== 'lit' || part.v !== '');
}

function invocationParts(node: Node, scope: CsValueScope): Parts {
  const callee = csDotted(node.childForFieldName('function'));
  const { positional } = csArguments(node.childForFieldName('arguments'));
  const first = positional[0];
  if (callee === 'string.Format' || callee === 'String.Format')
    return formatParts(positional, scope) ?? opaque(node);
  const dot = callee?.lastIndexOf('.') ?? -1;
  if (callee !== undefined && callee.slice(dot + 1) === 'GetValue' && first !== undefined) {
    // `configuration.GetValue<string>("Orders:Url", "http://orders")`
    const receiver = node.childForFieldName('function')?.childForFieldName('expression') ?? null;
    const section = configSection(receiver);
    const key = csLiteral(first);
    const fallback = csLiteral(positional[1]);
    if (section !== undefined && key !== undefined) {
      const full = joinKey(section, key);
      return [fallback === undefined ? { t: 'config', key: full } : { t: 'config', key: full, fallback }];
    }
  }
  if (
    (callee === 'Environment.GetEnvironmentVariable' ||
      callee === 'System.Environment.GetEnvironmentVariable') &&
    first
  ) {
    const key = csLiteral(first);
    if (key !== undefined) return [{ t: 'env', name: key }];
  }
  if (callee === 'nameof' && first !== undefined) {
    const path = csDotted(first);
    if (path !== undefined) return [{ t: 'lit', v: path.slice(path.lastIndexOf('.') + 1) }];
  }
  return opaque(node);
}
