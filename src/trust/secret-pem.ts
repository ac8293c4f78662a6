/**
 * PEM and PGP private keys, which span lines: the BEGIN and END marker lines stay readable and every
 * base64 run between them is masked. Where the block starts is read on the line as written, before any
 * other masking, so a BEGIN marker that name-based masking hid (`PRIVATE_KEY="-----BEGIN …`) still opens
 * the block and its body is masked.
 */
import { PEM_PRIVATE_KEY } from './secret-detectors.js';
import { REDACTED } from './secret-values.js';

/**
 * Base64 comes in groups of four, so a shorter run is syntax around the key (`\n` escapes, a `+` joining
 * string pieces) and stays readable.
 */
const BASE64_RUN = /[A-Za-z0-9+/=]{4,}/g;

/** Masks the base64 runs of a piece of a line, leaving markers already there alone (their letters look like base64). */
function maskRuns(text: string): string {
  return text
    .split(REDACTED)
    .map((part) => part.replace(BASE64_RUN, REDACTED))
    .join(REDACTED);
}

export interface PemLine {
  readonly line: string;
  /** Whether any of the key's text was masked on this line. */
  readonly masked: boolean;
  /** Whether the key goes on past this line. */
  readonly open: boolean;
}

/** A line inside a key's body: masked up to its END marker, if it has one. */
export function maskPemBody(line: string): PemLine {
  // The END marker, or any run of dashes: no base64 holds one, and a key whose END is missing must end somewhere.
  const endAt = line.indexOf('-----');
  const body = endAt < 0 ? line : line.slice(0, endAt);
  const masked = maskRuns(body);
  return { line: masked + (endAt < 0 ? '' : line.slice(endAt)), masked: masked !== body, open: endAt < 0 };
}

/**
 * A line outside any key, after other masking (`out`), read for a BEGIN marker on the line as written
 * (`raw`): the text after the marker is masked up to an END marker on the same line, and `open` says whether
 * the body goes on to the next lines.
 */
export function maskPemOpening(raw: string, out: string): PemLine {
  const begin = PEM_PRIVATE_KEY.begin.exec(raw);
  if (!begin) return { line: out, masked: false, open: false };
  const open = !PEM_PRIVATE_KEY.end.test(raw.slice(begin.index + begin[0].length));
  const shown = PEM_PRIVATE_KEY.begin.exec(out);
  // Name-based masking already replaced the marker and what follows it.
  if (!shown) return { line: out, masked: false, open };
  const bodyStart = shown.index + shown[0].length;
  const endAt = out.indexOf('-----END ', bodyStart);
  const body = endAt < 0 ? out.slice(bodyStart) : out.slice(bodyStart, endAt);
  // A key on one line (`"-----BEGIN …-----\nMIIE…\n-----END …"`) becomes one marker.
  const masked = endAt < 0 ? maskRuns(body) : body === '' || body === REDACTED ? body : REDACTED;
  const line = out.slice(0, bodyStart) + masked + (endAt < 0 ? '' : out.slice(endAt));
  return { line, masked: masked !== body, open };
}
