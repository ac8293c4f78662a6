/**
 * AMQP routing: which consumers a message published with a routing key reaches. A topic exchange's binding
 * key matches word by word (`.`-separated): `*` stands for exactly one word, `#` for zero or more; a key
 * without wildcards matches itself only, as a direct exchange does. An empty key says nothing (fanout
 * exchanges ignore keys, and publishers to them usually pass `""`), so it matches everything.
 */

/** Whether a binding key (a pattern) admits a routing key. */
export function bindingMatches(binding: string, routingKey: string): boolean {
  if (binding === '' || routingKey === '' || binding === '#') return true;
  return matchWords(binding.split('.'), 0, routingKey.split('.'), 0);
}

function matchWords(pattern: readonly string[], p: number, words: readonly string[], w: number): boolean {
  if (p === pattern.length) return w === words.length;
  const part = pattern[p];
  if (part === '#') {
    for (let skip = w; skip <= words.length; skip++) if (matchWords(pattern, p + 1, words, skip)) return true;
    return false;
  }
  if (w === words.length) return false;
  return (part === '*' || part === words[w]) && matchWords(pattern, p + 1, words, w + 1);
}

/** Whether a consumer bound with `binding` (undefined: unknown) gets some message published with one of `keys`. */
export function reachedBy(binding: string | undefined, keys: readonly string[] | undefined): boolean {
  if (binding === undefined || keys === undefined || keys.length === 0) return true;
  return keys.some((key) => bindingMatches(binding, key));
}
