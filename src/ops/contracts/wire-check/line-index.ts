import { blankCommentsAndStrings } from './blank-comments.js';

// Line positions (protobufjs keeps none): a small scanner over the text with comments and strings blanked.

export interface LineIndex {
  /** `Outer.Inner` (messages, enums), `Service`, `Service/Rpc`, `Message#field`, `Enum#VALUE`. */
  readonly lines: ReadonlyMap<string, number>;
}

export function indexLines(text: string): LineIndex {
  const lines = new Map<string, number>();
  const clean = blankCommentsAndStrings(text);
  const tokens: { text: string; line: number }[] = [];
  const pattern = /[A-Za-z_][\w.]*|-?(?:0[xX][0-9a-fA-F]+|\d+)|\S/g;
  clean.split('\n').forEach((lineText, index) => {
    for (const match of lineText.matchAll(pattern)) tokens.push({ text: match[0], line: index + 1 });
  });
  type Block = { kind: 'message' | 'enum' | 'service' | 'oneof' | 'other'; path: string };
  const stack: Block[] = [];
  const container = (): Block | undefined => stack[stack.length - 1];
  const typePath = (): string =>
    stack
      .filter((b) => b.kind === 'message' || b.kind === 'enum')
      .map((b) => b.path)
      .join('.');
  let statementStart = true;
  let skipStatement = false;
  let brackets = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as { text: string; line: number };
    const t = token.text;
    const starting = statementStart;
    statementStart = false;
    if (t === ';' || t === '{' || t === '}') {
      statementStart = true;
      skipStatement = false;
    }
    if (t === '[') brackets++;
    else if (t === ']') brackets = Math.max(0, brackets - 1);
    if (starting && (t === 'option' || t === 'reserved' || t === 'extensions')) skipStatement = true;
    const name = tokens[i + 1]?.text;
    if (
      ['message', 'enum', 'service', 'oneof'].includes(t) &&
      name &&
      tokens[i + 2]?.text === '{' &&
      starting
    ) {
      const kind = t as Block['kind'];
      const block: Block = { kind, path: name };
      if (kind === 'message' || kind === 'enum') {
        const parent = typePath();
        lines.set(parent ? `${parent}.${name}` : name, token.line);
      } else if (kind === 'service') {
        lines.set(name, token.line);
      }
      stack.push(block);
      i += 2;
      statementStart = true;
      continue;
    }
    if (t === '{') stack.push({ kind: 'other', path: '' });
    else if (t === '}') stack.pop();
    else if (t === 'rpc' && starting && name && container()?.kind === 'service') {
      lines.set(`${container()?.path}/${name}`, token.line);
    } else if (
      t === '=' &&
      !skipStatement &&
      brackets === 0 &&
      i > 0 &&
      /^-?(?:0[xX][0-9a-fA-F]+|\d+)$/.test(tokens[i + 1]?.text ?? '')
    ) {
      const before = tokens[i - 1]?.text ?? '';
      const inner = container();
      const owner = typePath();
      if (
        /^[A-Za-z_]\w*$/.test(before) &&
        owner &&
        inner &&
        inner.kind !== 'other' &&
        inner.kind !== 'service'
      ) {
        const key = `${owner}#${before}`;
        if (!lines.has(key)) lines.set(key, tokens[i - 1]?.line ?? token.line);
      }
    }
  }
  return { lines };
}
