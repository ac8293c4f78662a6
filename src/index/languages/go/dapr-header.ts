/**
 * Dapr service invocation by header: a request built with `http.NewRequest` and sent to the local
 * sidecar reaches the app its `dapr-app-id` header names (`req.Header.Add("dapr-app-id", "orders")`),
 * at the URL's path. The header is read in the function that builds the request, on the variable the
 * request is assigned to, after it is built and before that variable is assigned again.
 */
import type { Node } from 'web-tree-sitter';
import { argumentsOf, stringValue, unwrapParens, type GoScope } from './scope.js';
import { DAPR_APP_ID_HEADER } from '../shared/dapr.js';
import type { UrlPart } from '../shared/native-common.js';

const FUNCTION_TYPES = new Set(['function_declaration', 'method_declaration', 'func_literal']);
const HEADER_SETTERS = new Set(['Add', 'Set']);

/** The app id the request `call` builds is sent to by its `dapr-app-id` header; undefined without one. */
export function daprAppIdHeader(call: Node, scope: GoScope): string | undefined {
  const variable = assignedVariable(call);
  const body = variable === undefined ? undefined : enclosingFunction(call);
  if (variable === undefined || body === undefined) return undefined;
  let app: string | undefined;
  for (const node of body.descendantsOfType([
    'call_expression',
    'short_var_declaration',
    'assignment_statement',
  ])) {
    if (node === null || node.startIndex <= call.endIndex) continue;
    if (node.type !== 'call_expression') {
      // The variable holds another request from here on.
      if (assigns(node, variable)) break;
      continue;
    }
    const value = headerValue(node, variable, scope);
    if (value !== undefined) app = value;
  }
  return app === '' ? undefined : app;
}

/**
 * The URL's parts as the sidecar sees them: the scheme, host and port of the sidecar's address dropped,
 * so `daprHost + ":" + port + "/orders"` is `/orders`.
 */
export function sidecarRelative(parts: readonly UrlPart[]): UrlPart[] {
  let rest = [...parts];
  const first = rest[0];
  if (first?.kind === 'text' && /^[a-z][a-z0-9+.-]*:\/\//i.test(first.text)) {
    const afterHost = first.text.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
    rest = afterHost === '' ? rest.slice(1) : [{ kind: 'text', text: afterHost }, ...rest.slice(1)];
    if (afterHost !== '') return rest;
  }
  if (rest[0]?.kind === 'hole') rest = rest.slice(1);
  const port = rest[0];
  if (port?.kind === 'text' && port.text.startsWith(':')) {
    const path = port.text.replace(/^:\d*/, '');
    rest =
      path === ''
        ? rest.slice(rest[1]?.kind === 'hole' ? 2 : 1)
        : [{ kind: 'text', text: path }, ...rest.slice(1)];
  }
  return rest;
}

/** `req` in `req, err := http.NewRequest(…)`, `req, err = …` or `var req, err = …`. */
function assignedVariable(call: Node): string | undefined {
  const list = call.parent;
  if (list?.type !== 'expression_list' || list.namedChild(0)?.id !== call.id) {
    if (list?.type !== 'var_spec') return undefined;
  }
  const statement = list.type === 'var_spec' ? list : list.parent;
  if (statement?.type === 'var_spec') return statement.childForFieldName('name')?.text;
  if (statement?.type !== 'short_var_declaration' && statement?.type !== 'assignment_statement')
    return undefined;
  const left = statement.childForFieldName('left')?.namedChild(0);
  return left?.type === 'identifier' && left.text !== '_' ? left.text : undefined;
}

function enclosingFunction(node: Node): Node | undefined {
  for (let current = node.parent; current !== null; current = current.parent)
    if (FUNCTION_TYPES.has(current.type)) return current.childForFieldName('body') ?? undefined;
  return undefined;
}

function assigns(statement: Node, variable: string): boolean {
  const left = statement.childForFieldName('left');
  return left?.namedChildren.some((n) => n?.type === 'identifier' && n.text === variable) === true;
}

/** The value of `variable.Header.Add/Set("dapr-app-id", value)`, when `call` is that. */
function headerValue(call: Node, variable: string, scope: GoScope): string | undefined {
  const fn = call.childForFieldName('function');
  if (fn?.type !== 'selector_expression' || !HEADER_SETTERS.has(fn.childForFieldName('field')?.text ?? ''))
    return undefined;
  const header = unwrapParens(fn.childForFieldName('operand') ?? fn);
  if (header.type !== 'selector_expression' || header.childForFieldName('field')?.text !== 'Header')
    return undefined;
  if (header.childForFieldName('operand')?.text !== variable) return undefined;
  const [name, value] = argumentsOf(call);
  if (name === undefined || value === undefined) return undefined;
  if (stringValue(name, scope)?.value.toLowerCase() !== DAPR_APP_ID_HEADER) return undefined;
  return stringValue(value, scope)?.value ?? '';
}
