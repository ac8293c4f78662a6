/**
 * Constant values of a Kotlin file: string literals (without templates), concatenations, `const val`s and
 * object/top-level `val`s, collection factories and enum entries, resolved from inside a class.
 */
import type { Node } from 'web-tree-sitter';
import { lastSegment, unescapeJvm } from '../shared/jvm/common.js';
import type { ValueResolver } from '../shared/jvm/annotations.js';
import { callOf, type KtClass, type KtConstant, type KtFile, namedChildren } from './model.js';

/** A string literal's value; undefined when it interpolates (`"$id"`, `"${x}"`). `"\${a.b}"` is the text `${a.b}`. */
export function ktString(node: Node): string | undefined {
  if (node.type !== 'string_literal' && node.type !== 'multiline_string_literal') return undefined;
  const raw = node.type === 'multiline_string_literal';
  let out = '';
  let run = '';
  for (const child of node.children) {
    if (child === null) continue;
    if (child.type === 'string_content') {
      run += child.text;
      continue;
    }
    if (/\$[A-Za-z_`{]/.test(run)) return undefined;
    out += run;
    run = '';
    if (child.type === 'interpolation') return undefined;
    if (child.type === 'escape_sequence') out += raw ? child.text : unescapeJvm(child.text);
  }
  if (/\$[A-Za-z_`{]/.test(run)) return undefined;
  return out + run;
}

export const COLLECTION_FACTORIES: ReadonlySet<string> = new Set([
  'arrayOf',
  'listOf',
  'setOf',
  'mutableListOf',
  'mutableSetOf',
  'arrayListOf',
  'hashSetOf',
  'of',
  'asList',
  'singletonList',
  'singleton',
]);

/** Resolves annotation and argument values against the file's constants, from inside `cls`. */
export class KtResolver implements ValueResolver {
  constructor(
    private readonly file: KtFile,
    private readonly cls: KtClass | undefined,
    private readonly depth = 0,
    /** Shared with the resolvers of constants reached from this one. */
    private readonly used: { inferred: boolean } = { inferred: false },
  ) {}

  /** Whether a value resolved so far was a default behind an environment override (`getenv(…) ?: "x"`). */
  get inferred(): boolean {
    return this.used.inferred;
  }

  strings(node: Node): readonly string[] | undefined {
    if (node.type === 'collection_literal') return this.all(namedChildren(node));
    if (node.type === 'call_expression') {
      const call = callOf(node);
      if (call === undefined || !COLLECTION_FACTORIES.has(call.name)) return undefined;
      return this.all(call.args.map((arg) => arg.value));
    }
    if (node.type === 'identifier' || node.type === 'navigation_expression') {
      const constant = this.constant(node);
      if (
        constant !== undefined &&
        (constant.node.type === 'collection_literal' || constant.node.type === 'call_expression')
      ) {
        return this.inside(constant)?.strings(constant.node);
      }
    }
    const one = this.string(node);
    return one === undefined ? undefined : [one];
  }

  private all(nodes: readonly Node[]): readonly string[] | undefined {
    const out: string[] = [];
    for (const node of nodes) {
      const values = this.strings(node);
      if (values === undefined) return undefined;
      out.push(...values);
    }
    return out;
  }

  string(node: Node): string | undefined {
    switch (node.type) {
      case 'string_literal':
      case 'multiline_string_literal':
        return ktString(node);
      case 'parenthesized_expression': {
        const inner = namedChildren(node)[0];
        return inner === undefined ? undefined : this.string(inner);
      }
      case 'binary_expression': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        const operator = node.childForFieldName('operator')?.text;
        if (operator === '?:' && left !== null && right !== null && isEnvLookup(left)) {
          // `System.getenv("KAFKA_TOPIC") ?: "orders"`: the literal is the default, the environment may differ.
          const fallback = this.string(right);
          if (fallback !== undefined) this.used.inferred = true;
          return fallback;
        }
        if (operator !== '+' || left === null || right === null) return undefined;
        const a = this.string(left);
        const b = a === undefined ? undefined : this.string(right);
        return a === undefined || b === undefined ? undefined : a + b;
      }
      case 'identifier':
      case 'navigation_expression': {
        const text = node.text.replace(/\s+/g, '');
        const member =
          this.file.enumMembers.get(text) ?? this.file.enumMembers.get(text.split('.').slice(-2).join('.'));
        if (node.type === 'navigation_expression' && member !== undefined) return member;
        const constant = this.constant(node);
        return constant === undefined ? undefined : this.inside(constant)?.string(constant.node);
      }
      default:
        return undefined;
    }
  }

  names(node: Node): readonly string[] {
    if (node.type === 'collection_literal') return namedChildren(node).flatMap((child) => this.names(child));
    const call = node.type === 'call_expression' ? callOf(node) : undefined;
    if (call !== undefined && COLLECTION_FACTORIES.has(call.name))
      return call.args.flatMap((arg) => this.names(arg.value));
    return [lastSegment(node.text.replace(/\s+/g, ''))];
  }

  /**
   * A constant named by `NAME`, `Owner.NAME` or `Owner.Companion.NAME`: the enclosing classes (and their
   * companions) win over a homonym elsewhere; a name declared in several unrelated places resolves to nothing.
   */
  constant(node: Node): KtConstant | undefined {
    const text = node.text.replace(/\s+/g, '').replace(/\.Companion\./, '.');
    if (node.type !== 'navigation_expression') return this.constantNamed(text);
    const owner = lastSegment(text.slice(0, text.lastIndexOf('.')));
    return this.file.constants
      .get(lastSegment(text))
      ?.find(
        (c) =>
          c.cls !== undefined &&
          (c.cls.name === owner || (c.cls.kind === 'companion' && c.cls.outer?.name === owner)),
      );
  }

  /** The constant a bare name reads (an identifier, or `$NAME` in a string template, which has no node). */
  constantNamed(name: string): KtConstant | undefined {
    const candidates = this.file.constants.get(name);
    if (candidates === undefined) return undefined;
    for (let cls = this.cls; cls !== undefined; cls = cls.outer) {
      const own = candidates.find(
        (c) => c.cls === cls || (c.cls?.kind === 'companion' && c.cls.outer === cls),
      );
      if (own !== undefined) return own;
    }
    const topLevel = candidates.filter((c) => c.cls === undefined);
    if (topLevel.length === 1) return topLevel[0];
    return candidates.length === 1 ? candidates[0] : undefined;
  }

  private inside(constant: KtConstant): KtResolver | undefined {
    return this.depth >= 8 ? undefined : new KtResolver(this.file, constant.cls, this.depth + 1, this.used);
  }
}

/** `System.getenv("X")` or `System.getProperty("x")`, possibly parenthesised. */
function isEnvLookup(node: Node): boolean {
  const inner = node.type === 'parenthesized_expression' ? namedChildren(node)[0] : node;
  const call = inner?.type === 'call_expression' ? callOf(inner) : undefined;
  return (
    call !== undefined &&
    (call.name === 'getenv' || call.name === 'getProperty') &&
    call.receiver?.text.replace(/\s+/g, '').replace(/^java\.lang\./, '') === 'System'
  );
}
