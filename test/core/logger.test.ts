import fs from 'node:fs';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createLogger, silentLogger } from '../../src/core/logger.js';

afterEach(() => vi.restoreAllMocks());

/** What the logger wrote to stderr (fd 2) while `run` ran, one parsed JSON object per line. */
function stderrLines(run: () => void): Record<string, unknown>[] {
  const written: string[] = [];
  vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, data: unknown) => {
    if (fd === 2) written.push(String(data));
    return String(data).length;
  }) as typeof fs.writeSync);
  run();
  return written
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('logger', () => {
  test('writes pino JSON lines to stderr at and above its level, nothing below', () => {
    const logger = createLogger('warn');
    const lines = stderrLines(() => {
      logger.info({ path: 'a' }, 'not shown');
      logger.warn({ path: 'b' }, 'shown');
      logger.error('plain message');
    });
    expect(lines.map(({ level, msg, path, name }) => ({ level, msg, path, name }))).toEqual([
      { level: 40, msg: 'shown', path: 'b', name: 'meshlens' },
      { level: 50, msg: 'plain message', path: undefined, name: 'meshlens' },
    ]);
  });

  test('serialises an error the way pino does', () => {
    const [line] = stderrLines(() => createLogger('error').error({ err: new Error('boom') }, 'failed'));
    expect(line?.err).toMatchObject({ type: 'Error', message: 'boom' });
  });

  test('the silent logger writes nothing; an unknown level is refused with the accepted ones', () => {
    expect(stderrLines(() => silentLogger.error('nothing'))).toEqual([]);
    expect(() => createLogger('loud')).toThrow(
      'MESHLENS_LOG="loud" is not a log level; use one of trace, debug, info, warn, error, fatal, silent',
    );
  });
});
