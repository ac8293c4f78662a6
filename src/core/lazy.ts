/** A value computed on first use, then kept (`undefined` included). */
export function lazy<T>(compute: () => T): () => T {
  let value: { readonly v: T } | undefined;
  return () => (value ??= { v: compute() }).v;
}
