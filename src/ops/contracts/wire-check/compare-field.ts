import type { ComparisonContext } from './comparison-context.js';
import type { FindingRule } from './findings.js';
import type { FieldModel, TypeRef } from './schema-model.js';
import { compareTypes, lenLike, typeText } from './type-compatibility.js';

/** One field kept at its number: its type and cardinality before and after. */
export function compareField(
  context: ComparisonContext,
  old: FieldModel,
  now: FieldModel,
  element: string,
  key: string,
): void {
  const label = `field \`${now.name} = ${now.id}\``;
  const breaking = (rule: FindingRule, message: string) =>
    context.add('breaking', rule, element, message, key, 'head');
  const typeCheck = (before: TypeRef, after: TypeRef, what: string) => {
    const verdict = compareTypes(before, after, context.pair);
    switch (verdict.kind) {
      case 'same':
        return;
      case 'incompatible':
        breaking(
          'type_changed',
          `${label}: incompatible ${what}type change \`${typeText(before)}\` → \`${typeText(after)}\``,
        );
        return;
      case 'external':
        context.add(
          'warning',
          'external_type_changed',
          element,
          `${label}: ${what}type changed \`${typeText(before)}\` → \`${typeText(after)}\`, involving a type not declared in this file; check it by hand`,
          key,
          'head',
        );
        return;
      case 'renamed':
        context.add(
          'warning',
          'compatible_type_change',
          element,
          `${label}: ${what}type renamed \`${typeText(before)}\` → \`${typeText(after)}\`: the same on the wire`,
          key,
          'head',
        );
        return;
      case 'compatible':
        context.add(
          'warning',
          'compatible_type_change',
          element,
          `${label}: ${what}type changed \`${typeText(before)}\` → \`${typeText(after)}\`: ${verdict.why}`,
          key,
          'head',
        );
        return;
    }
  };

  if (old.cardinality === 'map' || now.cardinality === 'map') {
    if (old.cardinality === 'map' && now.cardinality === 'map') {
      typeCheck(old.keyType ?? old.type, now.keyType ?? now.type, 'map key ');
      typeCheck(old.type, now.type, 'map value ');
      return;
    }
    const map = old.cardinality === 'map' ? old : now;
    const other = old.cardinality === 'map' ? now : old;
    if (other.cardinality !== 'repeated' || other.type.kind === 'scalar' || other.type.kind === 'enum') {
      breaking(
        'cardinality_changed',
        `${label}: \`${fieldTypeText(old)}\` → \`${fieldTypeText(now)}\` is not wire-compatible (a map is a repeated entry message)`,
      );
      return;
    }
    if (other.type.kind === 'external') {
      context.add(
        'warning',
        'external_type_changed',
        element,
        `${label}: \`${fieldTypeText(old)}\` → \`${fieldTypeText(now)}\` involves a type not declared in this file; check it by hand`,
        key,
        'head',
      );
      return;
    }
    // `map<K, V>` is `repeated Entry { K key = 1; V value = 2; }` on the wire.
    const entry = (other === now ? context.pair.head : context.pair.base).messages.get(other.type.name);
    const keyField = entry?.fields.find((f) => f.id === 1);
    const valueField = entry?.fields.find((f) => f.id === 2);
    const ok =
      entry !== undefined &&
      keyField?.cardinality === 'singular' &&
      valueField?.cardinality === 'singular' &&
      compareTypes(map.keyType ?? map.type, keyField.type, context.pair).kind !== 'incompatible' &&
      compareTypes(map.type, valueField.type, context.pair).kind !== 'incompatible';
    if (!ok) {
      breaking(
        'cardinality_changed',
        `${label}: \`${fieldTypeText(old)}\` → \`${fieldTypeText(now)}\`: the message is not a map entry (key = 1, value = 2) of matching types`,
      );
    }
    return;
  }
  if (old.cardinality !== now.cardinality) {
    const external = old.type.kind === 'external' || now.type.kind === 'external';
    // A singular reader takes the last element of an expanded repeated numeric; a packed one is a
    // length-delimited blob it cannot read.
    const accepted =
      (lenLike(old.type) && lenLike(now.type)) ||
      (!lenLike(old.type) && !lenLike(now.type) && !old.packed && !now.packed);
    if (!accepted && external) {
      context.add(
        'warning',
        'external_type_changed',
        element,
        `${label}: ${old.cardinality} → ${now.cardinality} (\`${fieldTypeText(old)}\` → \`${fieldTypeText(now)}\`) involves a type not declared in this file; accepted only if it is a message`,
        key,
        'head',
      );
      return;
    }
    if (!accepted) {
      breaking(
        'cardinality_changed',
        `${label}: ${old.cardinality} → ${now.cardinality} (\`${fieldTypeText(old)}\` → \`${fieldTypeText(now)}\`); accepted only for string, bytes and message fields and unpacked numerics, not for packed numerics`,
      );
      return;
    }
  }
  typeCheck(old.type, now.type, '');
}

export function fieldTypeText(field: FieldModel): string {
  if (field.cardinality === 'map') return `map<${field.keyType?.name ?? '?'}, ${field.type.name}>`;
  return field.cardinality === 'repeated' ? `repeated ${field.type.name}` : field.type.name;
}
