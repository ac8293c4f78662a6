/**
 * The memory modes' shared fields, their caps, and the checks that say what is wrong with a value and how to
 * fix it. The caps keep a note something an agent reads in one glance and a page of notes inside an answer.
 */
import { z } from 'zod';
import { invalidArgument } from '../../core/errors.js';
import { maskSecrets } from '../../trust/secret-mask.js';
import { maskProseSecrets } from '../../trust/secret-prose.js';

export const KEY_MAX_CHARS = 200;
export const VALUE_MAX_BYTES = 16 * 1024;
export const TAGS_MAX = 16;
export const TAG_MAX_CHARS = 40;
export const AUTHOR_MAX_CHARS = 100;
export const QUERY_MAX_CHARS = 500;
export const QUERY_MAX_WORDS = 16;

const TAG_PATTERN = /^[a-z0-9][a-z0-9._:/-]*$/;
// Control characters would let a key rewrite the lines an answer shows it on.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export const keyField = () =>
  z
    .string()
    .describe(
      `The note's key, unique in this workspace, at most ${KEY_MAX_CHARS} characters; a path-like name lists well by prefix, e.g. "deploy/payment-worker".`,
    );

export const tagField = () =>
  z.string().optional().describe('Only notes carrying this tag, e.g. "decision".');

/** A key as given, or a tool failure saying what is wrong with it. Keys are listed in clear: no secrets. */
export function checkedKey(key: string, argument = 'key'): string {
  if (key.trim() === '')
    throw invalidArgument(`\`${argument}\` is empty: give the note a name, e.g. "deploy/payment-worker".`);
  if (key !== key.trim())
    throw invalidArgument(
      `\`${argument}\` starts or ends with white space (${JSON.stringify(key)}): remove it, keys are compared exactly.`,
    );
  if (CONTROL.test(key))
    throw invalidArgument(
      `\`${argument}\` holds a control character (a line break, a tab): write it on one line.`,
    );
  if ([...key].length > KEY_MAX_CHARS)
    throw invalidArgument(
      `\`${argument}\` is ${[...key].length} characters long; keys hold at most ${KEY_MAX_CHARS}. Use a shorter key and put the detail in \`value\`.`,
    );
  if (maskSecrets(key).redactions > 0 || maskProseSecrets(key).redactions > 0)
    throw invalidArgument(
      `\`${argument}\` looks like it holds a secret; keys are shown and listed as written. Name the note instead, and leave secrets out of notes altogether.`,
    );
  return key;
}

/** The value with its secrets masked, or a tool failure when it is empty or over the cap. */
export function maskedValue(value: string): { text: string; redactions: number } {
  if (value.trim() === '')
    throw invalidArgument(
      '`value` is empty: write what the note should remember, or delete the note with mode `delete`.',
    );
  // PostgreSQL text cannot hold one, and no note needs one: both stores refuse it alike.
  if (value.includes('\u0000'))
    throw invalidArgument('`value` holds a NUL character (\\u0000): remove it, notes hold text.');
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > VALUE_MAX_BYTES)
    throw invalidArgument(
      `\`value\` is ${bytes} bytes; a note holds at most ${VALUE_MAX_BYTES} (16 KiB). Keep the gist, link to the file or doc that holds the rest, or split it over several keys.`,
    );
  // Code-style reading first (assignments, tokens, URLs), then the secrets a sentence gives away.
  const code = maskSecrets(value);
  const prose = maskProseSecrets(code.text);
  return { text: prose.text, redactions: code.redactions + prose.redactions };
}

/** One tag, lower-cased, or a tool failure naming the characters allowed. */
export function checkedTag(raw: string, argument: string): string {
  const tag = raw.trim().toLowerCase();
  if (tag.length > TAG_MAX_CHARS)
    throw invalidArgument(
      `\`${argument}\`: the tag ${JSON.stringify(raw)} is over ${TAG_MAX_CHARS} characters; shorten it.`,
    );
  if (!TAG_PATTERN.test(tag))
    throw invalidArgument(
      `\`${argument}\`: the tag ${JSON.stringify(raw)} is not a tag: use letters, digits and . _ : / - (starting with a letter or digit), e.g. "decision" or "team/payments".`,
    );
  return tag;
}

/** `"b, a,b"` → `["a", "b"]`: comma-separated, sorted, without repeats. */
export function checkedTags(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const tags = [...new Set(raw.split(',').map((t) => checkedTag(t, 'tags')))].sort();
  if (tags.length > TAGS_MAX)
    throw invalidArgument(
      `\`tags\` names ${tags.length} tags; a note carries at most ${TAGS_MAX}. Keep the ones you will filter by.`,
    );
  return tags;
}

/** Who wrote the note: the argument, else the MCP client's name, else "unknown". */
export function authorOf(
  argument: string | undefined,
  client: { readonly name: string } | undefined,
): string {
  const given = argument?.trim();
  if (given !== undefined && given !== '') {
    if (CONTROL.test(given))
      throw invalidArgument('`author` holds a control character: write it on one line.');
    if ([...given].length > AUTHOR_MAX_CHARS)
      throw invalidArgument(
        `\`author\` is over ${AUTHOR_MAX_CHARS} characters; give a name, e.g. "claude-code".`,
      );
    return given;
  }
  const name = client?.name.trim();
  return name ? [...name].slice(0, AUTHOR_MAX_CHARS).join('') : 'unknown';
}

/** The words a search looks for: letters, digits and `_` runs, lower-cased, without repeats. */
export function searchWords(query: string): string[] {
  if ([...query].length > QUERY_MAX_CHARS)
    throw invalidArgument(
      `\`query\` is over ${QUERY_MAX_CHARS} characters; search with a few distinctive words.`,
    );
  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])];
  if (words.length === 0)
    throw invalidArgument(
      `\`query\` ${JSON.stringify(query)} holds no word to search for; give a few words, e.g. "payment retry".`,
    );
  if (words.length > QUERY_MAX_WORDS)
    throw invalidArgument(
      `\`query\` has ${words.length} words; search with at most ${QUERY_MAX_WORDS} distinctive ones.`,
    );
  return words;
}
