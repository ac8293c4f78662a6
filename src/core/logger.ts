import pino from 'pino';

export type Logger = pino.Logger;

/**
 * stdout belongs to the stdio transport, so every log line goes to stderr (fd 2), synchronously so that
 * nothing is lost when the process exits right after a message.
 */
export function createLogger(level: string = process.env.MESHLENS_LOG ?? 'warn'): Logger {
  return pino({ name: 'meshlens', level }, pino.destination({ fd: 2, sync: true }));
}

/** For tests and library use: a logger that drops everything. */
export const silentLogger: Logger = pino({ level: 'silent' });
