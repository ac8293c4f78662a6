/**
 * The little of Lua a load script's request needs: lines joined where an expression continues (`..` at the
 * end of a line), top-level splitting of argument lists and concatenations, and a string value for an
 * expression of literals and assigned names.
 */

export interface Assignment {
  readonly name: string;
  readonly expression: string;
  readonly line: number;
}

const MAX_DEPTH = 6;
const STRING = /^(["'])((?:\\.|(?!\1).)*)\1$/;
const NAME = /^[A-Za-z_]\w*$/;

/** Lines without comments, a line ending in `..` or `,` joined with the next; each with its first line. */
export function logicalLines(source: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  const lines = source.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let text = stripComment(lines[i] ?? '');
    while (/(\.\.|,|\()\s*$/.test(text) && i + 1 < lines.length)
      text = `${text} ${stripComment(lines[++i] ?? '')}`;
    out.push({ text, line: start + 1 });
  }
  return out;
}

/** A line without its `--` comment (outside strings). */
function stripComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '-' && line[i + 1] === '-') return line.slice(0, i);
  }
  return line;
}

/** `text` split at top-level occurrences of `separator` (outside strings and brackets). */
export function topLevelSplit(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') depth--;
    else if (depth === 0 && text.startsWith(separator, i)) {
      parts.push(text.slice(from, i));
      from = i + separator.length;
      i += separator.length - 1;
    }
  }
  parts.push(text.slice(from));
  return parts.map((p) => p.trim());
}

/**
 * The string an expression stands for at `line`: literals as written, a name through its last assignment
 * above, anything else a `{name}` segment (named after its last identifier); undefined for `nil` or nothing.
 */
export function evaluate(
  expression: string,
  assignments: readonly Assignment[],
  line: number,
  depth = 0,
): string | undefined {
  const trimmed = expression.trim();
  if (trimmed === '' || trimmed === 'nil' || depth > MAX_DEPTH) return undefined;
  const parts = topLevelSplit(trimmed, '..');
  let out = '';
  for (const part of parts) {
    const literal = STRING.exec(part);
    if (literal) {
      out += (literal[2] ?? '').replace(/\\(.)/g, '$1');
      continue;
    }
    if (NAME.test(part)) {
      const assigned = lastAssignment(part, assignments, line);
      const value =
        assigned === undefined
          ? undefined
          : evaluate(assigned.expression, assignments, assigned.line, depth + 1);
      // A name holding something computed is a parameter named after the variable, not after the call.
      out += value === undefined || /^\{[^}]*\}$/.test(value) ? `{${part}}` : value;
      continue;
    }
    const identifiers = part.match(/[A-Za-z_]\w*/g);
    out += `{${identifiers?.[identifiers.length - 1] ?? 'value'}}`;
  }
  return out;
}

function lastAssignment(
  name: string,
  assignments: readonly Assignment[],
  line: number,
): Assignment | undefined {
  let found: Assignment | undefined;
  for (const assignment of assignments)
    if (assignment.name === name && assignment.line <= line && (!found || assignment.line >= found.line))
      found = assignment;
  return found;
}
