/**
 * Java URL expressions read as URL parts (see `urlTarget`), with every value they may take: literals and
 * constants, locals and fields followed to their values (one alternative per branch that assigns them),
 * `@Value` placeholders, `+`, `?:`, `String.format` / `"…".formatted(…)`, `UriComponentsBuilder` and JAX-RS
 * `UriBuilder` chains, `System.getenv("X")` (`env:X`), `environment.getProperty("k")` (`${k}`), and what a
 * helper of the same class returns for literal arguments (`serviceUrl("orders") + "/x"`).
 */
import type { Node } from 'web-tree-sitter';
import {
  argumentsOf,
  type JavaFile,
  type JavaMethod,
  JavaResolver,
  type JavaScope,
  type JavaVar,
  javaString,
  varOf,
} from './model.js';
import { lastSegment } from '../shared/jvm/common.js';
import {
  concatAlternatives,
  paramName,
  type UrlAlternatives,
  type UrlPart,
  unionAlternatives,
  variableUrl,
} from '../shared/jvm/http.js';

const MAX_DEPTH = 8;
/** `%s`, `%d`, `%1$s`…: the conversions of a format string (`%%` and `%n` are text). */
const FORMAT_SPEC = /%(?:\d+\$)?[-#+ 0,(<]*\d*(?:\.\d+)?([a-zA-Z%])/g;
/** Calls of a URI builder that start it from a URL or a path. */
const URI_BUILDER_STARTS: ReadonlySet<string> = new Set([
  'fromHttpUrl',
  'fromUriString',
  'fromUri',
  'fromPath',
]);
/** Calls of a URI builder that leave the path as it is. */
const URI_BUILDER_KEEPS: ReadonlySet<string> = new Set([
  'queryParam',
  'queryParams',
  'queryParamIfPresent',
  'replaceQueryParam',
  'encode',
  'build',
  'buildAndExpand',
  'toUriString',
  'toUri',
  'fragment',
  'uriVariables',
]);
/** Receiver types whose `getProperty("k")` reads Spring configuration. */
const PROPERTY_SOURCES: ReadonlySet<string> = new Set([
  'Environment',
  'ConfigurableEnvironment',
  'PropertyResolver',
  'StandardEnvironment',
]);

const text = (value: string): UrlPart[] => [{ kind: 'text', text: value }];

export class JavaUrlReader {
  constructor(private readonly file: JavaFile) {}

  /** Every value a URL expression may take; what cannot be read stands as one `{name}`. */
  alternatives(node: Node, scope: JavaScope, depth = 0): UrlAlternatives {
    const read = depth > MAX_DEPTH ? undefined : this.read(node, scope, depth);
    return read ?? [[{ kind: 'param', name: paramName(node.text) }]];
  }

  private read(node: Node, scope: JavaScope, depth: number): UrlAlternatives | undefined {
    switch (node.type) {
      case 'string_literal':
        return [text(javaString(node))];
      case 'decimal_integer_literal':
        return [text(node.text.replace(/[_lL]/g, ''))];
      case 'identifier':
      case 'field_access':
        return this.reference(node, scope, depth);
      case 'parenthesized_expression':
      case 'cast_expression': {
        const inner =
          node.type === 'cast_expression' ? node.childForFieldName('value') : node.namedChildren[0];
        return inner ? this.alternatives(inner, scope, depth + 1) : undefined;
      }
      case 'binary_expression': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        if (node.childForFieldName('operator')?.text !== '+' || left === null || right === null)
          return undefined;
        return concatAlternatives([
          this.alternatives(left, scope, depth + 1),
          this.alternatives(right, scope, depth + 1),
        ]);
      }
      case 'ternary_expression': {
        const branches = [node.childForFieldName('consequence'), node.childForFieldName('alternative')];
        if (branches.some((branch) => branch === null)) return undefined;
        return unionAlternatives(
          branches.map((branch) => this.alternatives(branch as Node, scope, depth + 1)),
        );
      }
      case 'object_creation_expression': {
        const first = argumentsOf(node)[0];
        const type = lastSegment(node.childForFieldName('type')?.text ?? '');
        return (type === 'URI' || type === 'URL') && first
          ? this.alternatives(first, scope, depth + 1)
          : undefined;
      }
      case 'method_invocation':
        return this.call(node, scope, depth);
      default:
        return undefined;
    }
  }

  /** A constant (also of another class of the file), a local, a field, a parameter given by the caller. */
  private reference(node: Node, scope: JavaScope, depth: number): UrlAlternatives | undefined {
    const constant = new JavaResolver(this.file, scope.cls).string(node);
    if (constant !== undefined) return [text(constant)];
    const variable = varOf(node, scope);
    if (variable === undefined) return undefined;
    const values = variableUrl(
      variable,
      scope,
      (key) => (key.type === 'string_literal' ? javaString(key) : undefined),
      (value, valueScope) => this.alternatives(value, valueScope, depth + 1),
    );
    // A variable holding an unknown value is a parameter named after the variable, not after its value.
    return values === undefined || values.every(isUnknown) ? undefined : values;
  }

  private call(node: Node, scope: JavaScope, depth: number): UrlAlternatives | undefined {
    const name = node.childForFieldName('name')?.text ?? '';
    const object = node.childForFieldName('object');
    const owner = lastSegment(object?.text ?? '');
    const args = argumentsOf(node);
    const first = args[0];
    if (name === 'getenv' && owner === 'System' && first?.type === 'string_literal')
      return [[{ kind: 'base', base: `env:${javaString(first)}` }]];
    if (
      name === 'getProperty' &&
      object !== null &&
      first !== undefined &&
      this.isPropertySource(object, scope)
    )
      return this.property(first, args[1], scope);
    if (name === 'create' && owner === 'URI' && first) return this.alternatives(first, scope, depth + 1);
    if (name === 'valueOf' && owner === 'String' && first) return this.alternatives(first, scope, depth + 1);
    if ((name === 'toString' || name === 'toURI') && object !== null && args.length === 0)
      return this.alternatives(object, scope, depth + 1);
    if (name === 'format' && owner === 'String' && first)
      return this.format(first, args.slice(1), scope, depth);
    if (name === 'formatted' && object !== null) return this.format(object, args, scope, depth);
    if (name === 'concat' && object !== null && first)
      return concatAlternatives([
        this.alternatives(object, scope, depth + 1),
        this.alternatives(first, scope, depth + 1),
      ]);
    const builder = this.uriBuilder(node, scope, depth);
    if (builder !== undefined) return builder;
    if (object === null || object.type === 'this') return this.helper(name, args, scope, depth);
    return undefined;
  }

  /** `env.getProperty("k")` → `${k}`, with a literal default → `${k:default}`. */
  private property(key: Node, fallback: Node | undefined, scope: JavaScope): UrlAlternatives | undefined {
    const resolver = new JavaResolver(this.file, scope.cls);
    const name = resolver.string(key);
    if (name === undefined) return undefined;
    const value = fallback === undefined ? undefined : resolver.string(fallback);
    return [text(value === undefined ? `\${${name}}` : `\${${name}:${value}}`)];
  }

  private isPropertySource(object: Node, scope: JavaScope): boolean {
    const type = varOf(object, scope)?.type;
    if (type !== undefined) return PROPERTY_SOURCES.has(lastSegment(type));
    return /^(?:env|environment)$/i.test(lastSegment(object.text));
  }

  /** `String.format("%s/orders/%d", base, id)`: the format's text with each conversion replaced by its argument. */
  private format(
    pattern: Node,
    args: readonly Node[],
    scope: JavaScope,
    depth: number,
  ): UrlAlternatives | undefined {
    const patterns = this.alternatives(pattern, scope, depth + 1);
    const out: UrlAlternatives[] = [];
    for (const parts of patterns) {
      if (parts.length !== 1 || parts[0]?.kind !== 'text') return undefined;
      const pieces: UrlAlternatives[] = [];
      let last = 0;
      let next = 0;
      for (const match of parts[0].text.matchAll(FORMAT_SPEC)) {
        pieces.push([text(parts[0].text.slice(last, match.index))]);
        last = match.index + match[0].length;
        if (match[1] === '%' || match[1] === 'n') {
          pieces.push([text(match[1] === '%' ? '%' : '\n')]);
          continue;
        }
        const arg = args[next++];
        pieces.push(
          arg === undefined ? [[{ kind: 'param', name: '' }]] : this.alternatives(arg, scope, depth + 1),
        );
      }
      pieces.push([text(parts[0].text.slice(last))]);
      const joined = concatAlternatives(pieces);
      if (joined === undefined) return undefined;
      out.push(joined);
    }
    return unionAlternatives(out);
  }

  /**
   * `UriComponentsBuilder.fromHttpUrl(base).path("/x").pathSegment(id).toUriString()` (also JAX-RS
   * `UriBuilder.fromUri(base).path("x")`): the start's URL followed by the path calls, query calls ignored.
   */
  private uriBuilder(node: Node, scope: JavaScope, depth: number): UrlAlternatives | undefined {
    const steps: Node[] = [];
    let current: Node | null = node;
    while (current?.type === 'method_invocation') {
      const name = current.childForFieldName('name')?.text ?? '';
      if (URI_BUILDER_STARTS.has(name)) break;
      if (!URI_BUILDER_KEEPS.has(name) && name !== 'path' && name !== 'pathSegment') return undefined;
      steps.unshift(current);
      current = current.childForFieldName('object');
    }
    const start = current?.type === 'method_invocation' ? argumentsOf(current)[0] : undefined;
    if (current === null || start === undefined) return undefined;
    const pieces: UrlAlternatives[] = [this.alternatives(start, scope, depth + 1)];
    for (const step of steps) {
      const name = step.childForFieldName('name')?.text;
      if (name !== 'path' && name !== 'pathSegment') continue;
      const segments = name === 'path' ? argumentsOf(step).slice(0, 1) : argumentsOf(step);
      for (const segment of segments) {
        if (name === 'pathSegment') pieces.push([text('/')]);
        pieces.push(this.alternatives(segment, scope, depth + 1));
      }
    }
    return concatAlternatives(pieces);
  }

  /**
   * What a method of the class returns, its parameters bound to the call's arguments: a service-URL helper
   * (`return "http://" + name + ":8080";`) called with a literal. Every `return` is one alternative.
   */
  private helper(
    name: string,
    args: readonly Node[],
    scope: JavaScope,
    depth: number,
  ): UrlAlternatives | undefined {
    const method = findMethod(name, args.length, scope);
    if (method?.body === undefined) return undefined;
    const vars = new Map<string, JavaVar>(method.scope.vars);
    method.params.forEach((param, index) => {
      const declared = method.scope.vars.get(param);
      const arg = args[index];
      if (declared === undefined || arg === undefined) return;
      vars.set(param, { ...declared, isParam: false, assigned: [{ node: arg, scope }] });
    });
    const inner: JavaScope = { ...method.scope, vars };
    const returns = ownReturns(method.body).flatMap((statement) => {
      const value = statement.namedChildren.find(
        (child) => child !== null && !child.type.endsWith('comment'),
      );
      return value ? [this.alternatives(value, inner, depth + 1)] : [];
    });
    const values = returns.length === 0 ? undefined : unionAlternatives(returns);
    return values === undefined || values.every(isUnknown) ? undefined : values;
  }
}

const isUnknown = (parts: readonly UrlPart[]): boolean => parts.length === 1 && parts[0]?.kind === 'param';

function findMethod(name: string, arity: number, scope: JavaScope): JavaMethod | undefined {
  for (let cls: JavaScope['cls'] | undefined = scope.cls; cls !== undefined; cls = cls.outer) {
    const found = cls.methods.filter((method) => method.name === name && method.params.length === arity);
    if (found.length === 1) return found[0];
    if (found.length > 1) return undefined;
  }
  return undefined;
}

/** The `return` statements of a body, not those of the lambdas and classes inside it. */
function ownReturns(body: Node): Node[] {
  return body.descendantsOfType('return_statement').filter((statement): statement is Node => {
    for (let node = statement?.parent ?? null; node !== null && node.id !== body.id; node = node.parent) {
      if (node.type === 'lambda_expression' || node.type === 'class_body') return false;
    }
    return statement !== null;
  });
}
