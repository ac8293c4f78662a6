/**
 * A rate as people write it, `N/s`, `N/m` or `N/h`: up to N calls at once, and N more per unit of time. The
 * same spelling in meshlens.toml and on `keys create --rate`, parsed here only.
 */
export interface RateSpec {
  /** The burst: calls admitted back to back from a full bucket. */
  readonly capacity: number;
  readonly refillPerSecond: number;
  /** As written, for messages: "5/s". */
  readonly text: string;
}

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600 };
const RATE = /^([1-9][0-9]{0,8})\/([smh])$/;

export const RATE_SPEC_HELP = 'a rate is written N/s, N/m or N/h with N a whole number from 1, e.g. 10/s';

/** The rate, or a message saying what is wrong with the text. */
export function parseRateSpec(text: string): RateSpec | { readonly error: string } {
  const match = RATE.exec(text.trim());
  if (!match) return { error: `invalid rate ${JSON.stringify(text)}: ${RATE_SPEC_HELP}` };
  const count = Number(match[1]);
  const seconds = UNIT_SECONDS[match[2] as string] as number;
  return { capacity: count, refillPerSecond: count / seconds, text: `${count}/${match[2]}` };
}

export const isRateSpecText = (text: string): boolean => RATE.test(text.trim());
