import { parseArgs } from 'node:util';
import type { SurfaceKind } from '../server/surface.js';

/** A plain `meshlens [--workspace D] [--config F] serve [serve options]` command line, parsed. */
export interface ServeArgs {
  readonly workspace?: string;
  readonly config?: string;
  readonly surface: SurfaceKind;
  readonly structuredOutput: boolean;
  readonly watch: boolean;
  /** `--allow-outside-workspace`: the config may name roots and skill files outside the workspace. */
  readonly allowOutsideWorkspace: boolean;
  /** Attach to the workspace's daemon (stdio only); `--no-daemon` serves in this process. */
  readonly daemon: boolean;
  /** `--http [--listen ADDR] [--allow-origin O]...`: Streamable HTTP instead of stdio. */
  readonly http?: {
    readonly listen?: string;
    readonly allowedOrigins: readonly string[];
    /** `--store`: `sqlite` or a PostgreSQL URL. */
    readonly store?: string;
  };
}

/**
 * Recognises a plain `serve` command line with Node's own argument parser, so that an MCP client's spawn
 * never loads commander and the generated command tree (~15 ms of a ~170 ms boot). Anything else — help,
 * an unknown option, a bad value — returns undefined and goes through the full CLI, which explains it.
 */
export function serveArgsOf(argv: readonly string[]): ServeArgs | undefined {
  return argsOf(argv, 'serve');
}

/**
 * The hidden `meshlens daemon` command line that `serve` starts a workspace daemon with: the serve options
 * that decide what is indexed (`--workspace`, `--config`, `--no-watch`, `--allow-outside-workspace`).
 */
export function daemonArgsOf(argv: readonly string[]): ServeArgs | undefined {
  const args = argsOf(argv, 'daemon');
  return args?.http ? undefined : args;
}

function argsOf(argv: readonly string[], command: 'serve' | 'daemon'): ServeArgs | undefined {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.slice(2),
      allowPositionals: true,
      strict: true,
      options: {
        workspace: { type: 'string' },
        config: { type: 'string' },
        surface: { type: 'string' },
        'structured-output': { type: 'boolean' },
        'text-only': { type: 'boolean' },
        'no-watch': { type: 'boolean' },
        'no-daemon': { type: 'boolean' },
        'allow-outside-workspace': { type: 'boolean' },
        http: { type: 'boolean' },
        listen: { type: 'string' },
        'allow-origin': { type: 'string', multiple: true },
        store: { type: 'string' },
      },
    });
  } catch {
    return undefined;
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1 || positionals[0] !== command) return undefined;
  const surface = values.surface ?? 'domain';
  if (surface !== 'domain' && surface !== 'flat') return undefined;
  const http = values.http ?? false;
  // `--listen` without `--http` is a mistake the full CLI explains.
  if (
    !http &&
    (values.listen !== undefined || values['allow-origin'] !== undefined || values.store !== undefined)
  )
    return undefined;
  return {
    ...(values.workspace !== undefined ? { workspace: values.workspace } : {}),
    ...(values.config !== undefined ? { config: values.config } : {}),
    surface,
    // Structured output is the default; `--structured-output` is still accepted from older configs.
    structuredOutput: !(values['text-only'] ?? false),
    watch: !(values['no-watch'] ?? false),
    allowOutsideWorkspace: values['allow-outside-workspace'] ?? false,
    daemon: !(values['no-daemon'] ?? false),
    ...(http
      ? {
          http: {
            ...(values.listen !== undefined ? { listen: values.listen } : {}),
            allowedOrigins: values['allow-origin'] ?? [],
            ...(values.store !== undefined ? { store: values.store } : {}),
          },
        }
      : {}),
  };
}

/**
 * Whether a stdio `serve` attaches to the workspace daemon: not with `--no-daemon` or `MESHLENS_NO_DAEMON=1`,
 * nor on Windows, whose local sockets are named pipes without the file permissions the socket's privacy
 * rests on. `--http` never does.
 */
export function daemonWanted(args: Pick<ServeArgs, 'daemon' | 'http'>, env = process.env): boolean {
  return !args.http && args.daemon && env.MESHLENS_NO_DAEMON !== '1' && process.platform !== 'win32';
}
