/**
 * Searching text whose secrets are masked. An answer that says whether a file contains a string is an oracle
 * for a masked secret (guess it piece by piece), so text is matched only after masking. Masking a whole file
 * for every file of a scan is the expensive part, so a cheap test on the raw text decides first whether the
 * masked text could match at all.
 */
import { maskSecretLines, type MaskedLines } from './secret-mask.js';
import { REDACTED } from './secret-values.js';

const MARKER = REDACTED.toLowerCase();

/** Whether `needle` could overlap a marker: hold it, lie inside it, or start or end inside it. */
export function couldOverlapMarker(needle: string): boolean {
  if (needle.includes(MARKER) || MARKER.includes(needle)) return true;
  for (let k = 1; k < Math.min(needle.length, MARKER.length); k++) {
    if (needle.endsWith(MARKER.slice(0, k)) || needle.startsWith(MARKER.slice(-k))) return true;
  }
  return false;
}

/**
 * Whether the masked form of a text could contain `needle` (lower case), given the raw text in lower case.
 * Masking only replaces spans by the marker, so a match in the masked text either lies in text masking left
 * alone (then the raw text has it too) or overlaps a marker. False means certainly not; true means mask and
 * look.
 */
export function mayMatchMasked(rawLower: string, needle: string): boolean {
  return rawLower.includes(needle) || couldOverlapMarker(needle);
}

/** A text split into lines (`\r\n` or `\n`) and masked, for matching and showing. */
export const maskedLinesOf = (text: string): MaskedLines => maskSecretLines(text.split(/\r?\n/));

/** Whether the masked form of `text` contains `needle` (lower case), wherever lines break. */
export function maskedTextContains(text: string, needle: string): boolean {
  if (!mayMatchMasked(text.toLowerCase(), needle)) return false;
  return maskedLinesOf(text).lines.join('\n').toLowerCase().includes(needle);
}
