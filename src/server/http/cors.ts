import type { IncomingMessage, ServerResponse } from 'node:http';

const METHODS = 'GET, POST, DELETE';
const REQUEST_HEADERS =
  'Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID';
/** A browser client must read the session id the server assigns, and the version it speaks. */
const EXPOSED_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate';

/**
 * Lets a page from an allowed origin (`--allow-origin`, or the server's own) read the answers. Runs after
 * the Origin check: an Origin that reaches here is allowed. Returns true when the request was a CORS
 * preflight, answered here: a browser sends it without credentials, so it comes before authentication.
 */
export function applyCors(request: IncomingMessage, response: ServerResponse): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  response.setHeader('Access-Control-Allow-Origin', origin);
  response.setHeader('Vary', 'Origin');
  response.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  if (request.method !== 'OPTIONS') return false;
  response.writeHead(204, {
    'Access-Control-Allow-Methods': METHODS,
    'Access-Control-Allow-Headers': REQUEST_HEADERS,
    'Access-Control-Max-Age': '600',
  });
  response.end();
  return true;
}
