/**
 * Kotlin string constants that cross files, under the same `jv:` keys and `${jv:…}` placeholders as Java
 * (`shared/jvm/foreign-constants.ts`), so Java and Kotlin files resolve each other's constants. A reachable
 * (not `private`) `const val` or `val` holding a string the file resolves is exported as:
 * - in an `object Topics` of `package a.b`: `jv:a.b.Topics.NAME` (`Topics.NAME` from Kotlin and Java);
 * - in a `companion object` of `class Orders`: `jv:a.b.Orders.NAME` (`Orders.NAME` from both languages;
 *   a written `Orders.Companion.NAME` is read without `Companion`);
 * - at the top level of `Topics.kt`: `jv:a.b.NAME`, which Kotlin reads as `NAME` in the same package or
 *   after `import a.b.NAME` / `import a.b.*`, and `jv:a.b.TopicsKt.NAME` (the class Java sees, or the
 *   `@file:JvmName` given), which Java reads as `TopicsKt.NAME`.
 * A destination naming a constant the file does not declare becomes a placeholder: `Topics.NAME` as
 * written, qualified by its import when the first name is imported (an alias included); a bare name
 * imported by name as its import; a bare SCREAMING_CASE name (a constant of the same package or of a
 * wildcard import) as written. Other bare names are variables the file does not see, never constants.
 */
import type { Node } from 'web-tree-sitter';
import type { PropertyFact } from '../../facts.js';
import {
  constantKey,
  DestinationResolver,
  exportable,
  foreignPlaceholder,
} from '../shared/jvm/foreign-constants.js';
import { callOf, findField, type KtClass, type KtFile, type KtScope, namedChildren } from './model.js';
import { COLLECTION_FACTORIES, KtResolver } from './values.js';

const STRING_TYPES: ReadonlySet<string> = new Set(['String', 'kotlin.String']);
const CONSTANT_NAME = /^[A-Z][A-Z0-9_]*$/;
const CLASS_NAME = /^[A-Z]/;
const JVM_NAME = /@file\s*:\s*JvmName\s*\(\s*"([\w$]+)"\s*\)/;

/** The `jv:` properties of the file's reachable string constants. */
export function constantProperties(
  file: KtFile,
  packageName: string | undefined,
  path: string,
  source: string,
): PropertyFact[] {
  const out: PropertyFact[] = [];
  const facade = JVM_NAME.exec(source)?.[1] ?? facadeClassOf(path);
  for (const list of file.constants.values()) {
    for (const constant of list) {
      const { variable, cls } = constant;
      if (!constant.reachable || (variable.type !== undefined && !STRING_TYPES.has(variable.type))) continue;
      const resolver = new KtResolver(file, cls);
      const value = resolver.string(constant.node);
      if (value === undefined || resolver.inferred || !exportable(variable.name, value)) continue;
      const owners = cls === undefined ? ['', facade] : [ownerPath(cls)];
      for (const owner of owners) {
        const qualified = [packageName, owner].filter((part) => part !== undefined && part !== '').join('.');
        out.push({ key: constantKey(qualified, variable.name), value, line: variable.line });
      }
    }
  }
  return out.sort((a, b) => a.line - b.line);
}

/** `src/Topics.kt` → `TopicsKt`, the class the JVM gives the file's top-level declarations. */
function facadeClassOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1).replace(/\.kts?$/, '');
  return `${base.charAt(0).toUpperCase()}${base.slice(1)}Kt`.replace(/[^\w$]/g, '_');
}

/** The classes a constant is read through: a companion's members are its class's. */
function ownerPath(cls: KtClass): string {
  const names: string[] = [];
  for (let current: KtClass | undefined = cls; current !== undefined; current = current.outer)
    if (current.kind !== 'companion') names.unshift(current.name);
  return names.join('.');
}

const withoutCompanion = (path: string): string => path.replace(/\.Companion(?=\.|$)/g, '');

/** The `${jv:…}` placeholder for a constant `node` names that this file does not declare, or undefined. */
export function foreignConstant(
  file: KtFile,
  node: Node,
  isVariable: (name: string) => boolean,
): string | undefined {
  if (node.type === 'identifier') {
    const name = node.text;
    if (isVariable(name) || file.constants.has(name)) return undefined;
    const imported = file.imports.get(name);
    if (imported !== undefined) return foreignPlaceholder(withoutCompanion(imported));
    return CONSTANT_NAME.test(name) ? foreignPlaceholder(name) : undefined;
  }
  if (node.type !== 'navigation_expression') return undefined;
  const path = withoutCompanion(node.text.replace(/\s+/g, ''));
  if (!/^\w+(?:\.\w+)+$/.test(path)) return undefined;
  const segments = path.split('.');
  const owner = segments[segments.length - 2] ?? '';
  const first = segments[0] ?? '';
  if (!CLASS_NAME.test(owner) || file.classes.some((cls) => cls.name === owner) || isVariable(first))
    return undefined;
  const imported = file.imports.get(first);
  const qualified =
    imported === undefined ? path : [withoutCompanion(imported), ...segments.slice(1)].join('.');
  return foreignPlaceholder(qualified);
}

/** `name` is a variable `scope` sees (a local, a parameter, a property of an enclosing class). */
export const variableIn =
  (scope: KtScope) =>
  (name: string): boolean =>
    scope.vars.has(name) || findField(name, scope.cls) !== undefined;

/** The elements of `[a, b]`, `arrayOf(a, b)`, `listOf(a, b)`; undefined for anything else. */
function elementsOf(node: Node): readonly Node[] | undefined {
  if (node.type === 'collection_literal') return namedChildren(node);
  const call = node.type === 'call_expression' ? callOf(node) : undefined;
  return call !== undefined && COLLECTION_FACTORIES.has(call.name)
    ? call.args.map((arg) => arg.value)
    : undefined;
}

/**
 * Topic destinations as `own` resolves them, else another file's constant as its placeholder; `own` keeps
 * telling whether an environment default was read. Variables are the fields of `cls` unless told.
 */
export function topicValues(
  file: KtFile,
  own: KtResolver,
  isVariable: (name: string) => boolean,
): DestinationResolver {
  return new DestinationResolver(own, (node) => foreignConstant(file, node, isVariable), elementsOf);
}

/** The resolver for destinations in the annotations of `cls`. */
export const annotationTopicValues = (file: KtFile, cls: KtClass): DestinationResolver =>
  topicValues(file, new KtResolver(file, cls), (name) => findField(name, cls) !== undefined);
