import type { ComparisonContext } from './comparison-context.js';
import type { FindingRule } from './findings.js';
import type { FieldModel, TypeRef } from './schema-model.js';
import { compareTypes, lenLike, typeText } from './type-compatibility.js';

/** Where one field's findings go: the element and line key they name, and how their messages name the field. */
interface FieldSite {
  readonly context: ComparisonContext;
  readonly element: string;
  readonly key: string;
  readonly label: string;
}

const report = (
  site: FieldSite,
  severity: 'breaking' | 'warning',
  rule: FindingRule,
  message: string,
): void => site.context.add(severity, rule, site.element, message, site.key, 'head');

/** One field kept at its number: its type and cardinality before and after. */
export function compareField(
  context: ComparisonContext,
  old: FieldModel,
  now: FieldModel,
  element: string,
  key: string,
): void {
  const site: FieldSite = { context, element, key, label: `field \`${now.name} = ${now.id}\`` };
  if (old.cardinality === 'map' || now.cardinality === 'map') {
    compareMapField(site, old, now);
    return;
  }
  if (old.cardinality !== now.cardinality && !cardinalityChangeAccepted(site, old, now)) return;
  compareFieldTypes(site, old.type, now.type, '');
}

/** One type before and after (`what` says which: the field's, a map's key or value). */
function compareFieldTypes(site: FieldSite, before: TypeRef, after: TypeRef, what: string): void {
  const { label } = site;
  const verdict = compareTypes(before, after, site.context.pair);
  switch (verdict.kind) {
    case 'same':
      return;
    case 'incompatible':
      report(
        site,
        'breaking',
        'type_changed',
        `${label}: incompatible ${what}type change \`${typeText(before)}\` → \`${typeText(after)}\``,
      );
      return;
    case 'external':
      report(
        site,
        'warning',
        'external_type_changed',
        `${label}: ${what}type changed \`${typeText(before)}\` → \`${typeText(after)}\`, involving a type not declared in this file; check it by hand`,
      );
      return;
    case 'renamed':
      report(
        site,
        'warning',
        'compatible_type_change',
        `${label}: ${what}type renamed \`${typeText(before)}\` → \`${typeText(after)}\`: the same on the wire`,
      );
      return;
    case 'compatible':
      report(
        site,
        'warning',
        'compatible_type_change',
        `${label}: ${what}type changed \`${typeText(before)}\` → \`${typeText(after)}\`: ${verdict.why}`,
      );
      return;
  }
}

/** A map on either side: map to map compares key and value; a map stays readable only as its entry message. */
function compareMapField(site: FieldSite, old: FieldModel, now: FieldModel): void {
  if (old.cardinality === 'map' && now.cardinality === 'map') {
    compareFieldTypes(site, old.keyType ?? old.type, now.keyType ?? now.type, 'map key ');
    compareFieldTypes(site, old.type, now.type, 'map value ');
    return;
  }
  const { label } = site;
  const map = old.cardinality === 'map' ? old : now;
  const other = old.cardinality === 'map' ? now : old;
  if (other.cardinality !== 'repeated' || other.type.kind === 'scalar' || other.type.kind === 'enum') {
    report(
      site,
      'breaking',
      'cardinality_changed',
      `${label}: \`${fieldTypeText(old)}\` → \`${fieldTypeText(now)}\` is not wire-compatible (a map is a repeated entry message)`,
    );
    return;
  }
  if (other.type.kind === 'external') {
    report(
      site,
      'warning',
      'external_type_changed',
      `${label}: \`${fieldTypeText(old)}\` → \`${fieldTypeText(now)}\` involves a type not declared in this file; check it by hand`,
    );
    return;
  }
  if (!isMapEntryFor(site.context, map, other, other === now ? 'head' : 'base')) {
    report(
      site,
      'breaking',
      'cardinality_changed',
      `${label}: \`${fieldTypeText(old)}\` → \`${fieldTypeText(now)}\`: the message is not a map entry (key = 1, value = 2) of matching types`,
    );
  }
}

/** Whether the repeated message field `entries` (on `side`) has the shape of `map`'s entries. */
function isMapEntryFor(
  context: ComparisonContext,
  map: FieldModel,
  entries: FieldModel,
  side: 'head' | 'base',
): boolean {
  // `map<K, V>` is `repeated Entry { K key = 1; V value = 2; }` on the wire.
  const entry = (side === 'head' ? context.pair.head : context.pair.base).messages.get(entries.type.name);
  const keyField = entry?.fields.find((f) => f.id === 1);
  const valueField = entry?.fields.find((f) => f.id === 2);
  return (
    entry !== undefined &&
    keyField?.cardinality === 'singular' &&
    valueField?.cardinality === 'singular' &&
    compareTypes(map.keyType ?? map.type, keyField.type, context.pair).kind !== 'incompatible' &&
    compareTypes(map.type, valueField.type, context.pair).kind !== 'incompatible'
  );
}

/**
 * Singular ↔ repeated: reports the change when readers cannot take it and returns false then, so that the
 * types are compared only for a change the wire accepts.
 */
function cardinalityChangeAccepted(site: FieldSite, old: FieldModel, now: FieldModel): boolean {
  const { label } = site;
  const external = old.type.kind === 'external' || now.type.kind === 'external';
  // A singular reader takes the last element of an expanded repeated numeric; a packed one is a
  // length-delimited blob it cannot read.
  const accepted =
    (lenLike(old.type) && lenLike(now.type)) ||
    (!lenLike(old.type) && !lenLike(now.type) && !old.packed && !now.packed);
  if (accepted) return true;
  if (external) {
    report(
      site,
      'warning',
      'external_type_changed',
      `${label}: ${old.cardinality} → ${now.cardinality} (\`${fieldTypeText(old)}\` → \`${fieldTypeText(now)}\`) involves a type not declared in this file; accepted only if it is a message`,
    );
  } else {
    report(
      site,
      'breaking',
      'cardinality_changed',
      `${label}: ${old.cardinality} → ${now.cardinality} (\`${fieldTypeText(old)}\` → \`${fieldTypeText(now)}\`); accepted only for string, bytes and message fields and unpacked numerics, not for packed numerics`,
    );
  }
  return false;
}

export function fieldTypeText(field: FieldModel): string {
  if (field.cardinality === 'map') return `map<${field.keyType?.name ?? '?'}, ${field.type.name}>`;
  return field.cardinality === 'repeated' ? `repeated ${field.type.name}` : field.type.name;
}
