/**
 * Imports of a TypeScript/JavaScript file as written (`import`, `import x = require`, `export … from`,
 * `require('x')`, `import('x')`), and the local names they bind: the contract rules need to know that
 * `Queue` comes from bullmq or that `PaymentServiceClient` is imported. Paths are not resolved here.
 */
import type { Node } from 'web-tree-sitter';
import type { ImportFact } from '../../facts.js';
import type { ImportBinding } from './model.js';
import { stringValue, unwrap, type Val } from './values.js';

function named(node: Node): Node[] {
  return node.namedChildren.filter((n): n is Node => n !== null);
}

/** An `import` statement; records its bindings (local name → source and exported name). */
export function importFact(node: Node, bindings: Map<string, ImportBinding>): ImportFact | undefined {
  const line = node.startPosition.row + 1;
  const require = named(node).find((c) => c.type === 'import_require_clause');
  if (require !== undefined) {
    const from = require.childForFieldName('source');
    const local = require.firstNamedChild?.text ?? '';
    if (from === null) return undefined;
    bindings.set(local, { source: stringValue(from), imported: '*' });
    return { source: stringValue(from), names: [local], line };
  }
  const source = node.childForFieldName('source');
  if (source === null) return undefined;
  const from = stringValue(source);
  const names: string[] = [];
  const clause = named(node).find((c) => c.type === 'import_clause');
  for (const part of clause === undefined ? [] : named(clause)) {
    if (part.type === 'identifier') {
      names.push(part.text);
      bindings.set(part.text, { source: from, imported: 'default' });
    } else if (part.type === 'namespace_import') {
      names.push('*');
      bindings.set(part.firstNamedChild?.text ?? '', { source: from, imported: '*' });
    } else if (part.type === 'named_imports') {
      for (const spec of named(part)) {
        if (spec.type !== 'import_specifier') continue;
        const name = spec.childForFieldName('name')?.text ?? '';
        names.push(name);
        bindings.set(spec.childForFieldName('alias')?.text ?? name, { source: from, imported: name });
      }
    }
  }
  return names.length === 0 ? { source: from, line } : { source: from, names, line };
}

/** `export { a, b as c } from 'x'` → names `a`, `b`; `export * from 'x'` and `export * as n from 'x'` → `*`. */
export function reexportFact(node: Node, source: Node): ImportFact {
  const names: string[] = [];
  for (const child of named(node)) {
    if (child.type === 'export_clause') {
      for (const spec of named(child)) {
        if (spec.type === 'export_specifier') names.push(spec.childForFieldName('name')?.text ?? '');
      }
    } else if (child.type === 'namespace_export') names.push('*');
  }
  return {
    source: stringValue(source),
    names: names.length === 0 ? ['*'] : names,
    line: node.startPosition.row + 1,
    reexport: true,
  };
}

/** The names a binding pattern takes from a module: `x` → default, `{ A, B: b }` → `A` as `A`, `B` as `b`. */
export function patternBindings(
  pattern: Node | null,
): { readonly local: string; readonly imported: string }[] {
  if (pattern?.type === 'identifier') return [{ local: pattern.text, imported: 'default' }];
  if (pattern?.type !== 'object_pattern') return [];
  const out: { local: string; imported: string }[] = [];
  for (const p of named(pattern)) {
    if (p.type === 'shorthand_property_identifier_pattern') out.push({ local: p.text, imported: p.text });
    else if (p.type === 'object_assignment_pattern') {
      // `{ SHIPPING_ADDR = '' }`: a default does not change where the value comes from.
      const left = p.childForFieldName('left');
      if (left?.type === 'shorthand_property_identifier_pattern')
        out.push({ local: left.text, imported: left.text });
    } else if (p.type === 'pair_pattern') {
      const key = p.childForFieldName('key')?.text;
      let value = p.childForFieldName('value');
      if (value?.type === 'assignment_pattern') value = value.childForFieldName('left');
      if (key !== undefined && value?.type === 'identifier') out.push({ local: value.text, imported: key });
    }
  }
  return out;
}

/**
 * A `require('x')` or `import('x')` call with a literal argument, as an import fact; the names are those
 * of the declaration it initialises (`const { Queue } = require('bullmq')`), bound in `bindings`.
 */
export function callImportFact(call: Node, bindings: Map<string, ImportBinding>): ImportFact | undefined {
  const callee = call.childForFieldName('function');
  const first = call.childForFieldName('arguments')?.firstNamedChild;
  if (first === null || first === undefined) return undefined;
  const literal =
    first.type === 'string' ||
    (first.type === 'template_string' && named(first).every((c) => c.type === 'string_fragment'));
  if (!literal) return undefined;
  const source = first.type === 'string' ? stringValue(first) : first.text.slice(1, -1);
  const line = call.startPosition.row + 1;
  if (callee?.type === 'import') return { source, line };
  const parent = call.parent;
  const pattern = parent?.type === 'variable_declarator' ? parent.childForFieldName('name') : null;
  const bound = patternBindings(pattern);
  for (const b of bound) bindings.set(b.local, { source, imported: b.imported });
  const names = bound.map((b) => (b.imported === 'default' ? b.local : b.imported));
  return names.length === 0 ? { source, line } : { source, names, line };
}

/**
 * The locals a destructuring declaration binds, with a value when it reads environment variables:
 * `const { BILLING_URL = '', X: x } = process.env` reads `BILLING_URL` and `X`, like `process.env.X`.
 */
export function destructured(
  pattern: Node | null,
  value: Node | null,
): { readonly local: string; readonly val?: Val }[] {
  const fromEnv = value !== null && unwrap(value).text.replace(/\s+/g, '') === 'process.env';
  return patternBindings(pattern).map(({ local, imported }) =>
    fromEnv ? { local, val: { k: 'env', name: imported } } : { local },
  );
}

/** Names exported by a CommonJS assignment: `module.exports = { A, b: B }`, `module.exports = A`, `exports.a = A`. */
export function commonJsExports(left: Node, right: Node): string[] {
  const target = left.text.replace(/\s+/g, '');
  if (target !== 'module.exports' && !/^(?:module\.)?exports\.[\w$]+$/.test(target)) return [];
  const value = unwrap(right);
  if (value.type === 'identifier') return [value.text];
  if (value.type !== 'object' || target !== 'module.exports') return [];
  const names: string[] = [];
  for (const p of named(value)) {
    const name = p.type === 'pair' ? p.childForFieldName('value') : p;
    if (name?.type === 'identifier' || name?.type === 'shorthand_property_identifier') names.push(name.text);
  }
  return names;
}
