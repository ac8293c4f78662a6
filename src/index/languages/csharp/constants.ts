/**
 * C# string constants other files may use. A file cannot see a constant another file declares, so each
 * `const string` and `static readonly string` field another file can reach (public, internal or protected)
 * whose value the file resolves is exported as a property keyed `cs:<namespace>.<classes>.<Name>`
 * (`cs:<classes>.<Name>` in the global namespace; nested classes keep their outer classes). A destination
 * written `Topics.Created` on a class no variable or type of the referring file names becomes
 * `${cs:Topics.Created}` (`destination.ts`), which the graph resolves by class name against the namespaces
 * the referring file sees (`graph/csharp-constants.ts`). Enum members are no strings and give nothing.
 */
import type { Node } from 'web-tree-sitter';
import type { PropertyFact } from '../../facts.js';
import { declarator } from './scope.js';
import { kids, resolveCs, type CsValueScope } from './values.js';
import { startLineOf } from '../shared/tree-utils.js';

/** Properties are shown like configuration: names that usually hold credentials stay out. */
const SECRET_NAME = /passw|secret|token|credential|api_?key|private_?key|auth/i;
const MAX_VALUE = 256;
const REACHABLE = new Set(['public', 'internal', 'protected']);

/** The constant-string properties of one field declaration (`const`/`static readonly`, reachable). */
export function constantProperties(
  node: Node,
  className: string,
  namespace: string,
  values: CsValueScope,
): PropertyFact[] {
  const modifiers = new Set(kids(node).flatMap((child) => (child.type === 'modifier' ? [child.text] : [])));
  const constant = modifiers.has('const') || (modifiers.has('static') && modifiers.has('readonly'));
  if (!constant || ![...modifiers].some((modifier) => REACHABLE.has(modifier))) return [];
  const declaration = kids(node).find((child) => child.type === 'variable_declaration');
  const type = declaration?.childForFieldName('type')?.text;
  if (type !== 'string' && type !== 'String' && type !== 'System.String') return [];
  const owner = namespace === '' ? className : `${namespace}.${className}`;
  const out: PropertyFact[] = [];
  for (const variable of kids(declaration).filter((child) => child.type === 'variable_declarator')) {
    const { name, value } = declarator(variable);
    if (name === undefined || value === undefined || SECRET_NAME.test(name.text)) continue;
    const text = literalText(value, values);
    if (text === undefined || text.length > MAX_VALUE) continue;
    out.push({ key: `cs:${owner}.${name.text}`, value: text, line: startLineOf(variable) });
  }
  return out;
}

/** The value when every part of it is literal text. */
function literalText(node: Node, values: CsValueScope): string | undefined {
  let text = '';
  for (const part of resolveCs(node, values)) {
    if (part.t !== 'lit') return undefined;
    text += part.v;
  }
  return text;
}
