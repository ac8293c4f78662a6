/** Key prefixes as a range of keys, for both notes stores: an index walk, with no pattern characters. */

/**
 * The least string greater than every string starting with `prefix`: its last code point plus one (a trailing
 * U+10FFFF is dropped first), undefined when there is none. SQLite, and PostgreSQL under the "C" collation,
 * compare text as UTF-8 bytes, which orders as code points do, so `prefix <= key < bound` is exactly
 * "starts with" and walks the key index.
 */
export function prefixBound(prefix: string): string | undefined {
  const points = [...prefix].map((c) => c.codePointAt(0) as number);
  while (points.length > 0 && points[points.length - 1] === 0x10ffff) points.pop();
  const last = points.pop();
  if (last === undefined) return undefined;
  // Surrogates are not characters: past U+D7FF comes U+E000.
  points.push(last === 0xd7ff ? 0xe000 : last + 1);
  return String.fromCodePoint(...points);
}
