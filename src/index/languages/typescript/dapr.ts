/**
 * Dapr service invocation with the JavaScript SDK (`@dapr/dapr`, formerly `dapr-client`):
 * `client.invoker.invoke(appId, methodName, HttpMethod.POST, data)` calls `/<methodName>` on the app
 * (base `service:<appId>`), and `server.invoker.listen(methodName, handler, { method })` serves it.
 */
import type { Node } from 'web-tree-sitter';
import { args, type Site } from './holders.js';
import { emitKnownRequest, requestArgs } from './http-calls.js';
import type { FileState } from './model.js';
import { toVal, type Val } from './values.js';
import { resolveName } from './resolve-values.js';
import { normalizeHttpPath } from '../shared/tree-utils.js';

const DAPR_MODULES = new Set(['@dapr/dapr', 'dapr-client']);

function importsDapr(state: FileState): boolean {
  for (const binding of state.importBindings.values()) if (DAPR_MODULES.has(binding.source)) return true;
  return false;
}

/** `HttpMethod.POST` → `POST`; a string → itself upper-cased. */
function verbOf(state: FileState, val: Val | undefined): string | undefined {
  return val === undefined ? undefined : resolveName(val, state.tables)?.value.toUpperCase();
}

/** `<x>.invoker.invoke(…)` / `<x>.invoker.listen(…)`; true when the call has that shape (decided later). */
export function daprInvokerCall(state: FileState, node: Node, callee: Node, site: Site): boolean {
  const method = callee.childForFieldName('property')?.text;
  const object = callee.childForFieldName('object');
  if ((method !== 'invoke' && method !== 'listen') || object?.type !== 'member_expression') return false;
  if (object.childForFieldName('property')?.text !== 'invoker') return false;
  const list = args(node);
  if (list[0] === undefined) return false;
  if (method === 'invoke') {
    const { values, texts } = requestArgs(list, site);
    const [appId, name, verb] = values;
    if (appId === undefined || name === undefined) return false;
    state.pending.push((out) => {
      if (!importsDapr(state)) return;
      const url: Val = {
        k: 'cat',
        parts: [{ k: 'str', v: '/v1.0/invoke/' }, appId, { k: 'str', v: '/method/' }, name],
      };
      emitKnownRequest(state, out, site, 'dapr invoker', {
        url,
        urlText: `${texts[0] ?? ''}, ${texts[1] ?? ''}`,
        // `HttpMethod.POST` is the SDK's enum: its member name is the method.
        ...(verb === undefined ? {} : { method: { k: 'str', v: verbOf(state, verb) ?? 'ANY' } }),
      });
    });
    return true;
  }
  const name = toVal(list[0], site.locals, site.cls);
  const options = list[2] === undefined ? undefined : toVal(list[2], site.locals, site.cls);
  state.pending.push((out) => {
    if (!importsDapr(state)) return;
    const path = resolveName(name, state.tables);
    if (path === undefined) return;
    out.addContract({
      kind: 'http_route',
      method: verbOf(state, options?.k === 'obj' ? options.props.get('method') : undefined) ?? 'ANY',
      path: normalizeHttpPath(path.value),
      ...(site.symbol === undefined ? {} : { symbol: site.symbol }),
      line: site.line,
      via: 'dapr invoker.listen',
    });
  });
  return true;
}
