/**
 * How deeply a value may nest (an object or array is one level). Tool arguments are flat and an MCP message
 * nests a handful of levels; far deeper values only come from a broken or hostile client, and recursive code
 * (JSON.stringify, zod, our own renderers) would overflow the stack on them.
 */
export const MAX_NESTING_DEPTH = 64;

interface Frame {
  readonly value: unknown;
  readonly depth: number;
  readonly key: string | number | undefined;
  readonly parent: Frame | undefined;
}

function pathOf(frame: Frame): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The path to the first object or array that sits deeper than `limit` levels, or undefined when the value
 * stays within it. Iterative, so a value of any depth is measured without recursion; it stops descending at
 * the limit, so the work is bounded by the size of the value.
 */
export function tooDeepPath(value: unknown, limit = MAX_NESTING_DEPTH): (string | number)[] | undefined {
  const stack: Frame[] = [{ value, depth: 1, key: undefined, parent: undefined }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const current = frame.value;
    if (!current || typeof current !== 'object') continue;
    if (frame.depth > limit) return pathOf(frame);
    const entries: [string | number, unknown][] = Array.isArray(current)
      ? current.map((item, index): [number, unknown] => [index, item])
      : Object.entries(current);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [string | number, unknown];
      stack.push({ value: child, depth: frame.depth + 1, key, parent: frame });
    }
  }
  return undefined;
}

/** `params.arguments.query` for a path, cut to its first `segments` keys: where a too-deep value starts. */
export function pathText(path: readonly (string | number)[], segments: number): string {
  return path
    .slice(0, segments)
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`))
    .join('');
}
