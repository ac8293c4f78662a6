/**
 * Values resolved once a file has been walked: a reference (`TOPIC`, `Streams.ORDER`, `this.baseUrl`) looked
 * up in the file's constants, enums and class fields, and a value rendered as the string it stands for.
 */
import type { Val } from './values.js';

/** The file-level tables references resolve against (complete only after the walk). */
export interface ValueTables {
  readonly consts: ReadonlyMap<string, Val>;
  /** Enum name (namespace-qualified too) → member → initialiser (absent for numeric/implicit members). */
  readonly enums: ReadonlyMap<string, ReadonlyMap<string, Val | undefined>>;
  /** `this.<name>` inside class `cls` (its own or an inherited same-file field with a constant initialiser). */
  readonly thisField: (cls: number, name: string) => Val | undefined;
}

export type Target =
  { readonly kind: 'val'; readonly val: Val } | { readonly kind: 'member'; readonly name: string };

export function lookup(ref: Extract<Val, { k: 'ref' }>, t: ValueTables, depth: number): Target | undefined {
  const { path } = ref;
  if (path[0] === 'this') {
    const field =
      path.length === 2 && ref.cls !== undefined ? t.thisField(ref.cls, path[1] ?? '') : undefined;
    return field === undefined ? undefined : { kind: 'val', val: field };
  }
  const whole = t.consts.get(path.join('.'));
  if (whole !== undefined) return { kind: 'val', val: whole };
  if (path.length < 2) return undefined;
  const member = path[path.length - 1] ?? '';
  const members = t.enums.get(path.slice(0, -1).join('.'));
  if (members?.has(member)) {
    const init = members.get(member);
    return init === undefined ? { kind: 'member', name: member } : { kind: 'val', val: init };
  }
  // A member of a constant object: `TOPICS.ORDER_CREATED` with `const TOPICS = { ORDER_CREATED: '…' }`.
  for (let i = path.length - 1; i >= 1; i--) {
    const base = t.consts.get(path.slice(0, i).join('.'));
    if (base === undefined) continue;
    let current: Val | undefined = follow(base, t, depth + 1);
    for (const segment of path.slice(i))
      current = current?.k === 'obj' ? follow(current.props.get(segment), t, depth + 1) : undefined;
    return current === undefined ? undefined : { kind: 'val', val: current };
  }
  return undefined;
}

function follow(val: Val | undefined, t: ValueTables, depth: number): Val | undefined {
  if (val?.k !== 'ref' || depth > 8) return val;
  const target = lookup(val, t, depth);
  return target?.kind === 'val' ? follow(target.val, t, depth + 1) : undefined;
}

export interface Resolved {
  readonly value: string;
  /** False when the value is a fallback (an enum member's name, a `??` default). */
  readonly exact: boolean;
}

/** The string an expression always evaluates to, from literals, same-file constants and enum members. */
export function resolveString(val: Val, t: ValueTables, depth = 0): Resolved | undefined {
  if (depth > 8) return undefined;
  switch (val.k) {
    case 'str':
      return { value: val.v, exact: true };
    case 'ref': {
      const target = lookup(val, t, depth);
      if (target === undefined) return undefined;
      if (target.kind === 'member') return { value: target.name, exact: false };
      return resolveString(target.val, t, depth + 1);
    }
    case 'cat': {
      let value = '';
      let exact = true;
      for (const part of val.parts) {
        const r = resolveString(part, t, depth + 1);
        if (r === undefined) return undefined;
        value += r.value;
        exact &&= r.exact;
      }
      return { value, exact };
    }
    case 'or':
      for (const [i, option] of val.options.entries()) {
        const r = resolveString(option, t, depth + 1);
        if (r !== undefined) return i === 0 ? r : { value: r.value, exact: false };
      }
      return undefined;
    default:
      return undefined;
  }
}

/**
 * A topic or queue name: a resolved string, else the member name of an enum-like reference
 * (`Streams.ORDER_CREATED` → `ORDER_CREATED`, heuristic). Never a variable's own name.
 */
export function resolveName(val: Val, t: ValueTables): Resolved | undefined {
  const resolved = resolveString(val, t);
  if (resolved !== undefined) return resolved;
  if (val.k !== 'ref' || val.path.length < 2 || val.path[0] === 'this') return undefined;
  const last = val.path[val.path.length - 1] ?? '';
  return /^[A-Z]/.test(val.path[0] ?? '') && /^[A-Z][A-Za-z0-9_]*$/.test(last)
    ? { value: last, exact: false }
    : undefined;
}

/** gRPC decorator arguments: resolved string, else the reference's last identifier (heuristic). */
export function resolveIdentifierLike(val: Val, t: ValueTables): Resolved | undefined {
  const resolved = resolveString(val, t);
  if (resolved !== undefined) return resolved;
  if (val.k === 'ref') return { value: val.path[val.path.length - 1] ?? '', exact: false };
  return undefined;
}
