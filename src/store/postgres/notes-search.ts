/**
 * Full-text search over notes in PostgreSQL, made to find what SQLite's FTS5 finds: text is split into runs
 * of letters and digits before PostgreSQL sees it (as FTS5's unicode61 tokenizer splits it), then stemmed by
 * the `meshlens_notes` configuration (English stemming, no stop words).
 */

/** The text search configuration the notes migration creates. */
export const NOTES_TS_CONFIG = 'meshlens_notes';

/**
 * Weights of the D, C, B and A labels for ts_rank_cd: the value (D) counts 1, tags (B) 2 and the key (A) 4,
 * the proportions of the SQLite store's bm25 column weights. C is unused.
 */
export const RANK_WEIGHTS = '{0.25,0.5,0.5,1.0}';

const WORD_RUNS = /[\p{L}\p{N}]+/gu;

/** `"deploy/payment-worker"` → `"deploy payment worker"`: what the parser must read as separate words. */
export const searchableText = (text: string): string => (text.match(WORD_RUNS) ?? []).join(' ');

/** The document vector a row is written with: its key, tags and value, labelled by weight. */
export function documentVector(firstParam: number): string {
  const part = (offset: number, weight: string) =>
    `setweight(to_tsvector('${NOTES_TS_CONFIG}', $${firstParam + offset}), '${weight}')`;
  return `${part(0, 'A')} || ${part(1, 'B')} || ${part(2, 'D')}`;
}

/** The three texts `documentVector` takes, in its parameter order. */
export const documentTexts = (key: string, tags: readonly string[], value: string): string[] => [
  searchableText(key),
  searchableText(tags.join(' ')),
  searchableText(value),
];

/**
 * A query matching notes that hold any of the words, with its parameters from `$firstParam` on; undefined
 * when no word holds a letter or digit. A word that splits into several runs (`payment_retry`) must match
 * them next to each other, as an FTS5 string does.
 */
export function anyWordQuery(
  words: readonly string[],
  firstParam: number,
): { sql: string; params: string[] } | undefined {
  const phrases = words.map(searchableText).filter((phrase) => phrase !== '');
  if (phrases.length === 0) return undefined;
  const sql = phrases
    .map((_, i) => `phraseto_tsquery('${NOTES_TS_CONFIG}', $${firstParam + i})`)
    .join(' || ');
  return { sql: `(${sql})`, params: phrases };
}
