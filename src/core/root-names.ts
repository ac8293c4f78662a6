/** Root names as messages list them: sorted, at most ten, then how many more. */
const LISTED_ROOTS = 10;

export function listedRootNames(names: readonly string[]): string {
  const sorted = [...names].sort();
  return sorted.length > LISTED_ROOTS
    ? `${sorted.slice(0, LISTED_ROOTS).join(', ')}, … ${sorted.length - LISTED_ROOTS} more`
    : sorted.join(', ');
}
