/**
 * Reading YAML (and JSON, which the same parser reads with exact positions) as a syntax tree, never as plain
 * objects: the tree keeps real line numbers, and aliases stay single nodes instead of being copied out. An
 * alias is followed only on demand, through an anchor index built once per document (the library's own
 * `Alias.resolve` rescans the whole document per call), and every node visited or alias followed draws on a
 * budget proportional to the input, so an alias bomb (a few KB expanding to GB) fails fast instead.
 */
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseAllDocuments,
  visit,
  type Document,
  type Node as YamlNode,
  type Pair,
  type ParsedNode,
  type Scalar,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';

/** The walk budget (node visits and alias hops) is one step per input byte, at least this (MeshMCP's rule). */
const MIN_STEPS = 64 * 1024;

export class YamlBudgetError extends Error {}

export interface YamlEntry {
  readonly key: string;
  readonly keyNode: Scalar;
  /** Null for `key:` with nothing after it. */
  readonly value: YamlNode | null;
  /** The line of the key, or of the `<<` that merged it in. */
  readonly line: number;
}

/** One parsed YAML document with the helpers the extractors read it through. */
export class YamlDoc {
  private readonly anchors = new Map<string, YamlNode[]>();
  constructor(
    readonly doc: Document.Parsed,
    private readonly file: YamlFile,
  ) {
    visit(doc, {
      Node: (_key, node) => {
        if (!isAlias(node) && node.anchor !== undefined) {
          const list = this.anchors.get(node.anchor) ?? [];
          list.push(node);
          this.anchors.set(node.anchor, list);
        }
      },
    });
  }

  /** Draws on the file's walk budget: call once per node a recursive walk visits. */
  spend(steps: number): void {
    this.file.spend(steps);
  }

  get root(): YamlNode | null {
    return this.resolve(this.doc.contents);
  }

  /**
   * The node itself, or the node an alias points to: the last node anchored with that name that ends before
   * the alias (a node can never reach an alias inside itself, so following aliases cannot loop).
   */
  resolve(node: unknown): YamlNode | null {
    if (!isAlias(node)) return (node as YamlNode | null | undefined) ?? null;
    this.file.spend(1);
    const at = node.range?.[0] ?? 0;
    let found: YamlNode | null = null;
    for (const candidate of this.anchors.get(node.source) ?? []) {
      const range = candidate.range;
      if (range !== undefined && range !== null && range[1] <= at) found = candidate;
    }
    return found;
  }

  map(node: unknown): YAMLMap | undefined {
    const resolved = this.resolve(node);
    return isMap(resolved) ? resolved : undefined;
  }

  seq(node: unknown): YAMLSeq | undefined {
    const resolved = this.resolve(node);
    return isSeq(resolved) ? resolved : undefined;
  }

  /**
   * The entries of a map in source order, with `<<` merge keys expanded in place (YAML 1.1 merges are common
   * in compose files and Spring configs); a key written in the map wins over a merged one.
   */
  entries(map: YAMLMap): YamlEntry[] {
    const own = new Set<string>();
    for (const pair of map.items) {
      const key = this.keyOf(pair);
      if (key !== undefined && key.text !== '<<') own.add(key.text);
    }
    const out: YamlEntry[] = [];
    const seen = new Set<string>();
    const add = (entry: YamlEntry): void => {
      if (seen.has(entry.key)) return;
      seen.add(entry.key);
      out.push(entry);
    };
    for (const pair of map.items) {
      this.file.spend(1);
      const key = this.keyOf(pair);
      if (key === undefined) continue;
      if (key.text === '<<') {
        // Merged keys are reported on the `<<` line: that is where they enter this map.
        const line = this.file.line(key.node.range?.[0] ?? 0);
        const sources = this.seq(pair.value)?.items ?? [pair.value];
        for (const source of sources) {
          const merged = this.map(source);
          if (merged === undefined) continue;
          for (const entry of this.entries(merged)) if (!own.has(entry.key)) add({ ...entry, line });
        }
        continue;
      }
      const value = (pair.value as YamlNode | null | undefined) ?? null;
      add({ key: key.text, keyNode: key.node, value, line: this.file.line(key.node.range?.[0] ?? 0) });
    }
    return out;
  }

  /** The value of `key` in `map` (after merges), or undefined. */
  get(map: YAMLMap | undefined, key: string): YamlNode | null | undefined {
    if (map === undefined) return undefined;
    for (const entry of this.entries(map)) if (entry.key === key) return this.resolve(entry.value);
    return undefined;
  }

  /** A scalar's text: strings as parsed, other plain scalars as written (`0x1F`, `1.50`), null as undefined. */
  text(node: unknown): string | undefined {
    const resolved = this.resolve(node);
    if (!isScalar(resolved) || resolved.value === null || resolved.value === undefined) return undefined;
    if (typeof resolved.value === 'string') return resolved.value;
    return typeof resolved.source === 'string' && resolved.source !== ''
      ? resolved.source
      : String(resolved.value);
  }

  private keyOf(pair: Pair): { text: string; node: Scalar } | undefined {
    const key = pair.key;
    if (!isScalar(key) || key.value === null || key.value === undefined) return undefined;
    return { text: String(key.value), node: key };
  }

  line(node: YamlNode | null | undefined): number {
    return this.file.line(node?.range?.[0] ?? 0);
  }

  /** The line of the last character of a node's value (trailing blank lines and newlines excluded). */
  endLine(node: YamlNode | null | undefined): number {
    const range = node?.range;
    if (range === undefined || range === null) return this.line(node);
    return this.file.lastLineBefore(range[0], range[1]);
  }
}

/** A whole YAML stream: its documents (with or without errors), line lookup and the walk budget. */
export class YamlFile {
  readonly documents: { readonly doc: YamlDoc; readonly errors: readonly string[] }[];
  private readonly counter = new LineCounter();
  private steps: number;

  constructor(readonly source: string) {
    this.steps = Math.max(MIN_STEPS, source.length);
    const docs = parseAllDocuments(source, {
      lineCounter: this.counter,
      // Tolerate repeated keys (JSON allows them) instead of failing the file; `entries` reads the first.
      uniqueKeys: false,
      prettyErrors: false,
    });
    // An empty input yields an EmptyStream, which is iterable but has no documents.
    this.documents = [...(docs as Iterable<Document.Parsed<ParsedNode>>)].map((doc) => ({
      doc: new YamlDoc(doc, this),
      errors: doc.errors.map((e) => e.message.split('\n')[0] ?? e.message),
    }));
  }

  /** Draws on the walk budget; throws {@link YamlBudgetError} when it is exhausted. */
  spend(steps: number): void {
    this.steps -= steps;
    if (this.steps < 0) throw new YamlBudgetError('YAML alias expansion exceeds the budget (alias bomb?)');
  }

  line(offset: number): number {
    return this.counter.linePos(offset).line;
  }

  lastLineBefore(start: number, end: number): number {
    let offset = end;
    while (offset > start && /\s/.test(this.source[offset - 1] ?? '')) offset -= 1;
    return this.line(Math.max(start, offset - 1));
  }

  /** The first error of the first document that has one, for a failure reason. */
  firstError(): string | undefined {
    for (const { errors } of this.documents) if (errors[0] !== undefined) return errors[0];
    return undefined;
  }
}
