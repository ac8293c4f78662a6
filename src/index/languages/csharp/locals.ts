/**
 * C# local state in statement order: what a local declaration or an assignment binds (a client, a string
 * value, a server-named queue), and `x.BaseAddress = …` on an HttpClient.
 */
import type { Node } from 'web-tree-sitter';
import type { CsCalls } from './calls.js';
import { bindingOfExpression, bindingOfType, declaredBinding } from './contracts.js';
import type { CsMessaging } from './messaging.js';
import { declarator, type CsFrame, type CsScope } from './scope.js';
import { csDotted, kids, resolveCs } from './values.js';

/** The file-wide readers a statement updates. */
export interface CsLocals {
  readonly scope: CsScope;
  readonly messaging: CsMessaging;
  readonly calls: CsCalls;
}

/** `var x = …;` / `HttpClient x = …;`: each declarator's binding and string value. */
export function readLocalDeclaration(node: Node, frame: CsFrame, { scope, messaging }: CsLocals): void {
  const declaration = kids(node).find((child) => child.type === 'variable_declaration');
  const typeBinding = bindingOfType(declaration?.childForFieldName('type'));
  const values = scope.valueScope(frame);
  for (const variable of kids(declaration).filter((child) => child.type === 'variable_declarator')) {
    const { name, value } = declarator(variable);
    if (name === undefined) continue;
    messaging.declared(frame, name.text, declaration?.childForFieldName('type'), value);
    const binding = declaredBinding(
      typeBinding,
      bindingOfExpression(value, { scope: values, lookup: (key) => scope.lookup(frame, key) }),
    );
    scope.bindLocal(frame, name.text, binding, value === undefined ? undefined : resolveCs(value, values));
  }
}

/** `x = …`: a base address, a queue a field comes to hold, or a local's new binding. */
export function readAssignment(node: Node, frame: CsFrame, { scope, messaging, calls }: CsLocals): void {
  const left = node.childForFieldName('left');
  const right = node.childForFieldName('right');
  if (left === null || right === null) return;
  const values = scope.valueScope(frame);
  if (
    left.type === 'member_access_expression' &&
    csDotted(left.childForFieldName('name')) === 'BaseAddress'
  ) {
    calls.baseAddress(node, left.childForFieldName('expression'), resolveCs(right, values), frame);
    return;
  }
  // `_queue = …` or `this._queue = …`: a field may come to hold a server-named queue.
  const target = csDotted(left);
  if (target !== undefined) messaging.declared(frame, target, undefined, right);
  if (left.type === 'identifier') {
    const binding = bindingOfExpression(right, { scope: values, lookup: (key) => scope.lookup(frame, key) });
    if (binding !== undefined && frame.locals.has(left.text)) frame.locals.set(left.text, binding);
  }
}
