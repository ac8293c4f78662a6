/**
 * Kotlin URL expressions read as URL parts (see `urlTarget`): string templates (`"$billingUrl/x/{id}"`,
 * `"${props.url}/x"`), `+` concatenation, constants, locals and properties followed to their one value,
 * `@Value` placeholders (also written `"${'$'}{…}"`), `System.getenv("X")` (also in front of `?:`),
 * `URI.create(…)` and `URI(…)`.
 */
import type { Node } from 'web-tree-sitter';
import { lastSegment, unescapeJvm } from '../shared/jvm/common.js';
import {
  concatAlternatives,
  paramName,
  type UrlAlternatives,
  type UrlPart,
  unionAlternatives,
  variableUrl,
} from '../shared/jvm/http.js';
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

  /** The parts of a URL expression (its first value); what cannot be read stands as one `{name}`. */
  parts(node: Node, scope: KtScope, depth = 0): UrlPart[] {
    return [...(this.alternatives(node, scope, depth)[0] ?? [])];
  }

  /** Every value a URL expression may take (one per branch of an `if` or `when` assigning it). */
  alternatives(node: Node, scope: KtScope, depth = 0): UrlAlternatives {
    const read = depth > 8 ? undefined : this.read(node, scope, depth);
    return read ?? [[{ kind: 'param', name: paramName(node.text) }]];
  }

  private read(node: Node, scope: KtScope, depth: number): UrlAlternatives | undefined {
    switch (node.type) {
      case 'string_literal':
      case 'multiline_string_literal':
        return this.template(node, scope, depth);
      case 'if_expression':
      case 'when_expression': {
        // The value of each branch: the last expression of its block.
        const values = branchValues(node);
        if (values.length < 2) return undefined;
        return unionAlternatives(values.map((value) => this.alternatives(value, scope, depth + 1)));
      }
      case 'identifier':
      case 'navigation_expression': {
        const resolver = new KtResolver(this.file, scope.cls);
        return this.reference(varOf(node, scope), () => resolver.constant(node), scope, depth);
      }
      case 'parenthesized_expression': {
        const inner = namedChildren(node)[0];
        return inner === undefined ? undefined : this.alternatives(inner, scope, depth + 1);
      }
      case 'binary_expression': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        const operator = node.childForFieldName('operator')?.text;
        if (left === null || right === null) return undefined;
        // `System.getenv("BILLING_URL") ?: "http://localhost:8080"`: the literal is only a local default.
        if (operator === '?:') return this.alternatives(left, scope, depth + 1);
        if (operator !== '+') return undefined;
        return concatAlternatives([
          this.alternatives(left, scope, depth + 1),
          this.alternatives(right, scope, depth + 1),
        ]);
      }
      case 'call_expression':
        return this.call(node, scope, depth);
      case 'character_literal':
        // `"${'$'}{billing.url}/x"`: the Kotlin way of writing a Spring placeholder into a template.
        return [[{ kind: 'text', text: unescapeJvm(node.text.slice(1, -1)) }]];
      default:
        return undefined;
    }
  }

  /** Literal runs, `$name` and `${expression}` pieces in source order; empty runs are left out. */
  private template(node: Node, scope: KtScope, depth: number): UrlAlternatives | undefined {
    const raw = node.type === 'multiline_string_literal';
    const out: UrlAlternatives[] = [];
    const text = (value: string): void => {
      if (value !== '') out.push([[{ kind: 'text', text: value }]]);
    };
    // The grammar splits literal text at `$`, so the pieces are joined before `$name` is looked for.
    let run = '';
    const flush = (): void => {
      let last = 0;
      for (const match of run.matchAll(SHORT_TEMPLATE)) {
        text(run.slice(last, match.index));
        out.push(this.named(match[1] ?? '', scope, depth));
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
        if (inner !== undefined) out.push(this.alternatives(inner, scope, depth + 1));
      }
    }
    flush();
    return concatAlternatives(out);
  }

  private named(name: string, scope: KtScope, depth: number): UrlAlternatives {
    const variable = scope.vars.get(name) ?? findField(name, scope.cls);
    const constant = (): KtConstant | undefined => new KtResolver(this.file, scope.cls).constantNamed(name);
    return this.reference(variable, constant, scope, depth) ?? [[{ kind: 'param', name: paramName(name) }]];
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
  ): UrlAlternatives | undefined {
    if (variable !== undefined) {
      const resolver = new KtResolver(this.file, scope.cls);
      return variableUrl(
        variable,
        scope,
        (key) => resolver.string(key),
        (value, valueScope) => this.alternatives(value, valueScope, depth + 1),
      );
    }
    const found = constant();
    if (found === undefined) return undefined;
    return this.alternatives(found.node, { cls: found.cls, symbol: undefined, vars: new Map() }, depth + 1);
  }

  /**
   * `System.getenv("X")` is the base `env:X`, `environment.getProperty("k")` the placeholder `${k}`;
   * `URI.create(x)`, `URI(x)` and `x.toString()` are `x`; `String.format(f, …)` / `f.format(…)` the format
   * with its arguments in place.
   */
  private call(node: Node, scope: KtScope, depth: number): UrlAlternatives | undefined {
    const call = callOf(node);
    if (call === undefined) return undefined;
    const owner =
      call.receiver === undefined ? undefined : lastSegment(call.receiver.text.replace(/\s+/g, ''));
    const first = call.args[0]?.value;
    if (call.name === 'getenv' && owner === 'System') {
      const name = first === undefined ? undefined : ktString(first);
      return name === undefined ? undefined : [[{ kind: 'base', base: `env:${name}` }]];
    }
    if (call.name === 'getProperty' && owner !== undefined && /^(?:env|environment)$/i.test(owner)) {
      const key = first === undefined ? undefined : ktString(first);
      const fallback = call.args[1] === undefined ? undefined : ktString(call.args[1].value);
      if (key === undefined) return undefined;
      return [[{ kind: 'text', text: fallback === undefined ? `\${${key}}` : `\${${key}:${fallback}}` }]];
    }
    if (first !== undefined && (call.name === 'URI' || (call.name === 'create' && owner === 'URI')))
      return this.alternatives(first, scope, depth + 1);
    if (call.name === 'toString' && call.receiver !== undefined)
      return this.alternatives(call.receiver, scope, depth + 1);
    if (call.name === 'format' && first !== undefined && owner === 'String')
      return this.format(
        first,
        call.args.slice(1).map((arg) => arg.value),
        scope,
        depth,
      );
    if (call.name === 'format' && call.receiver !== undefined && owner !== 'String')
      return this.format(
        call.receiver,
        call.args.map((arg) => arg.value),
        scope,
        depth,
      );
    return undefined;
  }

  /** `"%s/orders/%d".format(base, id)`: the format's text with each conversion replaced by its argument. */
  private format(
    pattern: Node,
    args: readonly Node[],
    scope: KtScope,
    depth: number,
  ): UrlAlternatives | undefined {
    const value = this.alternatives(pattern, scope, depth + 1);
    const only = value.length === 1 ? value[0] : undefined;
    const first = only?.[0];
    if (only?.length !== 1 || first?.kind !== 'text') return undefined;
    const pieces: UrlAlternatives[] = [];
    let last = 0;
    let next = 0;
    for (const match of first.text.matchAll(/%(?:\d+\$)?[-#+ 0,(]*\d*(?:\.\d+)?([a-zA-Z%])/g)) {
      pieces.push([[{ kind: 'text', text: first.text.slice(last, match.index) }]]);
      last = match.index + match[0].length;
      const arg = match[1] === '%' || match[1] === 'n' ? undefined : args[next++];
      pieces.push(
        arg === undefined ? [[{ kind: 'text', text: '' }]] : this.alternatives(arg, scope, depth + 1),
      );
    }
    pieces.push([[{ kind: 'text', text: first.text.slice(last) }]]);
    return concatAlternatives(pieces);
  }
}

/** The value of each branch of an `if` / `when` expression: the last statement of its block, or itself. */
function branchValues(node: Node): Node[] {
  const branches =
    node.type === 'if_expression'
      ? namedChildren(node).slice(1)
      : namedChildren(node)
          .filter((child) => child.type === 'when_entry')
          .map((entry) => namedChildren(entry).at(-1))
          .filter((value): value is Node => value !== undefined);
  return branches.map((branch) => {
    const block = branch.type === 'control_structure_body' ? namedChildren(branch) : [branch];
    const inner = block.length === 1 && block[0]?.type === 'statements' ? namedChildren(block[0]) : block;
    const last = inner.at(-1) ?? branch;
    return last.type === 'statements' ? (namedChildren(last).at(-1) ?? last) : last;
  });
}
