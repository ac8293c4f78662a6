/**
 * How well a file path matches what a caller typed, the way file finders rank: the file's name exactly, its
 * name's start, anywhere in the path, then the typed characters in order with gaps (fzf-style), scored so
 * that runs and starts of words win.
 */

export type PathTier = 0 | 1 | 2 | 3; // exact name, name prefix, substring, fuzzy
export const TIER_NAMES = ['exact', 'prefix', 'substring', 'fuzzy'] as const;

/** A fuzzy match may spread over this many characters per typed one (at least `MIN_FUZZY_SPAN`). */
const FUZZY_SPAN_PER_CHAR = 3;
const MIN_FUZZY_SPAN = 8;

export interface PathMatch {
  readonly tier: PathTier;
  /** Higher is better; only orders fuzzy matches. */
  readonly score: number;
}

const isBoundary = (path: string, at: number): boolean => {
  if (at === 0) return true;
  const before = path[at - 1] ?? '';
  return before === '/' || before === '_' || before === '-' || before === '.';
};

/**
 * The fuzzy score of the typed characters (lower case) found in order in the path (lower case), undefined
 * when they are not all there. Greedy from the file name backwards, so the name's characters are preferred.
 */
function fuzzyScore(path: string, typed: string, nameStart: number): number | undefined {
  const positions: number[] = [];
  let at = path.length - 1;
  for (let i = typed.length - 1; i >= 0; i--) {
    const wanted = typed[i];
    while (at >= 0 && path[at] !== wanted) at--;
    if (at < 0) return undefined;
    positions.push(at);
    at--;
  }
  positions.reverse();
  let score = 0;
  positions.forEach((p, i) => {
    score += 1;
    if (i > 0 && positions[i - 1] === p - 1) score += 4;
    if (isBoundary(path, p)) score += 3;
    if (p >= nameStart) score += 2;
  });
  const span = (positions[positions.length - 1] ?? 0) - (positions[0] ?? 0) + 1;
  // Letters scattered over a long path match almost anything: that is noise, not a fuzzy hit.
  if (span > Math.max(MIN_FUZZY_SPAN, typed.length * FUZZY_SPAN_PER_CHAR)) return undefined;
  return score - span / 10;
}

/** How `path` (workspace-relative) matches `typed`; undefined when it does not. */
export function matchPath(path: string, typed: string): PathMatch | undefined {
  const lowerPath = path.toLowerCase();
  const lowerTyped = typed.toLowerCase();
  const nameStart = lowerPath.lastIndexOf('/') + 1;
  const name = lowerPath.slice(nameStart);
  // `order.service.ts` is named exactly by `order.service.ts`, `order.service` and `order`.
  const firstDot = name.indexOf('.', 1);
  const lastDot = name.lastIndexOf('.');
  const exact = [name, lowerPath, ...[firstDot, lastDot].filter((d) => d > 0).map((d) => name.slice(0, d))];
  if (exact.includes(lowerTyped)) return { tier: 0, score: 0 };
  if (name.startsWith(lowerTyped) || lowerPath.startsWith(lowerTyped)) return { tier: 1, score: 0 };
  if (lowerPath.includes(lowerTyped)) return { tier: 2, score: 0 };
  const score = fuzzyScore(lowerPath, lowerTyped.replace(/\s+/g, ''), nameStart);
  return score === undefined ? undefined : { tier: 3, score };
}
