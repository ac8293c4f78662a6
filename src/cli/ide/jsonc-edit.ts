import {
  applyEdits,
  findNodeAtLocation,
  format,
  modify,
  parseTree,
  type FormattingOptions,
  type JSONPath,
  type Node,
} from 'jsonc-parser';

/**
 * Sets one value in a JSON-with-comments text and touches nothing else: comments, other keys and their layout
 * stay byte for byte, and the new text is laid out like its surroundings (one line where the replaced value or
 * the receiving object is on one line, the file's indentation otherwise).
 */

export const JSONC_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true };

/** The file's own indentation and line ends. */
export function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)["/}\]]/m.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 4, eol };
  return { insertSpaces: true, tabSize: indent?.length ?? 2, eol };
}

const unitOf = (formatting: FormattingOptions): string =>
  formatting.insertSpaces ? ' '.repeat(formatting.tabSize ?? 2) : '\t';

/** `value` on one line, spaced like hand-written JSON: `["a", "b"]`, `{"k": 1}`. */
function oneLine(value: unknown): string {
  // JSON.stringify escapes newlines inside strings, so every newline it writes is between tokens.
  return JSON.stringify(value, null, 1)
    .replace(/([[{])\n\s*/g, '$1')
    .replace(/\n\s*([\]}])/g, '$1')
    .replace(/,\n\s*/g, ', ');
}

/** `value` over several lines, for a line indented by `indent`. */
function pretty(value: unknown, indent: string, formatting: FormattingOptions): string {
  return JSON.stringify(value, null, unitOf(formatting)).replace(/\n/g, `${formatting.eol}${indent}`);
}

const isOneLine = (text: string, node: Node): boolean =>
  !text.slice(node.offset, node.offset + node.length).includes('\n');

/** The whitespace before `offset` on its line. */
function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))?.[0] ?? '';
}

const splice = (text: string, offset: number, length: number, content: string): string =>
  text.slice(0, offset) + content + text.slice(offset + length);

function replaceNode(text: string, node: Node, value: unknown, formatting: FormattingOptions): string {
  const content = isOneLine(text, node)
    ? oneLine(value)
    : pretty(value, indentAt(text, node.offset), formatting);
  return splice(text, node.offset, node.length, content);
}

/**
 * Adds `key` as the last member of an object written over several lines, on a line of its own after the last
 * member's line, so a comment ending that line stays where it was; a trailing comma there is kept as the style.
 * Undefined when the layout is not that simple (the object closes on the same line, a block comment follows).
 */
function appendMember(
  text: string,
  container: Node,
  key: string,
  value: unknown,
  formatting: FormattingOptions,
): string | undefined {
  const last = container.children?.at(-1);
  if (last === undefined) return undefined;
  const lastEnd = last.offset + last.length;
  let lineEnd = text.indexOf('\n', lastEnd);
  if (lineEnd < 0 || lineEnd >= container.offset + container.length) return undefined;
  if (text[lineEnd - 1] === '\r') lineEnd--;
  const rest = text.slice(lastEnd, lineEnd);
  if (rest.includes('/*')) return undefined;
  const indent = indentAt(text, last.offset);
  const member = `${formatting.eol}${indent}${JSON.stringify(key)}: ${pretty(value, indent, formatting)}`;
  if (/^\s*,/.test(rest)) return splice(text, lineEnd, 0, `${member},`);
  return splice(splice(text, lineEnd, 0, member), lastEnd, 0, ',');
}

/** jsonc-parser's own insertion, with only the inserted text formatted. */
function insertWithModify(
  text: string,
  jsonPath: JSONPath,
  value: unknown,
  single: boolean,
  formatting: FormattingOptions,
) {
  let out = text;
  for (const edit of modify(text, jsonPath, value, {}).sort((a, b) => b.offset - a.offset)) {
    const compact = JSON.stringify(value);
    if (single && edit.content.endsWith(compact)) {
      // modify writes `,"key": value`: keep it on the object's one line, spaced.
      const prefix = edit.content.slice(0, edit.content.length - compact.length).replace(/^,(?=")/, ', ');
      out = splice(out, edit.offset, edit.length, prefix + oneLine(value));
    } else {
      out = splice(out, edit.offset, edit.length, edit.content);
      out = applyEdits(out, format(out, { offset: edit.offset, length: edit.content.length }, formatting));
    }
  }
  return out;
}

/** `text` with the value at `jsonPath` set to `value` (created with its missing parents if need be). */
export function setValue(
  text: string,
  jsonPath: JSONPath,
  value: unknown,
  formatting: FormattingOptions,
): string {
  const tree = parseTree(text, [], JSONC_OPTIONS);
  const existing = tree && findNodeAtLocation(tree, jsonPath);
  if (existing !== undefined) return replaceNode(text, existing, value, formatting);
  // The deepest object that exists receives the first missing key, holding the rest of the path.
  let depth = jsonPath.length - 1;
  while (
    depth > 0 &&
    (tree === undefined || findNodeAtLocation(tree, jsonPath.slice(0, depth)) === undefined)
  )
    depth--;
  const container = tree && findNodeAtLocation(tree, jsonPath.slice(0, depth));
  const nested = jsonPath.slice(depth + 1).reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
  const filled = container?.type === 'object' && (container.children?.length ?? 0) > 0;
  const single = filled && isOneLine(text, container);
  const key = jsonPath[depth];
  if (filled && !single && typeof key === 'string') {
    const appended = appendMember(text, container, key, nested, formatting);
    if (appended !== undefined) return appended;
  }
  return insertWithModify(text, jsonPath.slice(0, depth + 1), nested, single, formatting);
}
