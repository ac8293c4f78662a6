/**
 * nginx's configuration syntax, read by hand (no grammar): directives are words ended by `;`, or followed
 * by a `{ … }` block of directives; `#` starts a comment outside quotes; quoted strings are one word. Only
 * the structure is read; what the directives mean is up to the caller.
 */

export interface Directive {
  readonly name: string;
  readonly args: readonly string[];
  readonly line: number;
  /** The directives inside `{ … }`; absent for a simple directive. */
  readonly block?: readonly Directive[];
}

interface Token {
  readonly text: string;
  readonly line: number;
  /** `{`, `}` or `;` written bare (a quoted `"{"` is a word). */
  readonly punctuation: boolean;
}

/** Blocks nested deeper than this are not configuration anyone writes: the rest of the file is skipped. */
const MAX_DEPTH = 32;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (c === '\n') line += 1;
    if (/\s/.test(c)) {
      i += 1;
    } else if (c === '#') {
      while (i < source.length && source[i] !== '\n') i += 1;
    } else if (c === '{' || c === '}' || c === ';') {
      tokens.push({ text: c, line, punctuation: true });
      i += 1;
    } else if (c === '"' || c === "'") {
      const start = line;
      let j = i + 1;
      let text = '';
      while (j < source.length && source[j] !== c) {
        if (source[j] === '\\' && j + 1 < source.length) j += 1;
        if (source[j] === '\n') line += 1;
        text += source[j];
        j += 1;
      }
      tokens.push({ text, line: start, punctuation: false });
      i = j + 1;
    } else {
      let j = i;
      // `${VAR}` (envsubst templates) stays one word even though it holds braces.
      while (j < source.length && !/[\s;#]/.test(source[j] as string)) {
        if (source.startsWith('${', j)) {
          const close = source.indexOf('}', j);
          j = close < 0 ? source.length : close + 1;
        } else if (source[j] === '{' || source[j] === '}') break;
        else j += 1;
      }
      tokens.push({ text: source.slice(i, j), line, punctuation: false });
      i = j;
    }
  }
  return tokens;
}

/** The directives of a whole file; unbalanced braces end the blocks they leave open. */
export function parseBlocks(source: string): Directive[] {
  const tokens = tokenize(source);
  let at = 0;
  const readBlock = (depth: number): Directive[] => {
    const out: Directive[] = [];
    let words: Token[] = [];
    while (at < tokens.length) {
      const token = tokens[at] as Token;
      at += 1;
      if (!token.punctuation) {
        words.push(token);
        continue;
      }
      if (token.text === '}') return out;
      const [head, ...args] = words;
      words = [];
      if (token.text === ';') {
        if (head) out.push({ name: head.text, args: args.map((a) => a.text), line: head.line });
        continue;
      }
      const block = depth >= MAX_DEPTH ? [] : readBlock(depth + 1);
      if (head) out.push({ name: head.text, args: args.map((a) => a.text), line: head.line, block });
    }
    return out;
  };
  return readBlock(0);
}
