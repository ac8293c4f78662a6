/**
 * Secrets written in prose, as people write them in notes: "the staging password is hunter2", "admin
 * password: Xk9-qq7Lmw2", "export STRIPE_KEY=abc123…". Code masking reads a key only where a line starts
 * with it; in a sentence the key word sits anywhere. A value is masked when it follows a secret word and
 * `is`, `:` or `=`, is one word of at least six characters, and holds a digit or a symbol, so that
 * "the password is in the vault" keeps its words.
 */
import { REDACTED } from './secret-values.js';

const SECRET_WORD = String.raw`(?:[\w.-]*(?:password|passwd|pwd|secret|token)|[\w.-]*_key|api[ _-]?key|access[ _-]?key|private[ _-]?key)`;

const PROSE_SECRET = new RegExp(
  String.raw`\b(${SECRET_WORD})((?:\s+(?:for\s+[\w.-]+\s+)?(?:is|was)\s+|\s*[:=]\s*)(["'\x60]?))([^\s"'\x60,;]{6,})(?=\3)`,
  'gi',
);

/** A word that reads as a value, not as language: it holds a digit or a symbol other than a closing stop. */
const looksLikeValue = (word: string): boolean =>
  word !== REDACTED && /[\d\W_]/.test(word.replace(/[.!?)]+$/, ''));

/** The text with such values replaced by the redaction marker, and how many were. */
export function maskProseSecrets(text: string): { text: string; redactions: number } {
  let redactions = 0;
  const masked = text.replace(
    PROSE_SECRET,
    (whole, word: string, gap: string, _quote: string, value: string) => {
      const trailing = /[.!?)]+$/.exec(value)?.[0] ?? '';
      const core = value.slice(0, value.length - trailing.length);
      if (core.length < 6 || !looksLikeValue(core) || core.includes('[REDACTED')) return whole;
      redactions++;
      return `${word}${gap}${REDACTED}${trailing}`;
    },
  );
  return { text: masked, redactions };
}
