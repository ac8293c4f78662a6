/**
 * A lexical scan of a `.proto` file that finds where each declaration starts and ends. protobufjs builds the
 * schema but keeps no reliable positions, so lines come from here: a tokenizer that skips comments and
 * strings, and a brace-aware walk that tells declarations (`message X {`) from option aggregates
 * (`option (google.api.http) = { get: "/x" };`), which also contain braces and keywords.
 */

export interface ProtoToken {
  readonly text: string;
  readonly kind: 'ident' | 'number' | 'string' | 'punct';
  readonly line: number;
}

interface ProtoComment {
  readonly text: string;
  readonly startLine: number;
  readonly endLine: number;
  /** Nothing but whitespace before it on its first line and after it on its last line. */
  alone: boolean;
}

export type ScanDeclKind = 'message' | 'enum' | 'service' | 'rpc' | 'oneof' | 'extend';

export interface ScanDecl {
  readonly kind: ScanDeclKind;
  /** `Outer.Inner` for types, `Service` for services, `Service/Method` for rpcs, `Message#oneof` for oneofs. */
  readonly path: string;
  /** The line of the keyword (`message`, `rpc`…). */
  readonly startLine: number;
  /** The line of the closing `}` (or of the `;` of an rpc without options). */
  endLine: number;
  readonly docstring?: string;
}

export interface ScanField {
  readonly line: number;
  /** The label as written (`optional`, `required`, `repeated`), absent when there is none. */
  readonly label?: string;
}

export interface ProtoScan {
  readonly syntax?: string;
  readonly edition?: string;
  readonly package?: string;
  readonly imports: readonly {
    readonly path: string;
    readonly kind: 'default' | 'public' | 'weak';
    readonly line: number;
  }[];
  /** In source order of their first line. */
  readonly decls: readonly ScanDecl[];
  /** Keyed `Message.Path#field`. */
  readonly fields: ReadonlyMap<string, ScanField>;
  /** Keyed `Enum.Path#VALUE`. */
  readonly enumValues: ReadonlyMap<string, number>;
}

const isIdentStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isIdentPart = (c: number): boolean => isIdentStart(c) || isDigit(c);
const LABELS = new Set(['optional', 'required', 'repeated']);

/** Tokens and comments of a proto source. Unterminated strings and comments end at the end of the input. */
export function tokenize(source: string): { tokens: ProtoToken[]; comments: ProtoComment[] } {
  const tokens: ProtoToken[] = [];
  const comments: ProtoComment[] = [];
  let line = 1;
  let lastTokenLine = 0;
  let i = 0;
  const n = source.length;
  const push = (text: string, kind: ProtoToken['kind'], tokenLine: number): void => {
    const last = comments.at(-1);
    if (last !== undefined && last.endLine === tokenLine) last.alone = false;
    tokens.push({ text, kind, line: tokenLine });
    lastTokenLine = tokenLine;
  };
  while (i < n) {
    const c = source[i] as string;
    if (c === '\n') {
      line += 1;
      i += 1;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      i += 1;
    } else if (c === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      comments.push({
        text: source.slice(i, stop),
        startLine: line,
        endLine: line,
        alone: lastTokenLine !== line,
      });
      i = stop;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      const text = source.slice(i, stop);
      const startLine = line;
      for (const ch of text) if (ch === '\n') line += 1;
      comments.push({ text, startLine, endLine: line, alone: lastTokenLine !== startLine });
      i = stop;
    } else if (c === '"' || c === "'") {
      const startLine = line;
      let j = i + 1;
      let value = '';
      while (j < n && source[j] !== c) {
        const ch = source[j] as string;
        if (ch === '\\' && j + 1 < n) {
          value += source[j + 1];
          j += 2;
          continue;
        }
        if (ch === '\n') line += 1;
        value += ch;
        j += 1;
      }
      push(value, 'string', startLine);
      i = j + 1;
    } else if (isIdentStart(source.charCodeAt(i))) {
      let j = i + 1;
      while (j < n && isIdentPart(source.charCodeAt(j))) j += 1;
      push(source.slice(i, j), 'ident', line);
      i = j;
    } else if (isDigit(source.charCodeAt(i))) {
      let j = i + 1;
      while (j < n) {
        const ch = source.charCodeAt(j);
        const prev = source.charCodeAt(j - 1);
        // Digits, letters (hex, exponents, `inf`), `.`, and a sign right after an exponent `e`/`E`.
        if (isIdentPart(ch) || ch === 46 || ((ch === 43 || ch === 45) && (prev === 101 || prev === 69)))
          j += 1;
        else break;
      }
      push(source.slice(i, j), 'number', line);
      i = j;
    } else {
      push(c, 'punct', line);
      i += 1;
    }
  }
  return { tokens, comments };
}

function commentText(raw: string): string {
  if (raw.startsWith('//')) return raw.replace(/^\/\/\/?\s?/, '').trimEnd();
  return raw
    .replace(/^\/\*\*?/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\*?\s?/, '').trimEnd())
    .join('\n')
    .trim();
}

/** The run of comments on the lines directly above `line`, each alone on its lines. */
function docstringAbove(line: number, byEndLine: ReadonlyMap<number, ProtoComment>): string | undefined {
  const parts: string[] = [];
  let cursor = line - 1;
  for (let comment = byEndLine.get(cursor); comment !== undefined; comment = byEndLine.get(cursor)) {
    parts.unshift(commentText(comment.text));
    cursor = comment.startLine - 1;
  }
  const text = parts.join('\n').trim();
  return text === '' ? undefined : text;
}

type Frame =
  | { readonly kind: 'file'; stmt: ProtoToken[] }
  | {
      readonly kind: 'message' | 'enum' | 'service' | 'extend' | 'rpc';
      readonly path: string;
      readonly decl: ScanDecl;
      stmt: ProtoToken[];
    }
  | {
      readonly kind: 'oneof';
      readonly path: string;
      readonly message: string;
      readonly decl: ScanDecl;
      stmt: ProtoToken[];
    }
  /** An option value in text format: only its braces matter. */
  | { readonly kind: 'aggregate'; stmt: ProtoToken[] };

const join = (parent: string, name: string): string => (parent === '' ? name : `${parent}.${name}`);
/** Punctuation only: a string literal `"{"` or `"="` is not. */
const isPunct = (token: ProtoToken | undefined, text: string): boolean =>
  token?.kind === 'punct' && token.text === text;
const isWord = (token: ProtoToken | undefined, text: string): boolean =>
  token?.kind === 'ident' && token.text === text;

/** Scans the structure of a proto source. Never throws: what it cannot place it leaves out. */
export function scanProto(source: string): ProtoScan {
  const { tokens, comments } = tokenize(source);
  const scanner = new ProtoScanner(comments);
  for (const token of tokens) scanner.take(token);
  return scanner.result();
}

/** The message whose fields a statement in this frame declares. */
const messageOf = (frame: Frame): string | undefined =>
  frame.kind === 'message' ? frame.path : frame.kind === 'oneof' ? frame.message : undefined;

/** Reads tokens one at a time into declarations, fields and enum values, tracking the open braces. */
class ProtoScanner {
  private syntax: string | undefined;
  private edition: string | undefined;
  private pkg: string | undefined;
  private readonly imports: { path: string; kind: 'default' | 'public' | 'weak'; line: number }[] = [];
  private readonly decls: ScanDecl[] = [];
  private readonly fields = new Map<string, ScanField>();
  private readonly enumValues = new Map<string, number>();
  private readonly stack: Frame[] = [{ kind: 'file', stmt: [] }];
  /** Comments alone on their lines, by the line they end on: a declaration's docstring ends just above it. */
  private readonly byEndLine = new Map<number, ProtoComment>();

  constructor(comments: readonly ProtoComment[]) {
    for (const comment of comments) if (comment.alone) this.byEndLine.set(comment.endLine, comment);
  }

  take(token: ProtoToken): void {
    const frame = this.stack.at(-1) as Frame;
    if (frame.kind === 'aggregate') {
      if (isPunct(token, '{')) this.stack.push({ kind: 'aggregate', stmt: [] });
      else if (isPunct(token, '}')) this.stack.pop();
      return;
    }
    if (isPunct(token, '{')) {
      this.stack.push(this.openBrace(frame));
    } else if (isPunct(token, '}')) {
      if (frame.kind === 'file') return;
      frame.decl.endLine = token.line;
      this.stack.pop();
    } else if (isPunct(token, ';')) {
      this.endStatement(frame, token);
    } else {
      frame.stmt.push(token);
    }
  }

  result(): ProtoScan {
    return {
      ...(this.syntax !== undefined ? { syntax: this.syntax } : {}),
      ...(this.edition !== undefined ? { edition: this.edition } : {}),
      ...(this.pkg !== undefined ? { package: this.pkg } : {}),
      imports: this.imports,
      decls: this.decls,
      fields: this.fields,
      enumValues: this.enumValues,
    };
  }

  private open(kind: ScanDeclKind, path: string, startLine: number): ScanDecl {
    const docstring = docstringAbove(startLine, this.byEndLine);
    const decl: ScanDecl = { kind, path, startLine, endLine: startLine, ...(docstring ? { docstring } : {}) };
    this.decls.push(decl);
    return decl;
  }

  private endStatement(frame: Frame, end: ProtoToken): void {
    const stmt = frame.stmt;
    frame.stmt = [];
    const first = stmt[0];
    if (first === undefined) return;
    if (frame.kind === 'file') {
      this.fileStatement(stmt, first);
      return;
    }
    if (frame.kind === 'service' && isWord(first, 'rpc') && stmt[1] !== undefined) {
      this.open('rpc', `${frame.path}/${stmt[1].text}`, first.line).endLine = end.line;
      return;
    }
    if (frame.kind === 'enum') {
      if (first.kind === 'ident' && isPunct(stmt[1], '=') && first.text !== 'option') {
        this.enumValues.set(`${frame.path}#${first.text}`, first.line);
      }
      return;
    }
    const message = messageOf(frame);
    if (message === undefined || ['option', 'reserved', 'extensions'].includes(first.text)) return;
    const eq = stmt.findIndex((t) => isPunct(t, '=') || isPunct(t, '['));
    const name = eq > 0 ? stmt[eq - 1] : undefined;
    if (name?.kind !== 'ident' || !isPunct(stmt[eq], '=')) return;
    this.fields.set(`${message}#${name.text}`, {
      line: name.line,
      ...(LABELS.has(first.text) ? { label: first.text } : {}),
    });
  }

  /** `syntax`, `edition`, `package` and `import` statements at the top level. */
  private fileStatement(stmt: readonly ProtoToken[], first: ProtoToken): void {
    const strings = stmt.filter((t) => t.kind === 'string').map((t) => t.text);
    if (first.text === 'syntax') this.syntax = strings.join('');
    else if (first.text === 'edition') this.edition = strings.join('');
    else if (first.text === 'package')
      this.pkg = stmt
        .slice(1)
        .map((t) => t.text)
        .join('');
    else if (first.text === 'import') {
      const modifier = stmt[1]?.text;
      const kind = modifier === 'public' || modifier === 'weak' ? modifier : 'default';
      this.imports.push({ path: strings.join(''), kind, line: first.line });
    }
  }

  /** Decides what a `{` opens, from the statement before it. */
  private openBrace(frame: Frame): Frame {
    const stmt = frame.stmt;
    const first = stmt[0];
    const second = stmt[1];
    /** The keyword's line: where a declaration starts. */
    const at = first?.line ?? 0;
    const name = second?.kind === 'ident' && stmt.length === 2 ? second.text : undefined;
    const container = frame.kind === 'file' ? '' : messageOf(frame);
    if (first !== undefined && container !== undefined) {
      const nested = this.openType(frame, first, name, container);
      if (nested !== undefined) return nested;
    }
    if (frame.kind === 'file' && isWord(first, 'service') && name !== undefined) {
      frame.stmt = [];
      return { kind: 'service', path: name, decl: this.open('service', name, at), stmt: [] };
    }
    if (frame.kind === 'message' && isWord(first, 'oneof') && name !== undefined) {
      frame.stmt = [];
      const path = `${frame.path}#${name}`;
      return { kind: 'oneof', path, message: frame.path, decl: this.open('oneof', path, at), stmt: [] };
    }
    if (
      frame.kind === 'service' &&
      isWord(first, 'rpc') &&
      second !== undefined &&
      stmt.some((t) => isWord(t, 'returns'))
    ) {
      frame.stmt = [];
      const path = `${frame.path}/${second.text}`;
      return { kind: 'rpc', path, decl: this.open('rpc', path, at), stmt: [] };
    }
    // Anything else is a value: the statement goes on after the matching brace.
    return { kind: 'aggregate', stmt: [] };
  }

  /** A `message`, `enum`, `extend` or proto2 `group` opened at the top level or inside a message. */
  private openType(
    frame: Frame,
    first: ProtoToken,
    name: string | undefined,
    container: string,
  ): Frame | undefined {
    const stmt = frame.stmt;
    if ((isWord(first, 'message') || isWord(first, 'enum')) && name !== undefined) {
      const kind = first.text as 'message' | 'enum';
      const path = join(container, name);
      frame.stmt = [];
      return { kind, path, decl: this.open(kind, path, first.line), stmt: [] };
    }
    if (isWord(first, 'extend')) {
      frame.stmt = [];
      const path = `${container}@extend:${stmt
        .slice(1)
        .map((t) => t.text)
        .join('')}`;
      return { kind: 'extend', path, decl: this.open('extend', path, first.line), stmt: [] };
    }
    const group = stmt.findIndex((t) => isWord(t, 'group'));
    const groupName = group >= 0 && group <= 1 ? stmt[group + 1] : undefined;
    if (frame.kind !== 'file' && groupName?.kind === 'ident' && isPunct(stmt[group + 2], '=')) {
      // A proto2 group declares a nested type and a field named after it in lower case.
      const path = join(container, groupName.text);
      frame.stmt = [];
      this.fields.set(`${container}#${groupName.text.toLowerCase()}`, {
        line: groupName.line,
        ...(LABELS.has(first.text) ? { label: first.text } : {}),
      });
      return { kind: 'message', path, decl: this.open('message', path, first.line), stmt: [] };
    }
    return undefined;
  }
}
