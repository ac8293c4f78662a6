import { isIP } from 'node:net';

/** Where the HTTP server listens: a host name or address, and a port (0 lets the system choose). */
export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

export const DEFAULT_LISTEN: ListenAddress = { host: '127.0.0.1', port: 8808 };

/** Thrown for a `--listen` value that is no `host:port`; the CLI reports it as a usage error. */
export class ListenAddressError extends Error {}

/**
 * Reads `host:port`, `[v6]:port`, `:port` (loopback) or a bare port. Brackets are required around an IPv6
 * address with a port, so that `::1:8080` is never guessed at.
 */
export function parseListenAddress(text: string): ListenAddress {
  const trimmed = text.trim();
  const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(trimmed);
  const plain = /^([^:[\]]*):(\d+)$/.exec(trimmed);
  const bare = /^(\d+)$/.exec(trimmed);
  const host =
    bracketed?.[1] ?? (plain ? plain[1] || DEFAULT_LISTEN.host : bare ? DEFAULT_LISTEN.host : undefined);
  const portText = bracketed?.[2] ?? plain?.[2] ?? bare?.[1];
  if (host === undefined || portText === undefined) {
    throw new ListenAddressError(
      `--listen ${text}: expected host:port (127.0.0.1:8808, [::1]:8808, :8808 or 8808)`,
    );
  }
  const port = Number(portText);
  if (!Number.isInteger(port) || port > 65535) {
    throw new ListenAddressError(`--listen ${text}: the port must be a number from 0 to 65535`);
  }
  if (bracketed && isIP(host) !== 6) {
    throw new ListenAddressError(`--listen ${text}: only an IPv6 address goes between brackets`);
  }
  return { host, port };
}

/** Names that always mean this machine only. `localhost` counts: Node resolves it to a loopback address. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (name === 'localhost' || name === '::1') return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::ffff:127.0.0.1';
}

/** `host:port` as a URL authority (brackets around IPv6). */
export function authorityOf({ host, port }: ListenAddress): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The refusal for a non-loopback address without authentication: what was asked, why not, what to do. */
export function beyondLoopbackRefusal(address: ListenAddress): string {
  return (
    `refusing to listen on ${authorityOf(address)} without authentication: anyone who can reach it could ` +
    'read the workspace. Listen on a loopback address (127.0.0.1, ::1 or localhost), or configure ' +
    'authentication first (see docs/deploy.md).'
  );
}
