/** Route and call paths as the JVM frameworks write them, normalised so that servers and callers compare. */

/**
 * Normalises a route or call path: leading `/`, no trailing `/` (except the root), no doubled `/`, parameters
 * as `{name}` (`{id:[0-9]+}`, `{id?}`, `{path...}` → `{id}`/`{path}`). Spring placeholders `${…}` stay intact.
 */
export function normalizePath(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (ch === '$' && raw[i + 1] === '{') {
      const end = closingBrace(raw, i + 1);
      out += raw.slice(i, end + 1);
      i = end;
    } else if (ch === '{') {
      const end = closingBrace(raw, i);
      const inner = raw.slice(i + 1, end);
      const name = /^\s*([A-Za-z_$][\w$-]*)/.exec(inner)?.[1] ?? inner.trim();
      out += `{${name}}`;
      i = end;
    } else {
      out += ch;
    }
  }
  out = out.trim().replace(/\/{2,}/g, '/');
  if (!out.startsWith('/')) out = `/${out}`;
  if (out.length > 1 && out.endsWith('/')) out = out.slice(0, -1);
  return out;
}

function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return text.length - 1;
}

export function joinPaths(prefix: string, path: string): string {
  if (prefix === '' || prefix === '/') return normalizePath(path);
  if (path === '' || path === '/') return normalizePath(prefix);
  return normalizePath(`${prefix}/${path}`);
}
