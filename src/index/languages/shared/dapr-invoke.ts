/**
 * Dapr service invocation over plain HTTP, the same in every language: a request to the caller's own
 * sidecar either names the target app in the path (`/v1.0/invoke/<app-id>/method/<method>`) or in a
 * `dapr-app-id` header, and the target app receives `/<method>`. The base such a call goes to is the app,
 * written `service:<app-id>`.
 */

/** The header that routes a plain sidecar request to an app (`dapr-app-id: checkout`). */
export const DAPR_APP_ID_HEADER = 'dapr-app-id';

const INVOKE_PATH = /^\/v1\.0\/invoke\/([^/]+)\/method(\/.*)?$/;

/**
 * The app and the path it receives, when `path` (normalised) is a sidecar invocation path:
 * `/v1.0/invoke/checkout/method/orders/{id}` → `checkout`, `/orders/{id}`. An app id that is not literal
 * (`{appId}`) names no app.
 */
export function daprInvocation(path: string): { readonly appId: string; readonly path: string } | undefined {
  const match = INVOKE_PATH.exec(path);
  const appId = match?.[1];
  if (appId === undefined || appId.includes('{')) return undefined;
  return { appId, path: match?.[2] ?? '/' };
}
