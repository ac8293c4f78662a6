/**
 * Deploy manifests read as YAML syntax trees, so every value keeps its line. Aliases are followed one hop
 * (compose files share `environment:` blocks through anchors); merge keys (`<<`) are followed too.
 */
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseAllDocuments,
  visit,
  type Alias,
  type Document,
  type Node,
} from 'yaml';

export type { Node };

export interface YamlDocument {
  readonly root: Node | null;
  /** 1-based line of a node (of its first character). */
  line(node: Node | null | undefined): number;
  deref(node: Node | null | undefined): Node | null;
}

/**
 * The `---`-separated documents of a YAML stream, each with the line it starts on, so that a caller can
 * parse only the documents it cares about (parsing is the expensive part).
 */
export function splitDocuments(text: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let start = 0;
  let line = 1;
  let startLine = 1;
  for (const match of text.matchAll(/^---[^\n]*$/gm)) {
    out.push({ text: text.slice(start, match.index), line: startLine });
    line += (text.slice(start, match.index).match(/\n/g) ?? []).length;
    start = match.index + match[0].length;
    startLine = line;
  }
  out.push({ text: text.slice(start), line: startLine });
  return out.filter((doc) => doc.text.trim() !== '');
}

/** Every document of a YAML text that parsed without errors; a Helm template (`{{ }}`) is not YAML. */
export function parseYaml(text: string, firstLine = 1): YamlDocument[] {
  if (/\{\{[\s\S]*?\}\}/.test(text)) return [];
  const counter = new LineCounter();
  let documents: Document.Parsed[];
  try {
    documents = parseAllDocuments(text, { lineCounter: counter, uniqueKeys: false }) as Document.Parsed[];
  } catch {
    return [];
  }
  if (!Array.isArray(documents)) return [];
  return documents
    .filter((doc) => doc.errors.length === 0)
    .map((doc) => {
      let targets: Map<Alias, Node | null> | undefined;
      return {
        root: doc.contents as Node | null,
        line: (node) => (node?.range ? counter.linePos(node.range[0]).line + firstLine - 1 : firstLine),
        deref: (node) => {
          if (!node || !isAlias(node)) return node ?? null;
          targets ??= aliasTargets(doc);
          return targets.get(node) ?? null;
        },
      };
    });
}

/**
 * Every alias of a document with the node it names: the last node before it carrying that anchor, as
 * `Alias.resolve` finds it. `resolve` walks the whole document on every call, and readers ask for the same
 * aliases many times (a compose file's `<<: *defaults` is followed by every `get` on its service): on the
 * OpenTelemetry demo that was a third of the service model's time. One walk per document finds them all.
 */
function aliasTargets(doc: Document.Parsed): Map<Alias, Node | null> {
  const anchored = new Map<string, Node>();
  const targets = new Map<Alias, Node | null>();
  visit(doc, {
    Node: (_key, node) => {
      if (isAlias(node)) targets.set(node, anchored.get(node.source) ?? null);
      else if (node.anchor) anchored.set(node.anchor, node as Node);
    },
  });
  return targets;
}

export interface YamlPair {
  readonly key: string;
  readonly keyNode: Node | null;
  readonly value: Node | null;
}

/** The pairs of a mapping (merge keys expanded, later keys win), or none. */
export function pairsOf(doc: YamlDocument, node: Node | null | undefined): YamlPair[] {
  const map = doc.deref(node);
  if (!map || !isMap(map)) return [];
  const out = new Map<string, YamlPair>();
  for (const pair of map.items) {
    const keyNode = pair.key as Node | null;
    const key = isScalar(keyNode) ? String(keyNode.value) : undefined;
    if (key === '<<') {
      const merged = doc.deref(pair.value as Node | null);
      const sources = merged && isSeq(merged) ? merged.items.map((item) => item as Node) : [merged];
      for (const source of sources)
        for (const inner of pairsOf(doc, source)) if (!out.has(inner.key)) out.set(inner.key, inner);
    } else if (key !== undefined) out.set(key, { key, keyNode, value: doc.deref(pair.value as Node | null) });
  }
  return [...out.values()];
}

export function get(doc: YamlDocument, node: Node | null | undefined, key: string): Node | null {
  return pairsOf(doc, node).find((pair) => pair.key === key)?.value ?? null;
}

/** A path of keys down nested mappings. */
export function getPath(
  doc: YamlDocument,
  node: Node | null | undefined,
  keys: readonly string[],
): Node | null {
  let current = doc.deref(node);
  for (const key of keys) current = get(doc, current, key);
  return current;
}

/** A scalar as a string (numbers and booleans as written), else undefined. */
export function str(doc: YamlDocument, node: Node | null | undefined): string | undefined {
  const value = doc.deref(node);
  if (!value || !isScalar(value) || value.value === null || value.value === undefined) return undefined;
  return String(value.value);
}

export function items(doc: YamlDocument, node: Node | null | undefined): Node[] {
  const seq = doc.deref(node);
  return seq && isSeq(seq)
    ? seq.items.map((item) => doc.deref(item as Node)).filter((n): n is Node => n !== null)
    : [];
}

/** A sequence of scalars, or one scalar, as strings. */
export function strings(doc: YamlDocument, node: Node | null | undefined): string[] {
  const value = doc.deref(node);
  if (value && isScalar(value)) return [str(doc, value)].filter((s): s is string => s !== undefined);
  return items(doc, value)
    .map((item) => str(doc, item))
    .filter((s): s is string => s !== undefined);
}
