/**
 * A tolerant XML element scanner for simple descriptors (pom.xml, web.xml): elements with their local name
 * (namespace prefix dropped), attributes, trimmed text and line. Comments, CDATA, processing instructions
 * and doctypes are skipped; an unbalanced closing tag closes up to its match, so a malformed file yields
 * what can be read rather than an error. Not a validating parser, and no entities beyond the five basic ones.
 */

export interface XmlElement {
  readonly name: string;
  readonly attrs: ReadonlyMap<string, string>;
  readonly children: XmlElement[];
  /** The element's own text (not its children's), trimmed, entities decoded. */
  text: string;
  readonly line: number;
}

const TOKEN =
  /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<[?!][\s\S]*?>|<(\/?)([A-Za-z_][\w:.-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;
const ATTR = /([A-Za-z_][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

const localName = (name: string): string => name.slice(name.indexOf(':') + 1);
const decode = (text: string): string =>
  text.replace(/&(lt|gt|amp|quot|apos);/g, (_, e: string) => ENTITIES[e] ?? '');

/** The document's elements under a synthetic root named `#document`. */
export function parseXml(source: string): XmlElement {
  const root: XmlElement = { name: '#document', attrs: new Map(), children: [], text: '', line: 1 };
  const stack: XmlElement[] = [root];
  let line = 1;
  let last = 0;
  const lineAt = (offset: number): number => {
    for (let i = last; i < offset; i++) if (source.charCodeAt(i) === 10) line++;
    last = offset;
    return line;
  };
  const appendText = (text: string): void => {
    const top = stack[stack.length - 1] as XmlElement;
    const trimmed = text.trim();
    if (trimmed !== '') top.text = top.text === '' ? trimmed : `${top.text} ${trimmed}`;
  };
  let textStart = 0;
  for (const match of source.matchAll(TOKEN)) {
    const at = match.index;
    appendText(decode(source.slice(textStart, at)));
    textStart = at + match[0].length;
    if (match[1] !== undefined) appendText(match[1]);
    const name = match[3];
    if (name === undefined) continue;
    const local = localName(name);
    if (match[2] === '/') {
      const open = stack.map((e) => e.name).lastIndexOf(local);
      if (open > 0) stack.length = open;
      continue;
    }
    const attrs = new Map<string, string>();
    for (const attr of (match[4] ?? '').matchAll(ATTR))
      attrs.set(localName(attr[1] ?? ''), decode(attr[2] ?? attr[3] ?? ''));
    const element: XmlElement = { name: local, attrs, children: [], text: '', line: lineAt(at) };
    (stack[stack.length - 1] as XmlElement).children.push(element);
    if (match[5] !== '/') stack.push(element);
  }
  return root;
}

/** The first child element with this name. */
export const child = (element: XmlElement | undefined, name: string): XmlElement | undefined =>
  element?.children.find((c) => c.name === name);

/** Every child element with this name. */
export const children = (element: XmlElement | undefined, name: string): XmlElement[] =>
  element?.children.filter((c) => c.name === name) ?? [];

/** The text of the element at a path of child names, if present. */
export function textAt(element: XmlElement | undefined, ...path: readonly string[]): string | undefined {
  let current = element;
  for (const name of path) current = child(current, name);
  return current?.text;
}
