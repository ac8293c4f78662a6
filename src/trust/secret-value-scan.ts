/**
 * Applies the value detectors (secret-detectors.ts) to one line: each secret they find is replaced by the
 * redaction marker, the text around it kept, so `postgres://app:pw@db` becomes `postgres://app:[…]@db`.
 */
import { isStandIn, VALUE_DETECTORS, type ValueDetector } from './secret-detectors.js';
import { REDACTED } from './secret-values.js';

interface Compiled {
  readonly detector: ValueDetector;
  /** The pattern with `d`, for where the `secret` group starts and ends. */
  readonly pattern: RegExp;
}

const COMPILED: readonly Compiled[] = VALUE_DETECTORS.map((detector) => ({
  detector,
  pattern: new RegExp(detector.pattern.source, `${detector.pattern.flags.replace('d', '')}d`),
}));

/** Start and end of the secret in the line, or undefined when the match only stands for a secret. */
function secretSpan(detector: ValueDetector, match: RegExpExecArray): [number, number] | undefined {
  const span: [number, number] | undefined =
    detector.part === 'match' ? [match.index, match.index + match[0].length] : match.indices?.groups?.secret;
  if (span === undefined) return undefined;
  const value = match.input.slice(span[0], span[1]);
  if (value.includes(REDACTED) || isStandIn(value)) return undefined;
  if (detector.needsDigit && !/\d/.test(value)) return undefined;
  return span;
}

/** The line with every secret a detector recognises masked, and how many were masked. */
export function maskDetectedValues(line: string): { line: string; redactions: number } {
  let out = line;
  let redactions = 0;
  let lower: string | undefined;
  for (const { detector, pattern } of COMPILED) {
    lower ??= out.toLowerCase();
    const text = lower;
    if (!detector.cue.some((cue) => text.includes(cue))) continue;
    const spans: [number, number][] = [];
    pattern.lastIndex = 0;
    for (let match = pattern.exec(out); match; match = pattern.exec(out)) {
      const span = secretSpan(detector, match);
      if (span) spans.push(span);
      if (match[0].length === 0) pattern.lastIndex++;
    }
    if (spans.length === 0) continue;
    // Right to left, so that each span's offsets still hold.
    for (const [start, end] of spans.reverse()) out = out.slice(0, start) + REDACTED + out.slice(end);
    redactions += spans.length;
    lower = undefined;
  }
  return { line: out, redactions };
}
