/**
 * Go values that cross files. Facts are per file, so a topic written `kafka.Topic` (declared in another
 * file, maybe another package) cannot be resolved during extraction. Instead every file exports its
 * package-level string values as `go:<package>.<Name>` properties, and an unresolved reference becomes the
 * placeholder `${go:<package>.<Name>}`, which the reconciler resolves against those properties (or drops).
 */
import type { Node } from 'web-tree-sitter';
import type { PropertyFact } from '../../facts.js';
import { defaultPackageName, stringValue, unwrapParens, type GoScope, type Resolved } from './scope.js';

export interface PackageValue {
  readonly name: string;
  readonly value: Node;
  readonly line: number;
}

/** Properties are stored and shown like configuration: names that usually hold credentials stay out. */
const SECRET_NAME = /passw|secret|token|credential|api_?key|private_?key|auth/i;
const MAX_VALUE = 256;

/**
 * `go:<package>.<Name>` = the string a package-level const/var is initialised to, when it resolves within
 * the file (a literal, a same-file constant, an env-with-literal-default helper). A var this file
 * reassigns, or whose address it passes on (`flag.StringVar(&topic, …)`), has no single value.
 */
export function packageProperties(values: readonly PackageValue[], fileScope: GoScope): PropertyFact[] {
  const pkg = fileScope.file.packageName;
  if (pkg === undefined) return [];
  const out: PropertyFact[] = [];
  for (const { name, value, line } of values) {
    const { reassigned, source } = fileScope.file;
    if (reassigned.has(name) || SECRET_NAME.test(name) || addressTaken(source, name)) continue;
    const resolved = stringValue(value, fileScope);
    if (resolved === undefined || resolved.value.length > MAX_VALUE) continue;
    out.push({ key: `go:${pkg}.${name}`, value: resolved.value, line });
  }
  return out;
}

/**
 * `&name` anywhere in the file (`flag.StringVar(&topic, …)`, `envconfig.Process("", &cfg)`): the callee may
 * write it. Read from the text, for the few candidate names only; a match in a comment only costs a property.
 */
function addressTaken(source: string, name: string): boolean {
  return new RegExp(`&\\s*${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(source);
}

const isExported = (name: string): boolean => /^\p{Lu}/u.test(name);

/**
 * The package-level name an expression refers to when this file cannot tell its value: `pkg.Name` (an
 * exported name of an imported package, keyed by the package's name) or a bare `Name` bound nowhere in
 * the file (a package-level name of another file of the same package). Anything bound locally — a
 * parameter, a variable, a field — is not a reference: it resolved or it stays unknown.
 */
export function packageRef(node: Node, scope: GoScope): string | undefined {
  const expr = unwrapParens(node);
  if (expr.type === 'selector_expression') {
    const operand = expr.childForFieldName('operand');
    const field = expr.childForFieldName('field')?.text;
    if (operand?.type !== 'identifier' || field === undefined || !isExported(field)) return undefined;
    const path = scope.packagePath(operand.text);
    return path === undefined ? undefined : `${defaultPackageName(path)}.${field}`;
  }
  if (expr.type !== 'identifier') return undefined;
  const own = scope.file.packageName;
  const name = expr.text;
  if (own === undefined || scope.lookup(name) !== undefined || scope.file.imports.has(name)) return undefined;
  if (scope.file.funcResults.has(name)) return undefined;
  return `${own}.${name}`;
}

/** A topic: resolved in the file, else a `${go:pkg.Name}` placeholder for the reconciler (never exact). */
export function topicValue(node: Node, scope: GoScope): Resolved | undefined {
  const value = stringValue(node, scope);
  if (value !== undefined) return value;
  const ref = packageRef(node, scope);
  return ref === undefined ? undefined : { value: `\${go:${ref}}`, inferred: true };
}
