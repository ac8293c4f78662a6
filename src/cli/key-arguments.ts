/**
 * The arguments of `meshlens keys create`, checked before anything is written: each wrong one is a usage error
 * (exit 2) saying what was wrong and how to write it.
 */
import { parseRateSpec } from '../core/rate-spec.js';
import { NAME_HELP, NAME_PATTERN } from '../core/tenant-name.js';
import { UsageError } from './operation-commands.js';

const MAX_LABEL = 200;
const RELATIVE = /^([1-9][0-9]{0,4})([dh])$/;
const DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
const HOUR_MS = 3_600_000;

export function checkedName(option: string, value: string): string {
  if (!NAME_PATTERN.test(value))
    throw new UsageError(`invalid ${option} ${JSON.stringify(value)}: ${NAME_HELP}`);
  return value;
}

export function checkedLabel(value: string | undefined): string {
  if (value === undefined) return '';
  // eslint-disable-next-line no-control-regex
  if (value.length > MAX_LABEL || /[\u0000-\u001f\u007f]/.test(value))
    throw new UsageError(`invalid --label: at most ${MAX_LABEL} characters, on one line`);
  return value;
}

/**
 * `30d`, `12h`, a day (`2026-12-31`, the key stops working when that day begins, UTC) or an ISO-8601 time;
 * always in the future.
 */
export function checkedExpiry(value: string | undefined, nowMs: number): Date | undefined {
  if (value === undefined) return undefined;
  const relative = RELATIVE.exec(value);
  const at = relative
    ? new Date(nowMs + Number(relative[1]) * (relative[2] === 'd' ? 24 : 1) * HOUR_MS)
    : new Date(
        DATE.test(value) ? `${value}T00:00:00Z` : /[zZ]|[+-][0-9]{2}:?[0-9]{2}$/.test(value) ? value : 'x',
      );
  if (Number.isNaN(at.getTime()))
    throw new UsageError(
      `invalid --expires ${JSON.stringify(value)}: write a duration (30d, 12h), a day (2026-12-31, from 00:00 UTC) or a time with its zone (2026-12-31T18:00:00Z)`,
    );
  if (at.getTime() <= nowMs)
    throw new UsageError(`--expires ${value} is not in the future (${at.toISOString()})`);
  return at;
}

export function checkedRate(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const rate = parseRateSpec(value);
  if ('error' in rate) throw new UsageError(`--rate: ${rate.error}`);
  return rate.text;
}

export function checkedDaily(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]{0,9}$/.test(value))
    throw new UsageError(
      `invalid --daily ${JSON.stringify(value)}: a whole number of calls per UTC day, from 1`,
    );
  return Number(value);
}
