/**
 * The first line each side sends on a daemon connection, before any JSON-RPC. The daemon speaks first with
 * its version and pid; a client of another version closes the connection (see `versionRefusal`). The
 * client then names the MCP options of its session, which are per connection (the index is shared), or
 * sends one CLI command line, which the daemon answers with one line (`CommandAnswer`) before closing.
 */
export interface DaemonHello {
  readonly meshlens: 'daemon';
  readonly version: string;
  readonly pid: number;
}

/** An MCP session: JSON-RPC lines follow, both ways. */
export interface SessionHello {
  readonly meshlens: 'client';
  readonly version: string;
  readonly surface: 'domain' | 'flat';
  readonly structured_output: boolean;
}

/** One CLI command, answered as the CLI process would answer it. */
export interface CommandHello {
  readonly meshlens: 'cli';
  readonly version: string;
  /** The words after `meshlens`. */
  readonly argv: readonly string[];
  /** The CLI's working folder: relative paths on its command line are read from there. */
  readonly cwd: string;
  /** The CLI's pid, for the audit record's session (`cli-<pid>`, as in its own process). */
  readonly pid: number;
  /** When the CLI process started (ms since the epoch): changes made before it are waited for. */
  readonly started: number;
  /**
   * The CLI's terminal widths, for help text (absent: not a terminal). With a terminal on stderr, the daemon
   * reports the progress of an index the command waits for, as the CLI's own progress bar would.
   */
  readonly columns: { readonly stdout?: number; readonly stderr?: number };
}

export type ClientHello = SessionHello | CommandHello;

/** The daemon's last line for a `CommandHello`: what to print, or that the CLI should answer itself. */
export type CommandAnswer =
  | { readonly meshlens: 'answer'; readonly stdout: string; readonly stderr: string; readonly status: number }
  | { readonly meshlens: 'declined'; readonly reason: string };

/** Before the answer: how far the index the command waits for has come. */
export interface CommandProgress {
  readonly meshlens: 'progress';
  readonly done: number;
  readonly total: number;
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
  if (value?.meshlens === 'cli') return commandHelloOf(value);
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

const isWidth = (value: unknown): boolean =>
  value === undefined || (typeof value === 'number' && Number.isInteger(value) && value > 0);

function commandHelloOf(value: Record<string, unknown>): CommandHello | undefined {
  const { version, argv, cwd, pid, started, columns } = value;
  if (typeof version !== 'string' || typeof cwd !== 'string' || typeof started !== 'number') return undefined;
  if (!Array.isArray(argv) || !argv.every((word) => typeof word === 'string')) return undefined;
  if (typeof pid !== 'number' || !Number.isInteger(pid)) return undefined;
  const widths = (columns ?? {}) as Record<string, unknown>;
  if (typeof widths !== 'object' || !isWidth(widths.stdout) || !isWidth(widths.stderr)) return undefined;
  return {
    meshlens: 'cli',
    version,
    argv: argv as string[],
    cwd,
    pid,
    started,
    columns: {
      ...(widths.stdout !== undefined ? { stdout: widths.stdout as number } : {}),
      ...(widths.stderr !== undefined ? { stderr: widths.stderr as number } : {}),
    },
  };
}

/** A line of the daemon's answer to a command, or undefined when the line is something else. */
export function parseCommandAnswer(line: string): CommandAnswer | CommandProgress | undefined {
  const value = record(line);
  if (value?.meshlens === 'progress' && typeof value.done === 'number' && typeof value.total === 'number') {
    return { meshlens: 'progress', done: value.done, total: value.total };
  }
  if (value?.meshlens === 'declined' && typeof value.reason === 'string') {
    return { meshlens: 'declined', reason: value.reason };
  }
  const { stdout, stderr, status } = value ?? {};
  if (value?.meshlens !== 'answer' || typeof stdout !== 'string' || typeof stderr !== 'string')
    return undefined;
  if (typeof status !== 'number' || !Number.isInteger(status)) return undefined;
  return { meshlens: 'answer', stdout, stderr, status };
}

export const helloLine = (hello: DaemonHello | ClientHello | CommandAnswer | CommandProgress): string =>
  `${JSON.stringify(hello)}\n`;

/**
 * Why a client does not attach to a daemon of another version, and what it does instead (`Serving in this
 * process instead` for a session).
 */
export function versionRefusal(daemon: DaemonHello, clientVersion: string, instead = 'Serving'): string {
  return (
    `meshlens: the daemon for this workspace (pid ${daemon.pid}) runs version ${daemon.version}, ` +
    `this client is version ${clientVersion}: not attaching to it. ${instead} in this process instead; ` +
    `the old daemon exits once no client is attached (or end it now: kill ${daemon.pid}).`
  );
}
