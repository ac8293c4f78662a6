/**
 * Whether a method of a subclass overrides a method of its base class, read from the declarations'
 * signatures (`public Response findById(@PathParam("id") final Long id)`): the same name and the same
 * parameter types, a base parameter typed by a type variable (`T entity`) matching any type. An overload
 * (`findById(String name)` beside `findById(Long id)`) does not override. Without a readable signature
 * the name alone decides.
 */
import type { SymbolFact } from '../facts.js';

export interface MethodShape {
  readonly name: string;
  /** Parameter types without annotations, modifiers or type arguments; undefined when unreadable. */
  readonly params: readonly string[] | undefined;
}

/** A type variable as written in a generic base class: `T`, `E`, `ID`, `T2`. */
const TYPE_VARIABLE = /^[A-Z][A-Z0-9]?$/;

export function methodShape(symbol: SymbolFact): MethodShape {
  return { name: symbol.name, params: parameterTypes(symbol.signature) };
}

export function overrides(sub: MethodShape, base: MethodShape): boolean {
  if (sub.name !== base.name) return false;
  if (sub.params === undefined || base.params === undefined) return true;
  if (sub.params.length !== base.params.length) return false;
  return base.params.every((type, i) => type === sub.params?.[i] || TYPE_VARIABLE.test(type));
}

/** The parameter types of a Java-style signature: `(final Long id, T entity)` → `['Long', 'T']`. */
function parameterTypes(signature: string | undefined): string[] | undefined {
  const list = signature === undefined ? undefined : parameterList(signature);
  if (list === undefined) return undefined;
  const params = splitTopLevel(list).filter((param) => param.trim() !== '');
  const types: string[] = [];
  for (const param of params) {
    const bare = withoutAnnotations(param)
      .replace(/<[^]*>/g, '')
      .replace(/\bfinal\s+/g, '')
      .trim();
    const match = /^([\w.$]+(?:\s*\[\s*\])*(?:\.\.\.)?)\s+[\w$]+$/.exec(bare);
    if (match?.[1] === undefined) return undefined;
    // `java.lang.Long[]` and `Long[]` name the same type: the package is dropped, the array kept.
    const [, qualified = '', suffix = ''] =
      /^([\w.$]+?)((?:\[\])*(?:\.\.\.)?)$/.exec(match[1].replace(/\s+/g, '')) ?? [];
    types.push(qualified.slice(qualified.lastIndexOf('.') + 1) + suffix);
  }
  return types;
}

/** The text between the parentheses that follow the method's name. */
function parameterList(signature: string): string | undefined {
  const stripped = withoutAnnotations(signature);
  const open = stripped.indexOf('(');
  if (open === -1) return undefined;
  let depth = 0;
  for (let i = open; i < stripped.length; i++) {
    if (stripped[i] === '(') depth++;
    else if (stripped[i] === ')' && --depth === 0) return stripped.slice(open + 1, i);
  }
  return undefined;
}

/** Drops `@Name` and `@Name(…)` (balanced parentheses, strings with parentheses inside included). */
function withoutAnnotations(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const name = text[i] === '@' ? /^@[\w.$]+\s*/.exec(text.slice(i)) : null;
    if (name === null) {
      out += text[i];
      continue;
    }
    i += name[0].length;
    if (text[i] === '(') i = closing(text, i);
    else i--;
  }
  return out;
}

function closing(text: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (quote !== undefined) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i;
  }
  return text.length;
}

/** Splits on commas outside `<…>` (the generic arguments of a parameter's type). */
function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === '<') depth++;
    else if (list[i] === '>') depth--;
    else if (list[i] === ',' && depth === 0) {
      parts.push(list.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(list.slice(start));
  return parts;
}
