/**
 * Calls and refusals per caller per UTC day in PostgreSQL, shared by every replica. A call is admitted and
 * counted by one statement: the row's lock makes a second replica wait, then see the first one's count, so
 * two replicas cannot both take the last call of a daily quota.
 */
import type { UsageCounter } from '../../core/admission.js';
import type { UsageRow } from '../keys-db.js';
import type { PostgresPool } from './pool.js';

/** Counts one call unless `$3` calls were counted today already; returns a row only when it counted. */
const ADMIT = `
INSERT INTO key_usage (subject, day, calls) VALUES ($1, $2, 1)
ON CONFLICT (subject, day) DO UPDATE SET calls = key_usage.calls + 1
  WHERE $3::integer IS NULL OR key_usage.calls < $3::integer
RETURNING calls`;

const REFUSE = `
INSERT INTO key_usage (subject, day, refusals) VALUES ($1, $2, 1)
ON CONFLICT (subject, day) DO UPDATE SET refusals = key_usage.refusals + 1`;

interface UsageQueryRow {
  subject: string;
  prefix: string | null;
  tenant: string | null;
  calls: string;
  refusals: string;
}

export class PostgresUsageCounter implements UsageCounter {
  constructor(private readonly pool: PostgresPool) {}

  async admitCall(
    subject: string,
    day: string,
    dailyLimit: number | undefined,
  ): Promise<{ readonly admitted: boolean }> {
    // A fresh row would count its first call without looking at the limit; no call fits a quota of 0.
    if (dailyLimit === undefined || dailyLimit > 0) {
      const counted = await this.pool.query(ADMIT, [subject, day, dailyLimit ?? null]);
      if (counted.length > 0) return { admitted: true };
    }
    await this.countRefusal(subject, day);
    return { admitted: false };
  }

  async countRefusal(subject: string, day: string): Promise<void> {
    await this.pool.query(REFUSE, [subject, day]);
  }

  /** Calls and refusals per caller from `fromDay` on (every day without one), most calls first. */
  async usage(fromDay: string | undefined): Promise<UsageRow[]> {
    const rows = await this.pool.query<UsageQueryRow>(
      `SELECT u.subject, k.prefix, k.tenant, sum(u.calls) AS calls, sum(u.refusals) AS refusals
       FROM key_usage u LEFT JOIN api_keys k ON u.subject = 'key:' || k.id
       WHERE $1::date IS NULL OR u.day >= $1::date
       GROUP BY u.subject, k.prefix, k.tenant
       ORDER BY sum(u.calls) DESC, sum(u.refusals) DESC, u.subject COLLATE "C"`,
      [fromDay ?? null],
    );
    // sum() of integers is a bigint, which the driver hands over as text.
    return rows.map((row) => ({ ...row, calls: Number(row.calls), refusals: Number(row.refusals) }));
  }
}
