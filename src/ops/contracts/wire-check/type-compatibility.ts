import type { SchemaModel, SchemaPair, TypeRef } from './schema-model.js';

/** Which types can replace which on the wire, by encoding rather than by name. */

type WireClass = 'varint' | 'zigzag' | 'fixed32' | 'fixed64' | 'float' | 'double' | 'len' | 'unknown';

function wireClassOf(type: TypeRef): WireClass {
  if (type.kind === 'message') return 'len';
  if (type.kind === 'enum') return 'varint';
  if (type.kind === 'external') return 'unknown';
  switch (type.name) {
    case 'int32':
    case 'int64':
    case 'uint32':
    case 'uint64':
    case 'bool':
      return 'varint';
    case 'sint32':
    case 'sint64':
      return 'zigzag';
    case 'fixed32':
    case 'sfixed32':
      return 'fixed32';
    case 'fixed64':
    case 'sfixed64':
      return 'fixed64';
    case 'float':
      return 'float';
    case 'double':
      return 'double';
    default:
      return 'len';
  }
}

export const typeText = (type: TypeRef): string => type.name;
const sameType = (a: TypeRef, b: TypeRef): boolean => a.kind === b.kind && a.name === b.name;

export type TypeVerdict =
  | { kind: 'same' }
  | { kind: 'compatible'; why: string }
  | { kind: 'external' }
  | { kind: 'incompatible' }
  | { kind: 'renamed' };

/** Whether a value written as `before` reads back as `after`, by protobuf's published compatibility rules. */
export function compareTypes(before: TypeRef, after: TypeRef, pair: SchemaPair): TypeVerdict {
  if (sameType(before, after)) return { kind: 'same' };
  if (before.kind === 'external' || after.kind === 'external') return { kind: 'external' };
  const declaredIn = (model: SchemaModel, t: TypeRef) =>
    t.kind === 'message' ? model.messages.has(t.name) : model.enums.has(t.name);
  if (before.kind === after.kind && before.kind !== 'scalar') {
    // The type itself was renamed (the old name is gone, the new one is new): the same bytes on the wire.
    if (!declaredIn(pair.head, before) && !declaredIn(pair.base, after)) return { kind: 'renamed' };
    return { kind: 'incompatible' };
  }
  const a = wireClassOf(before);
  const b = wireClassOf(after);
  const names = new Set([
    before.kind === 'scalar' ? before.name : before.kind,
    after.kind === 'scalar' ? after.name : after.kind,
  ]);
  if (a === 'varint' && b === 'varint') {
    return {
      kind: 'compatible',
      why: 'same varint encoding; values outside the narrower type are truncated or reinterpreted',
    };
  }
  if (
    (a === 'zigzag' && b === 'zigzag') ||
    (a === 'fixed32' && b === 'fixed32') ||
    (a === 'fixed64' && b === 'fixed64')
  ) {
    return { kind: 'compatible', why: 'same encoding; values outside the narrower type are reinterpreted' };
  }
  if (names.has('string') && names.has('bytes'))
    return { kind: 'compatible', why: 'same encoding as long as the bytes are valid UTF-8' };
  if (names.has('bytes') && names.has('message'))
    return { kind: 'compatible', why: 'same encoding as long as the bytes hold an encoded message' };
  return { kind: 'incompatible' };
}

export const lenLike = (t: TypeRef): boolean => wireClassOf(t) === 'len';
