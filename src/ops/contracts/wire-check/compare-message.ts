import type { ComparisonContext } from './comparison-context.js';
import { compareField, fieldTypeText } from './compare-field.js';
import { isReservedNumber, type FieldModel, type MessageModel } from './schema-model.js';

/** Fields matched by number (what the wire carries), then names and reservations checked against it. */
export function compareMessage(context: ComparisonContext, before: MessageModel, after: MessageModel): void {
  const element = (f: string) => `${context.qualify(after.name)}.${f}`;
  const headKey = (f: string) => `${after.name}#${f}`;
  const baseKey = (f: string) => `${before.name}#${f}`;
  const beforeById = new Map(before.fields.map((f) => [f.id, f]));
  const afterById = new Map(after.fields.map((f) => [f.id, f]));
  const beforeByName = new Map(before.fields.map((f) => [f.name, f]));
  const afterByName = new Map(after.fields.map((f) => [f.name, f]));
  const beforeOneofs = new Set(before.fields.map((f) => f.oneof).filter((o): o is string => o !== undefined));

  for (const old of [...before.fields].sort((a, b) => a.id - b.id)) {
    const now = afterById.get(old.id);
    if (!now) {
      if (isReservedNumber(after.reserved, old.id) || after.reserved.names.has(old.name)) continue;
      const moved = afterByName.get(old.name);
      context.add(
        'breaking',
        'field_deleted',
        element(old.name),
        `field \`${old.name} = ${old.id}\` deleted without \`reserved\`` +
          (moved
            ? ` (it is now \`= ${moved.id}\`: renumbering breaks every reader and writer built from the base)`
            : '') +
          `; add \`reserved ${old.id};\` and \`reserved "${old.name}";\``,
        moved ? headKey(moved.name) : baseKey(old.name),
        moved ? 'head' : 'base',
      );
      continue;
    }
    if (now.name !== old.name) {
      const swapped = beforeByName.has(now.name) || afterByName.has(old.name);
      const verdict = fieldVerdict(context, old, now);
      if (swapped || verdict === 'incompatible') {
        context.add(
          'breaking',
          'field_number_reused',
          element(now.name),
          `field number ${old.id} reused for another field: \`${old.name}\` ${fieldTypeText(old)} → \`${now.name}\` ${fieldTypeText(now)}` +
            (swapped ? ' (names moved between numbers)' : ''),
          headKey(now.name),
          'head',
        );
      } else {
        context.add(
          'warning',
          'field_renamed',
          element(now.name),
          `field ${old.id} renamed \`${old.name}\` → \`${now.name}\`: the same on the wire; JSON and text-format names change`,
          headKey(now.name),
          'head',
        );
      }
      continue;
    }
    compareField(context, old, now, element(now.name), headKey(now.name));
    if (old.oneof !== now.oneof) {
      const intoNewAlone =
        old.oneof === undefined &&
        now.oneof !== undefined &&
        !beforeOneofs.has(now.oneof) &&
        after.fields.filter((f) => f.oneof === now.oneof && beforeById.has(f.id)).length === 1;
      if (!intoNewAlone) {
        const what =
          old.oneof === undefined
            ? `moved into oneof \`${now.oneof}\`, which holds other fields: setting one clears the others`
            : now.oneof === undefined
              ? `moved out of oneof \`${old.oneof}\`: readers built from the base clear it when a sibling is set`
              : `moved from oneof \`${old.oneof}\` to \`${now.oneof}\``;
        context.add(
          'breaking',
          'oneof_changed',
          element(now.name),
          `field \`${now.name} = ${now.id}\` ${what}`,
          headKey(now.name),
          'head',
        );
      }
    }
  }
  for (const added of [...after.fields].sort((a, b) => a.id - b.id)) {
    if (beforeById.has(added.id)) continue;
    if (isReservedNumber(before.reserved, added.id)) {
      context.add(
        'breaking',
        'reserved_number_reused',
        element(added.name),
        `field \`${added.name} = ${added.id}\` reuses a number reserved in the base: old data with that number is read as the new field`,
        headKey(added.name),
        'head',
      );
    } else if (before.reserved.names.has(added.name) && !beforeByName.has(added.name)) {
      context.add(
        'warning',
        'reserved_name_reused',
        element(added.name),
        `field \`${added.name}\` reuses a name reserved in the base: JSON and text-format data may mean the old field`,
        headKey(added.name),
        'head',
      );
    }
  }
}

/** Type and cardinality together, as far as a rename decision needs it. */
function fieldVerdict(context: ComparisonContext, old: FieldModel, now: FieldModel): 'ok' | 'incompatible' {
  const findings = context.findings.length;
  compareField(context, old, now, '', '');
  const produced = context.findings.splice(findings);
  return produced.some((f) => f.severity === 'breaking') ? 'incompatible' : 'ok';
}
