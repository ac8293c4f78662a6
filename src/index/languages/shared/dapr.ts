/**
 * Dapr service invocation over plain HTTP: a call to the local sidecar's invocation API
 * (`http://localhost:3500/v1.0/invoke/<app-id>/method/<path>`) reaches the app named `<app-id>` at
 * `/<path>`. Every language's HTTP clients can call it, so the rewrite is applied to a file's facts once.
 */
import type { ContractFact, FileFacts } from '../../facts.js';
import { normalizeHttpPath } from './tree-utils.js';

const INVOKE = /^\/v1\.0\/invoke\/([^/]+)\/method(\/.*)?$/;

/** The app and path a sidecar invocation path reaches; undefined for any other path. */
export function sidecarInvocation(
  path: string,
): { readonly app?: string; readonly path: string } | undefined {
  const match = INVOKE.exec(path);
  if (match === null) return undefined;
  const app = match[1] ?? '';
  const rest = normalizeHttpPath(match[2] ?? '/');
  // An app id the code computes (`{app}`) names no service.
  return /[{}]/.test(app) ? { path: rest } : { app, path: rest };
}

/** The file's facts with each HTTP call to the sidecar's invocation API aimed at the app it invokes. */
export function rewriteSidecarCalls(facts: FileFacts): FileFacts {
  if (!facts.contracts.some((fact) => fact.kind === 'http_call' && INVOKE.test(fact.path))) return facts;
  const contracts = facts.contracts.map((fact): ContractFact => {
    if (fact.kind !== 'http_call') return fact;
    const target = sidecarInvocation(fact.path);
    if (target === undefined) return fact;
    const { base: _sidecar, ...rest } = fact;
    return target.app === undefined
      ? { ...rest, path: target.path }
      : { ...rest, path: target.path, base: `service:${target.app}` };
  });
  return { ...facts, contracts };
}
