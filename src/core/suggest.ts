/** Levenshtein distance, small inputs only (field and mode names). */
export function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0] ?? 0;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j] ?? 0;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      previous[j] = Math.min(above + 1, (previous[j - 1] ?? 0) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidate closest to `input`, if it is close enough to be a plausible typo: within a third of the
 * longer name (at least 2 edits), or equal once case, `-` and `_` are ignored.
 */
export function nearest(input: string, candidates: readonly string[]): string | undefined {
  const squash = (s: string) => s.toLowerCase().replace(/[-_]/g, '');
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of [...candidates].sort()) {
    if (squash(candidate) === squash(input)) return candidate;
    const distance = editDistance(input.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const allowed = Math.max(2, Math.floor(Math.max(input.length, best?.length ?? 0) / 3));
  return bestDistance <= allowed ? best : undefined;
}
