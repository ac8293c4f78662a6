import type { ServerResponse } from 'node:http';
import type { HttpRefusal } from './request-checks.js';

/** The JSON-RPC code the SDK uses for an error of the transport rather than of a method. */
const TRANSPORT_ERROR = -32000;

/**
 * Ends a request with a short JSON body, shaped as a JSON-RPC error without an id as the SDK's own refusals
 * are, so a client reads ours and the SDK's alike.
 */
export function refuse(response: ServerResponse, refusal: HttpRefusal): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  const code = refusal.code ?? TRANSPORT_ERROR;
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message: refusal.message }, id: null });
  response.writeHead(refusal.status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    ...refusal.headers,
  });
  response.end(body);
}
