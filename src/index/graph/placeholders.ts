/**
 * Placeholders inside configuration values, as Spring and compose write them: `${key}`, `${key:default}`,
 * nested defaults `${A:${B:fallback}}`, compose's `${VAR:-default}`, anywhere in a string
 * (`http://${ORDERS_HOST}:8080/api`). A value found for a key may itself hold placeholders: it is resolved
 * again, a bounded number of times, so a cycle (`a: ${b}`, `b: ${a}`) ends unresolved instead of looping.
 */

/** How many times a looked-up value is itself resolved before giving up. */
const MAX_DEPTH = 6;

/** A key's value as configured, or undefined when nothing sets it. */
export type Lookup = (key: string) => string | undefined;

/** The index of the `}` closing the placeholder whose body starts at `from`, or -1. */
function closingBrace(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i += 1) {
    if (text.startsWith('${', i)) {
      depth += 1;
      i += 1;
    } else if (text[i] === '}') {
      if (depth === 0) return i;
      depth -= 1;
    }
  }
  return -1;
}

/** `key:default` → its key and default; a `:` inside a nested placeholder does not split. */
function splitDefault(body: string): { key: string; fallback?: string } {
  const colon = body.indexOf(':');
  const nested = body.indexOf('${');
  if (colon < 0 || (nested >= 0 && nested < colon)) return { key: body.trim() };
  const fallback = body.slice(colon + 1);
  // Compose and shells write `${VAR:-default}`.
  return {
    key: body.slice(0, colon).trim(),
    fallback: fallback.startsWith('-') ? fallback.slice(1) : fallback,
  };
}

/** Whether the text holds a placeholder at all. */
export const hasPlaceholder = (text: string): boolean => text.includes('${');

/**
 * Every placeholder of `text` replaced by its value (looked up, else its default, each resolved in turn);
 * undefined when one of them has neither.
 */
export function interpolate(text: string, lookup: Lookup, depth = 0): string | undefined {
  if (!hasPlaceholder(text)) return text;
  if (depth > MAX_DEPTH) return undefined;
  let out = '';
  let at = 0;
  for (let start = text.indexOf('${', at); start >= 0; start = text.indexOf('${', at)) {
    const end = closingBrace(text, start + 2);
    if (end < 0) return undefined;
    out += text.slice(at, start);
    const { key, fallback } = splitDefault(text.slice(start + 2, end));
    const found = lookup(key);
    let value = found === undefined ? undefined : interpolate(found, lookup, depth + 1);
    if (value === undefined && fallback !== undefined) value = interpolate(fallback, lookup, depth + 1);
    if (value === undefined) return undefined;
    out += value;
    at = end + 1;
  }
  return out + text.slice(at);
}
