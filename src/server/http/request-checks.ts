import type { IncomingMessage } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { isLoopbackHost } from './listen-address.js';

/** An HTTP answer that ends a request before MCP sees it. */
export interface HttpRefusal {
  readonly status: number;
  readonly message: string;
  /** The JSON-RPC error code of the body; -32000 (a transport error) when absent. */
  readonly code?: number;
  readonly headers?: Record<string, string>;
}

export interface OriginPolicy {
  /** Bound to a loopback address: the Host header must then name loopback too (DNS rebinding). */
  readonly loopback: boolean;
  /** Origins a browser page may call from; same-origin loopback pages are always among them. */
  readonly allowedOrigins: ReadonlySet<string>;
}

/** The host name of a Host header, without the port (`[::1]:8808` → `[::1]`). */
function hostNameOf(host: string): string {
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] ?? '');
}

/**
 * A page on a foreign site that makes the browser call this server gets 403, and so does a request whose
 * Host is a name that merely resolves to loopback (a rebinding attack: the page's own origin points at us).
 * Clients that are not browsers send no Origin and pass.
 */
export function checkOrigin(request: IncomingMessage, policy: OriginPolicy): HttpRefusal | undefined {
  const host = request.headers.host;
  if (policy.loopback && (!host || !isLoopbackHost(hostNameOf(host)))) {
    return {
      status: 403,
      message: `Forbidden: Host ${host ?? '(none)'} is not a loopback name; this server answers only 127.0.0.1, [::1] or localhost`,
    };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !policy.allowedOrigins.has(origin.toLowerCase())) {
    return { status: 403, message: `Forbidden: Origin ${origin} is not allowed` };
  }
  return undefined;
}

/**
 * The `MCP-Protocol-Version` header. A missing one is allowed (the spec then assumes 2025-03-26, and the
 * SDK does so); a version this server does not speak is 400 before any session is looked up.
 */
export function checkProtocolVersion(request: IncomingMessage): HttpRefusal | undefined {
  const version = request.headers['mcp-protocol-version'];
  if (version === undefined) return undefined;
  const value = Array.isArray(version) ? version.join(',') : version;
  if (SUPPORTED_PROTOCOL_VERSIONS.includes(value)) return undefined;
  return {
    status: 400,
    message: `Bad Request: unsupported MCP-Protocol-Version ${value}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`,
  };
}

/** The origins a same-origin page of this server has: loopback names under the bound port. */
export function loopbackOrigins(port: number): string[] {
  return ['127.0.0.1', 'localhost', '[::1]'].map((host) => `http://${host}:${port}`);
}
