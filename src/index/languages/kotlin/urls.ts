/**
 * Kotlin URL expressions read as URL parts (see `urlTarget`): string templates (`"$billingUrl/x/{id}"`,
 * `"${props.url}/x"`), `+` concatenation, constants, locals and properties followed to their one value,
 * `@Value` placeholders (also written `"${'$'}{…}"`), `System.getenv("X")` (also in front of `?:`),
 * `URI.create(…)` and `URI(…)`.
 */
import type { Node } from 'web-tree-sitter';
import { lastSegment, unescapeJvm } from '../shared/jvm/common.js';
import { paramName, type UrlPart, variableUrl } from '../shared/jvm/http.js';
import {
  callOf,
  findField,
  type KtConstant,
  type KtFile,
  type KtScope,
  type KtVar,
  namedChildren,
  varOf,
} from './model.js';
import { KtResolver, ktString } from './values.js';

/** `$name` inside literal text: the grammar makes a node only of `${…}`, not of this short form. */
const SHORT_TEMPLATE = /\$([A-Za-z_]\w*)/g;

export class KtUrlReader {
  constructor(private readonly file: KtFile) {}

  /** The parts of a URL expression; what cannot be read stands as one `{param}` named after it. */
  parts(node: Node, scope: KtScope, depth = 0): UrlPart[] {
    const read = depth > 6 ? undefined : this.read(node, scope, depth);
    return read ?? [{ kind: 'param', name: paramName(node.text) }];
  }

  private read(node: Node, scope: KtScope, depth: number): UrlPart[] | undefined {
    switch (node.type) {
      case 'string_literal':
      case 'multiline_string_literal':
        return this.template(node, scope, depth);
      case 'identifier':
      case 'navigation_expression': {
        const resolver = new KtResolver(this.file, scope.cls);
        return this.reference(varOf(node, scope), () => resolver.constant(node), scope, depth);
      }
      case 'parenthesized_expression': {
        const inner = namedChildren(node)[0];
        return inner === undefined ? undefined : this.parts(inner, scope, depth + 1);
      }
      case 'binary_expression': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        const operator = node.childForFieldName('operator')?.text;
        if (left === null || right === null) return undefined;
        // `System.getenv("BILLING_URL") ?: "http://localhost:8080"`: the literal is only a local default.
        if (operator === '?:') return this.parts(left, scope, depth + 1);
        if (operator !== '+') return undefined;
        return [...this.parts(left, scope, depth + 1), ...this.parts(right, scope, depth + 1)];
      }
      case 'call_expression':
        return this.call(node, scope, depth);
      case 'character_literal':
        // `"${'$'}{billing.url}/x"`: the Kotlin way of writing a Spring placeholder into a template.
        return [{ kind: 'text', text: unescapeJvm(node.text.slice(1, -1)) }];
      default:
        return undefined;
    }
  }

  /** Literal runs, `$name` and `${expression}` pieces in source order; empty runs are left out. */
  private template(node: Node, scope: KtScope, depth: number): UrlPart[] {
    const raw = node.type === 'multiline_string_literal';
    const out: UrlPart[] = [];
    const text = (value: string): void => {
      if (value !== '') out.push({ kind: 'text', text: value });
    };
    // The grammar splits literal text at `$`, so the pieces are joined before `$name` is looked for.
    let run = '';
    const flush = (): void => {
      let last = 0;
      for (const match of run.matchAll(SHORT_TEMPLATE)) {
        text(run.slice(last, match.index));
        out.push(...this.named(match[1] ?? '', scope, depth));
        last = match.index + match[0].length;
      }
      text(run.slice(last));
      run = '';
    };
    for (const child of node.children) {
      if (child === null) continue;
      if (child.type === 'string_content') {
        run += child.text;
        continue;
      }
      flush();
      if (child.type === 'escape_sequence') text(raw ? child.text : unescapeJvm(child.text));
      if (child.type === 'interpolation') {
        const inner = namedChildren(child)[0];
        if (inner !== undefined) out.push(...this.parts(inner, scope, depth + 1));
      }
    }
    flush();
    return out;
  }

  private named(name: string, scope: KtScope, depth: number): UrlPart[] {
    const variable = scope.vars.get(name) ?? findField(name, scope.cls);
    const constant = (): KtConstant | undefined => new KtResolver(this.file, scope.cls).constantNamed(name);
    return this.reference(variable, constant, scope, depth) ?? [{ kind: 'param', name: paramName(name) }];
  }

  /**
   * What a name reads: a local or property shadows a constant of the same name, as in Kotlin; a constant is
   * read in the class that declares it.
   */
  private reference(
    variable: KtVar | undefined,
    constant: () => KtConstant | undefined,
    scope: KtScope,
    depth: number,
  ): UrlPart[] | undefined {
    if (variable !== undefined) {
      const resolver = new KtResolver(this.file, scope.cls);
      return variableUrl(
        variable,
        scope,
        (key) => resolver.string(key),
        (value, valueScope) => this.parts(value, valueScope, depth + 1),
      );
    }
    const found = constant();
    if (found === undefined) return undefined;
    return this.parts(found.node, { cls: found.cls, symbol: undefined, vars: new Map() }, depth + 1);
  }

  /** `System.getenv("X")` is the base `env:X`; `URI.create(x)`, `URI(x)` and `x.toString()` are `x`. */
  private call(node: Node, scope: KtScope, depth: number): UrlPart[] | undefined {
    const call = callOf(node);
    if (call === undefined) return undefined;
    const owner =
      call.receiver === undefined ? undefined : lastSegment(call.receiver.text.replace(/\s+/g, ''));
    const first = call.args[0]?.value;
    if (call.name === 'getenv' && owner === 'System') {
      const name = first === undefined ? undefined : ktString(first);
      return name === undefined ? undefined : [{ kind: 'base', base: `env:${name}` }];
    }
    if (first !== undefined && (call.name === 'URI' || (call.name === 'create' && owner === 'URI')))
      return this.parts(first, scope, depth + 1);
    if (call.name === 'toString' && call.receiver !== undefined)
      return this.parts(call.receiver, scope, depth + 1);
    return undefined;
  }
}
