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
import {
  constantKey,
  DestinationResolver,
  exportable,
  foreignPlaceholder,
  isForeignConstant,
} from '../shared/jvm/foreign-constants.js';
import { findField, findVar, type JavaClass, type JavaFile, JavaResolver, type JavaScope } from './model.js';

const STRING_TYPES: ReadonlySet<string> = new Set(['String', 'java.lang.String']);

/** The `jv:` properties of the file's reachable string constants. */
export function constantProperties(file: JavaFile, packageName: string | undefined): PropertyFact[] {
  const out: PropertyFact[] = [];
  for (const list of file.constants.values()) {
    for (const constant of list) {
      const { field } = constant;
      if (!constant.reachable || !STRING_TYPES.has(field.type ?? '')) continue;
      const value = new JavaResolver(file, constant.cls).string(constant.node);
      if (value === undefined || !exportable(field.name, value)) continue;
      const owner =
        packageName === undefined ? constant.cls.qualified : `${packageName}.${constant.cls.qualified}`;
      out.push({ key: constantKey(owner, field.name), value, line: field.line });
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
    if (holder !== undefined) return foreignPlaceholder(`${holder}.${node.text}`);
    const [only, ...more] = file.staticWildcards;
    if (only === undefined) return undefined;
    return foreignPlaceholder(more.length === 0 ? `${only}.${node.text}` : node.text);
  }
  if (node.type !== 'field_access') return undefined;
  const path = node.text.replace(/\s+/g, '');
  if (!/^[\w$]+(?:\.[\w$]+)+$/.test(path)) return undefined;
  const segments = path.split('.');
  const owner = segments[segments.length - 2] ?? '';
  const first = segments[0] ?? '';
  if (!CLASS_NAME.test(owner) || file.classes.some((cls) => cls.name === owner)) return undefined;
  return isVariable(first) ? undefined : foreignPlaceholder(path);
}

/** `name` is a variable `scope` sees (a local, a parameter, a field of an enclosing class). */
export const variableIn =
  (scope: JavaScope) =>
  (name: string): boolean =>
    findVar(name, scope) !== undefined;

/** The resolver for destinations written in a body: its locals and parameters are variables too. */
export const topicValuesIn = (file: JavaFile, scope: JavaScope): TopicValueResolver =>
  new TopicValueResolver(file, scope.cls, variableIn(scope));

export { isForeignConstant };

/**
 * The file's resolver for topic destinations in annotations: what the file resolves itself, else a constant
 * of another file as its `${jv:…}` placeholder (each element of an array alike).
 */
export class TopicValueResolver extends DestinationResolver {
  constructor(
    file: JavaFile,
    cls: JavaClass | undefined,
    /** Names the code holds in variables; by default the fields of `cls` and its outer classes. */
    isVariable: (name: string) => boolean = (name) => findField(name, cls) !== undefined,
  ) {
    super(
      new JavaResolver(file, cls),
      (node) => foreignConstant(file, node, isVariable),
      (node) =>
        node.type === 'element_value_array_initializer' || node.type === 'array_initializer'
          ? node.namedChildren.filter(
              (child): child is Node => child !== null && !child.type.endsWith('comment'),
            )
          : undefined,
    );
  }
}
