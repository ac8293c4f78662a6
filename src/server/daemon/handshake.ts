/**
 * The first line each side sends on a daemon connection, before any JSON-RPC. The daemon speaks first with
 * its version and pid; a client of another version closes the connection (see `versionRefusal`). The
 * client then names the MCP options of its session, which are per connection (the index is shared).
 */
export interface DaemonHello {
  readonly meshlens: 'daemon';
  readonly version: string;
  readonly pid: number;
}

export interface ClientHello {
  readonly meshlens: 'client';
  readonly version: string;
  readonly surface: 'domain' | 'flat';
  readonly structured_output: boolean;
}

const record = (line: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
};

/** The daemon's first line, or undefined when the line is something else (not a meshlens daemon). */
export function parseDaemonHello(line: string): DaemonHello | undefined {
  const value = record(line);
  if (value?.meshlens !== 'daemon' || typeof value.version !== 'string') return undefined;
  if (typeof value.pid !== 'number' || !Number.isInteger(value.pid)) return undefined;
  return { meshlens: 'daemon', version: value.version, pid: value.pid };
}

export function parseClientHello(line: string): ClientHello | undefined {
  const value = record(line);
  if (value?.meshlens !== 'client' || typeof value.version !== 'string') return undefined;
  if (value.surface !== 'domain' && value.surface !== 'flat') return undefined;
  if (typeof value.structured_output !== 'boolean') return undefined;
  return {
    meshlens: 'client',
    version: value.version,
    surface: value.surface,
    structured_output: value.structured_output,
  };
}

export const helloLine = (hello: DaemonHello | ClientHello): string => `${JSON.stringify(hello)}\n`;

/** Why a client does not attach to a daemon of another version, and what it does instead. */
export function versionRefusal(daemon: DaemonHello, clientVersion: string): string {
  return (
    `meshlens: the daemon for this workspace (pid ${daemon.pid}) runs version ${daemon.version}, ` +
    `this client is version ${clientVersion}: not attaching to it. Serving in this process instead; ` +
    `the old daemon exits once no client is attached (or end it now: kill ${daemon.pid}).`
  );
}
