import { ToolError } from '../../../core/errors.js';

const MAX_REVISION_BYTES = 256;

/**
 * Checks a caller's git revision before it gets near a command line: it must read as one revision, never as
 * an option (`-x`), a `revision:path` (`a:b`) or several words. `whenEmpty` ends the "is empty" message with
 * what the caller can do instead.
 */
export function validateRevision(argument: string, value: string, whenEmpty: string): void {
  if (value === '') {
    throw new ToolError(
      'invalid_argument',
      `\`${argument}\` is empty: name a git revision such as "main", "origin/main", a tag or a commit SHA, ${whenEmpty}.`,
    );
  }
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > MAX_REVISION_BYTES) {
    throw new ToolError(
      'invalid_argument',
      `\`${argument}\` must be at most ${MAX_REVISION_BYTES} bytes, got ${bytes} bytes.`,
    );
  }
  if (value.startsWith('-')) {
    throw new ToolError(
      'invalid_argument',
      `\`${argument}\` must not start with "-" (git would read it as an option), got ${JSON.stringify(value)}.`,
    );
  }
  if (value.includes(':')) {
    throw new ToolError(
      'invalid_argument',
      `\`${argument}\` must not contain ":" (name a revision, not "revision:path"), got ${JSON.stringify(value)}.`,
    );
  }
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/u.test(value)) {
    throw new ToolError(
      'invalid_argument',
      `\`${argument}\` must not contain whitespace or control characters, got ${JSON.stringify(value)}.`,
    );
  }
}
