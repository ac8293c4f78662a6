/**
 * Masks secret values in text the server reads for an answer (snippets, matched lines, doc sections, config
 * values). Two readings, in this order on each line:
 * - by name: a literal value bound to a secret-looking key (secret-assignments.ts). Everything that only
 *   *names* a secret (references, env-var names, declarations, calls, enum members) stays, because
 *   over-masking breaks code and JSON the caller reads;
 * - by value: whatever the key, a value a detector recognises (secret-detectors.ts): credentials in URLs,
 *   vendor tokens, JWTs, `Authorization` headers, connection strings, PEM private keys.
 * Only the value is replaced, by `[REDACTED_SECRET]`; quotes, trailing `,`/`;`, type annotations and the line
 * structure stay, so line numbers never move (columns after a masked value do).
 */
import { KEY_CUES, maskAssignments } from './secret-assignments.js';
import { VALUE_DETECTORS } from './secret-detectors.js';
import { maskPemBody, maskPemOpening } from './secret-pem.js';
import { maskDetectedValues } from './secret-value-scan.js';
import { maskValue, REDACTED } from './secret-values.js';
import { escapeRegExp } from '../core/regexp.js';
import { isSecretKey } from './secret-keys.js';

export { isSecretKey } from './secret-keys.js';
export { REDACTED } from './secret-values.js';

/** Kubernetes and compose env lists: `- name: DB_PASSWORD` names the key of the `value:` on the next line. */
const ENV_ENTRY_NAME = /^\s*-?\s*name\s*:\s*["']?([\w.-]+)["']?\s*$/;

/**
 * A line matching none of these can hold no secret either reading finds (a key word, a detector's cue, a PEM
 * marker); it is passed through unparsed, and most lines are.
 */
const CUES = new RegExp(
  [...KEY_CUES, ...VALUE_DETECTORS.flatMap((d) => d.cue), '-----begin'].map(escapeRegExp).join('|'),
  'i',
);

const indentOf = (line: string): number => /^[ \t]*/.exec(line)?.[0].length ?? 0;

/** Masked lines, and how many secrets any run of them shows. */
export interface MaskedLines {
  readonly lines: readonly string[];
  /** Secrets masked in all; a secret spread over lines (a PEM key, a YAML block) counts once. */
  readonly redactions: number;
  /** Secrets masked on the given lines (0-based), a multi-line one counted once. */
  redactionsOn(indexes: Iterable<number>): number;
}

/** What masking did to each line: single-line secrets masked on it, and the multi-line secret it is part of. */
interface LineTally {
  readonly single: number[];
  /** Id of the multi-line secret masked on the line, -1 for none. */
  readonly block: number[];
}

function tallied(lines: string[], tally: LineTally): MaskedLines {
  const redactionsOn = (indexes: Iterable<number>): number => {
    let count = 0;
    const blocks = new Set<number>();
    for (const i of new Set(indexes)) {
      count += tally.single[i] ?? 0;
      const block = tally.block[i] ?? -1;
      if (block >= 0) blocks.add(block);
    }
    return count + blocks.size;
  };
  return { lines, redactions: redactionsOn(lines.keys()), redactionsOn };
}

/**
 * Masks secrets line by line; a line's masking may depend on the lines before it (a YAML block scalar under
 * a secret key, a PEM body, a Kubernetes `value:` under `name:`), so mask a whole file before showing part
 * of it. A trailing `\r` is kept.
 */
export function maskSecretLines(input: readonly string[]): MaskedLines {
  const tally: LineTally = { single: [], block: [] };
  let blocks = 0;
  /** Indentation of a `secret: |` line while its block scalar lasts. */
  let blockIndent: number | undefined;
  let inPem = false;
  let envName: string | undefined;
  const lines = input.map((raw, i) => {
    tally.single[i] = 0;
    tally.block[i] = -1;
    const cr = raw.endsWith('\r') ? '\r' : '';
    const line = cr ? raw.slice(0, -1) : raw;
    if (blockIndent !== undefined) {
      if (line.trim() === '') return raw;
      if (indentOf(line) > blockIndent) {
        // A key inside the block is masked with it; only where the key ends matters.
        inPem = inPem ? maskPemBody(line).open : maskPemOpening(line, line).open;
        tally.block[i] = blocks - 1;
        return line.slice(0, indentOf(line)) + REDACTED + cr;
      }
      // The block scalar held the key, so the key ends with it.
      blockIndent = undefined;
      inPem = false;
    }
    if (inPem) {
      const body = maskPemBody(line);
      inPem = body.open;
      if (body.masked) tally.block[i] = blocks - 1;
      return body.line + cr;
    }
    if (!CUES.test(line) && envName === undefined) return raw;
    const named = maskAssignments(line, envName);
    envName = ENV_ENTRY_NAME.exec(line)?.[1];
    // Only a secret name matters to the `value:` line that follows.
    if (envName !== undefined && !isSecretKey(envName)) envName = undefined;
    if (named.blockStarted) {
      blockIndent = indentOf(line);
      blocks++;
    }
    const valued = maskDetectedValues(named.line);
    const pem = maskPemOpening(line, valued.line);
    if (pem.open) {
      inPem = true;
      blocks++;
      if (pem.masked) tally.block[i] = blocks - 1;
    }
    tally.single[i] = named.redactions + valued.redactions + (pem.masked && !pem.open ? 1 : 0);
    return pem.line + cr;
  });
  return tallied(lines, tally);
}

/** `maskSecretLines` over a text split at `\n`; returns the text and how many values were masked. */
export function maskSecrets(text: string): { text: string; redactions: number } {
  const masked = maskSecretLines(text.split('\n'));
  return { text: masked.lines.join('\n'), redactions: masked.redactions };
}

/** How many masked values a text already masked (a doc section, masked when indexed) shows. */
export const redactionsIn = (text: string): number => text.split(REDACTED).length - 1;

/**
 * For flattened config properties (Spring yml/properties), whose values are data, never code: the value is
 * masked whole under a secret key, and a secret recognised by its value is masked under any key
 * (`spring.datasource.url: jdbc:postgresql://app:pw@db/app`).
 */
export function maskPropertyValue(key: string, value: string): { value: string; masked: boolean } {
  if (isSecretKey(key)) {
    const result = maskValue(key, value.trim());
    if (result) return { value: result.value, masked: true };
  }
  const detected = maskDetectedValues(value);
  return { value: detected.line, masked: detected.redactions > 0 };
}
