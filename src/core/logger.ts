import { createRequire } from 'node:module';
import type pino from 'pino';

type LogMethod = (context: object | string, message?: string) => void;

/** What meshlens logs through: pino's calling convention, `logger.warn({ err, path }, 'message')`. */
export interface Logger {
  readonly debug: LogMethod;
  readonly info: LogMethod;
  readonly warn: LogMethod;
  readonly error: LogMethod;
}

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity } as const;
type LevelName = keyof typeof LEVELS;
const isLevel = (name: string): name is LevelName => Object.hasOwn(LEVELS, name);

/**
 * stdout belongs to the stdio transport, so every log line goes to stderr (fd 2), synchronously so that
 * nothing is lost when the process exits right after a message. pino itself is loaded on the first message
 * at or above the level, not at start-up: most runs log nothing, and loading it cost ~13 ms of the boot an
 * MCP client waits for.
 */
export function createLogger(level: string = process.env.MESHLENS_LOG ?? 'warn'): Logger {
  if (!isLevel(level)) {
    throw new Error(
      `MESHLENS_LOG="${level}" is not a log level; use one of ${Object.keys(LEVELS).join(', ')}`,
    );
  }
  const threshold = LEVELS[level];
  let sink: pino.Logger | undefined;
  const method =
    (name: 'debug' | 'info' | 'warn' | 'error'): LogMethod =>
    (context, message) => {
      if (LEVELS[name] < threshold) return;
      if (!sink) {
        const load = createRequire(import.meta.url)('pino') as typeof pino;
        sink = load({ name: 'meshlens', level }, load.destination({ fd: 2, sync: true }));
      }
      if (typeof context === 'string') sink[name](context);
      else sink[name](context, message);
    };
  return { debug: method('debug'), info: method('info'), warn: method('warn'), error: method('error') };
}

/** For tests and library use: a logger that drops everything. */
export const silentLogger: Logger = createLogger('silent');
