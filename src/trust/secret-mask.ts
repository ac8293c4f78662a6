/**
 * Masks secret values in text the server returns (snippets, config values). The rule of thumb: mask a literal
 * value bound to a secret-looking key, and leave alone everything that only *names* a secret (references,
 * env-var names, declarations, calls, enum members), because over-masking breaks code and JSON the caller reads.
 * Only the value is replaced; quotes, trailing `,`/`;`, type annotations and line structure stay as they were.
 */
import { maskAssignments } from './secret-assignments.js';
import { REDACTED } from './secret-values.js';

export { isSecretKey } from './secret-keys.js';
export { maskPropertyValue, REDACTED } from './secret-values.js';

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;
const PEM_BODY = /[A-Za-z0-9+/=]+/g;
/** Kubernetes and compose env lists: `- name: DB_PASSWORD` names the key of the `value:` on the next line. */
const ENV_ENTRY_NAME = /^\s*-?\s*name\s*:\s*["']?([\w.-]+)["']?\s*$/;

const indentOf = (line: string): number => /^[ \t]*/.exec(line)?.[0].length ?? 0;

/**
 * Masks secret values in `key: value` / `key = value` / `key := value` / `"key": "value"` / `const key = '…'`
 * lines of source or config text; returns the text and how many values were masked. Line count and line order
 * never change.
 */
export function maskSecrets(text: string): { text: string; redactions: number } {
  let redactions = 0;
  /** Indentation of a `secret: |` line while its block scalar lasts. */
  let blockIndent: number | undefined;
  let blockCounted = false;
  let inPem = false;
  let pemCounted = false;
  let envName: string | undefined;
  const lines = text.split('\n').map((raw) => {
    const cr = raw.endsWith('\r') ? '\r' : '';
    const line = cr ? raw.slice(0, -1) : raw;
    if (blockIndent !== undefined) {
      if (line.trim() === '') return raw;
      if (indentOf(line) > blockIndent) {
        if (!blockCounted) redactions++;
        blockCounted = true;
        return line.slice(0, indentOf(line)) + REDACTED + cr;
      }
      blockIndent = undefined;
    }
    if (inPem) {
      inPem = !line.includes('-----');
      // The marker's own letters look like base64, so mask only between markers already there.
      const body = inPem
        ? line
            .split(REDACTED)
            .map((part) => part.replace(PEM_BODY, REDACTED))
            .join(REDACTED)
        : line;
      if (body !== line && !pemCounted) redactions++;
      pemCounted ||= body !== line;
      return body + cr;
    }
    const masked = maskAssignments(line, envName);
    envName = ENV_ENTRY_NAME.exec(line)?.[1];
    redactions += masked.redactions;
    if (masked.blockStarted) {
      blockIndent = indentOf(line);
      blockCounted = false;
    }
    let out = masked.line;
    const begin = PEM_BEGIN.exec(out);
    if (begin) {
      const bodyStart = begin.index + begin[0].length;
      const endAt = out.indexOf('-----END ', bodyStart);
      inPem = endAt < 0;
      pemCounted = false;
      if (endAt >= 0 && out.slice(bodyStart, endAt) !== REDACTED) {
        out = out.slice(0, bodyStart) + REDACTED + out.slice(endAt);
        redactions++;
      }
    }
    return out + cr;
  });
  return { text: lines.join('\n'), redactions };
}
