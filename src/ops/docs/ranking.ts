/**
 * Ranking doc sections with BM25 (Robertson and Zaragoza's Okapi BM25): a word found in few sections
 * weighs more than one found everywhere, a word repeated counts with diminishing returns, and a long
 * section is not favoured for being long. The title counts as a second, weightier field, and the exact
 * phrase earns the configured boost, so a section titled with the query comes first. HTML comments are
 * not part of what a section says.
 */

const K1 = 1.2;
const B = 0.75;
/** A word in the title counts like this many in the text. */
const TITLE_WEIGHT = 3;

/** Section text without HTML comments (`<!-- … -->`, which a reader never sees). */
export const withoutHtmlComments = (text: string): string => text.replace(/<!--[\s\S]*?-->/g, '');

const tokens = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean);

export interface RankedInput {
  readonly title: string;
  readonly text: string;
}

interface Prepared {
  readonly titleTokens: readonly string[];
  readonly textTokens: readonly string[];
  readonly title: string;
  readonly text: string;
}

/** A query word matches a token it starts (`retry` matches `retrying`); words of one or two letters must be equal. */
const matches = (token: string, word: string): boolean =>
  word.length <= 2 ? token === word : token.startsWith(word);

/**
 * Scores every section for the query words; 0 when no word is in it. `phraseBoost` is added when the whole
 * phrase (two words or more) is in the title, a fifth of it when it is in the text.
 */
export function rankSections(
  sections: readonly RankedInput[],
  words: readonly string[],
  phraseBoost: number,
): number[] {
  const prepared: Prepared[] = sections.map((s) => {
    const text = withoutHtmlComments(s.text).toLowerCase();
    return { titleTokens: tokens(s.title), textTokens: tokens(text), title: s.title.toLowerCase(), text };
  });
  const queryWords = [...new Set(words.flatMap((w) => tokens(w)))];
  const total = prepared.length;
  const averageLength = prepared.reduce((sum, p) => sum + p.textTokens.length, 0) / Math.max(1, total) || 1;
  const idf = new Map(
    queryWords.map((word) => {
      const df = prepared.filter(
        (p) => p.titleTokens.some((t) => matches(t, word)) || p.textTokens.some((t) => matches(t, word)),
      ).length;
      return [word, Math.log(1 + (total - df + 0.5) / (df + 0.5))];
    }),
  );
  const phrase = words.length > 1 ? words.join(' ') : '';
  return prepared.map((p) => {
    let score = 0;
    for (const word of queryWords) {
      const tf =
        p.textTokens.filter((t) => matches(t, word)).length +
        TITLE_WEIGHT * p.titleTokens.filter((t) => matches(t, word)).length;
      if (tf === 0) continue;
      const norm = K1 * (1 - B + (B * p.textTokens.length) / averageLength);
      score += (idf.get(word) ?? 0) * ((tf * (K1 + 1)) / (tf + norm));
    }
    if (score > 0 && phrase) {
      if (p.title.includes(phrase)) score += phraseBoost / 10;
      else if (p.text.includes(phrase)) score += phraseBoost / 50;
    }
    return Math.round(score * 1000) / 1000;
  });
}
