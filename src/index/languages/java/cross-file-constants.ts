/**
 * Java string constants that cross files. A file cannot see a constant another file declares, so each
 * `static final String` field another file can reach (not `private`) whose value the file resolves (a
 * literal, or a concatenation of literals and constants it sees) is exported as a property keyed
 * `jv:<package>.<classes>.<NAME>`. A topic destination naming a constant the file does not declare becomes
 * a `${jv:…}` placeholder the graph resolves against those properties (`graph/java-constants.ts`):
 * `Holder.NAME` as written, a statically imported `NAME` with its class (`a.b.Holder.NAME`).
 */
import type { Node } from 'web-tree-sitter';
import type { PropertyFact } from '../../facts.js';
import type { ValueResolver } from '../shared/jvm/annotations.js';
import { findField, findVar, type JavaClass, type JavaFile, JavaResolver, type JavaScope } from './model.js';

/** Properties are shown like configuration: names that usually hold credentials stay out. */
const SECRET_NAME = /passw|secret|token|credential|api_?key|private_?key|auth/i;
const MAX_VALUE = 256;
const STRING_TYPES: ReadonlySet<string> = new Set(['String', 'java.lang.String']);

/** The `jv:` properties of the file's reachable string constants. */
export function constantProperties(file: JavaFile, packageName: string | undefined): PropertyFact[] {
  const out: PropertyFact[] = [];
  for (const list of file.constants.values()) {
    for (const constant of list) {
      const { field } = constant;
      if (!constant.reachable || !STRING_TYPES.has(field.type ?? '') || SECRET_NAME.test(field.name))
        continue;
      const value = new JavaResolver(file, constant.cls).string(constant.node);
      if (value === undefined || value.length > MAX_VALUE) continue;
      const owner =
        packageName === undefined ? constant.cls.qualified : `${packageName}.${constant.cls.qualified}`;
      out.push({ key: `jv:${owner}.${field.name}`, value, line: field.line });
    }
  }
  return out.sort((a, b) => a.line - b.line);
}

const CLASS_NAME = /^[A-Z]/;

/**
 * The `${jv:…}` placeholder for a constant `node` names that this file does not declare, or undefined:
 * `NAME` statically imported (by name, or by the one `import static …*` of the file), `Holder.NAME` or
 * `a.b.Holder.NAME` on a class the file neither declares nor holds in a variable of that name.
 */
export function foreignConstant(
  file: JavaFile,
  node: Node,
  isVariable: (name: string) => boolean,
): string | undefined {
  if (node.type === 'identifier') {
    if (isVariable(node.text)) return undefined;
    if (file.constants.has(node.text)) return undefined;
    const holder = file.staticImports.get(node.text);
    if (holder !== undefined) return `\${jv:${holder}.${node.text}}`;
    const [only, ...more] = file.staticWildcards;
    if (only === undefined) return undefined;
    return more.length === 0 ? `\${jv:${only}.${node.text}}` : `\${jv:${node.text}}`;
  }
  if (node.type !== 'field_access') return undefined;
  const path = node.text.replace(/\s+/g, '');
  if (!/^[\w$]+(?:\.[\w$]+)+$/.test(path)) return undefined;
  const segments = path.split('.');
  const owner = segments[segments.length - 2] ?? '';
  const first = segments[0] ?? '';
  if (!CLASS_NAME.test(owner) || file.classes.some((cls) => cls.name === owner)) return undefined;
  return isVariable(first) ? undefined : `\${jv:${path}}`;
}

/** `name` is a variable `scope` sees (a local, a parameter, a field of an enclosing class). */
export const variableIn =
  (scope: JavaScope) =>
  (name: string): boolean =>
    findVar(name, scope) !== undefined;

/** The resolver for destinations written in a body: its locals and parameters are variables too. */
export const topicValuesIn = (file: JavaFile, scope: JavaScope): TopicValueResolver =>
  new TopicValueResolver(file, scope.cls, variableIn(scope));

/** A destination that names another file's constant is a placeholder: `heuristic`, never `exact`. */
export const isForeignConstant = (topic: string): boolean => topic.startsWith('${jv:');

/**
 * The file's resolver for topic destinations in annotations: what the file resolves itself, else a constant
 * of another file as its `${jv:…}` placeholder (each element of an array alike).
 */
export class TopicValueResolver implements ValueResolver {
  private readonly own: JavaResolver;

  constructor(
    private readonly file: JavaFile,
    cls: JavaClass | undefined,
    /** Names the code holds in variables; by default the fields of `cls` and its outer classes. */
    private readonly isVariable: (name: string) => boolean = (name) => findField(name, cls) !== undefined,
  ) {
    this.own = new JavaResolver(file, cls);
  }

  /** One destination: what the file resolves itself, else another file's constant as a placeholder. */
  string(node: Node): string | undefined {
    return this.own.string(node) ?? foreignConstant(this.file, node, this.isVariable);
  }

  strings(node: Node): readonly string[] | undefined {
    const own = this.own.strings(node);
    if (own !== undefined) return own;
    if (node.type === 'element_value_array_initializer' || node.type === 'array_initializer') {
      const out: string[] = [];
      for (const child of node.namedChildren) {
        if (child === null || child.type.endsWith('comment')) continue;
        const values = this.strings(child);
        if (values === undefined) return undefined;
        out.push(...values);
      }
      return out;
    }
    const foreign = foreignConstant(this.file, node, this.isVariable);
    return foreign === undefined ? undefined : [foreign];
  }

  names(node: Node): readonly string[] {
    return this.own.names(node);
  }
}
