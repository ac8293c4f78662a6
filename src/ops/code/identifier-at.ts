/**
 * Identifiers in one line of (masked) source text: the one at a column, every one on the line, and the
 * qualifier written before one (`repo` in `this.repo.save`, `store` in `store.New`). Identifier characters
 * are letters, digits, `_` and `$`, which covers the languages meshlens indexes closely enough to point at a
 * name; nothing here parses.
 */

const IDENTIFIER = /[\p{L}_$][\p{L}\p{N}_$]*/gu;
const WORD_CHAR = /[\p{L}\p{N}_$]/u;

export interface Identifier {
  readonly name: string;
  /** 1-based column of its first character. */
  readonly column: number;
}

export interface IdentifierAt extends Identifier {
  /** The identifier it is a member of, when written `q.name`, `q?.name`, `q->name` or `q::name`. */
  readonly qualifier?: string;
}

export function identifiersOn(text: string): Identifier[] {
  const out: Identifier[] = [];
  for (const match of text.matchAll(IDENTIFIER)) {
    const start = match.index;
    // A run starting with digits (`0x1f`, `2fa`) is a literal, not a name.
    if (start > 0 && WORD_CHAR.test(text[start - 1] as string)) continue;
    out.push({ name: match[0], column: start + 1 });
  }
  return out;
}

/** What precedes an identifier when it is a member access: the qualifier's own name. */
const QUALIFIED = /([\p{L}_$][\p{L}\p{N}_$]*)\s*(?:\?\.|\.|->|::)\s*$/u;

/**
 * The identifier under 1-based `column`, or just before it (a cursor placed after a name), with its
 * qualifier; undefined when neither character belongs to a name.
 */
export function identifierAt(text: string, column: number): IdentifierAt | undefined {
  const found = identifiersOn(text).find((id) => column >= id.column && column <= id.column + id.name.length);
  if (!found) return undefined;
  const qualifier = QUALIFIED.exec(text.slice(0, found.column - 1))?.[1];
  return qualifier === undefined ? found : { ...found, qualifier };
}

/** Whether `name` occurs at `index` of `text` as a whole word. */
export function isWholeWordAt(text: string, index: number, name: string): boolean {
  const before = index > 0 ? text[index - 1] : undefined;
  const after = text[index + name.length];
  return (before === undefined || !WORD_CHAR.test(before)) && (after === undefined || !WORD_CHAR.test(after));
}

/**
 * Whether `index` of a line falls inside a quoted string opened on that line (`'./audit'`, `"pkg/store"`):
 * quotes are counted from the line's start, skipping escaped ones. A string spanning lines is not seen.
 */
export function insideQuotes(text: string, index: number): boolean {
  let open: string | undefined;
  for (let i = 0; i < index; i++) {
    const c = text[i] as string;
    if (c === '\\') i++;
    else if (open === undefined && (c === '"' || c === "'" || c === '`')) open = c;
    else if (c === open) open = undefined;
  }
  return open !== undefined;
}
