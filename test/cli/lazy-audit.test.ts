import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { LazyAuditLog } from '../../src/cli/lazy-audit.js';
import type { AuditRecord } from '../../src/trust/audit.js';
import { silentLogger } from '../../src/core/logger.js';
import { readAuditRows, verifyAuditLog } from '../../src/store/audit-log.js';

const dir = mkdtempSync(path.join(tmpdir(), 'meshlens-lazy-audit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const entry = (i: number): AuditRecord => ({
  time: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  session: 's',
  operation: 'code.search',
  argumentDigest: `${i}`.padStart(64, '0'),
  status: 'ok',
  elapsedMs: 1,
  filesRead: [],
  redactions: i,
});
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('LazyAuditLog', () => {
  test('writes after the answer is handed over, calls of one turn together, the rest on close', async () => {
    const file = path.join(dir, 'audit.db');
    const log = new LazyAuditLog(file, silentLogger);
    // Records made before the log is open wait for it, in order.
    log.record(entry(1));
    await log.load();
    expect(verifyAuditLog(file)).toMatchObject({ ok: true, rows: 1 });

    log.record(entry(2));
    log.record(entry(3));
    // Not on the caller's path: nothing is written until the event loop turns.
    expect(verifyAuditLog(file)).toMatchObject({ ok: true, rows: 1 });
    await nextTurn();
    expect(verifyAuditLog(file)).toMatchObject({ ok: true, rows: 3 });

    log.record(entry(4));
    await log.close();
    log.record(entry(5));
    expect(verifyAuditLog(file)).toMatchObject({ ok: true, rows: 4 });
    expect(readAuditRows(file).map((r) => r.redactions)).toEqual([1, 2, 3, 4]);
  });
});
