import type { ComparisonContext } from './comparison-context.js';
import { isReservedNumber, type EnumModel } from './schema-model.js';

/** Enum values matched by name and by number: a number is what the wire carries, a name what JSON does. */
export function compareEnum(context: ComparisonContext, before: EnumModel, after: EnumModel): void {
  const element = (v: string) => `${context.qualify(after.name)}.${v}`;
  const headKey = (v: string) => `${after.name}#${v}`;
  const baseKey = (v: string) => `${before.name}#${v}`;
  const numberOf = (e: EnumModel) => new Map(e.values.map((v) => [v.name, v.number]));
  const namesAt = (e: EnumModel) => {
    const map = new Map<number, string[]>();
    for (const v of e.values) (map.get(v.number) ?? map.set(v.number, []).get(v.number))?.push(v.name);
    return map;
  };
  const beforeNumber = numberOf(before);
  const afterNumber = numberOf(after);
  const beforeAt = namesAt(before);
  const afterAt = namesAt(after);

  for (const value of before.values) {
    const moved = afterNumber.get(value.name);
    if (moved === value.number) continue;
    const occupants = afterAt.get(value.number) ?? [];
    if (moved !== undefined) {
      const others = occupants.filter((n) => n !== value.name);
      context.add(
        'breaking',
        others.length > 0 ? 'enum_number_reused' : 'enum_value_renumbered',
        element(value.name),
        others.length > 0
          ? `enum number ${value.number} now names \`${others.join('`, `')}\` (was \`${value.name}\`, now ${moved}): old data changes meaning`
          : `enum value \`${value.name}\` renumbered ${value.number} → ${moved}: a ${value.number} written by code built from the base is unknown to new readers, and a ${moved} is unknown to old ones`,
        headKey(value.name),
        'head',
      );
      continue;
    }
    if (occupants.length > 0) {
      const sameNumberBefore = occupants.filter((n) => beforeNumber.get(n) === value.number);
      const fresh = occupants.filter((n) => !beforeNumber.has(n));
      if (sameNumberBefore.length > 0) {
        context.add(
          'warning',
          'enum_value_renamed',
          element(value.name),
          `enum alias \`${value.name}\` removed; ${value.number} is still \`${sameNumberBefore.join('`, `')}\`: JSON and text-format data using the old name no longer parse`,
          headKey(sameNumberBefore[0] ?? value.name),
          'head',
        );
      } else if (fresh.length > 0) {
        context.add(
          'warning',
          'enum_value_renamed',
          element(fresh[0] ?? value.name),
          `enum value ${value.number} renamed \`${value.name}\` → \`${fresh.join('`, `')}\`: the same on the wire; JSON and text-format names change`,
          headKey(fresh[0] ?? value.name),
          'head',
        );
      } else {
        context.add(
          'breaking',
          'enum_number_reused',
          element(value.name),
          `enum number ${value.number} now names \`${occupants.join('`, `')}\` (was \`${value.name}\`): old data changes meaning`,
          headKey(occupants[0] ?? value.name),
          'head',
        );
      }
      continue;
    }
    if (isReservedNumber(after.reserved, value.number) || after.reserved.names.has(value.name)) continue;
    context.add(
      'breaking',
      'enum_value_deleted',
      element(value.name),
      `enum value \`${value.name} = ${value.number}\` deleted without \`reserved\`; add \`reserved ${value.number};\` and \`reserved "${value.name}";\``,
      baseKey(value.name),
      'base',
    );
  }
  for (const value of after.values) {
    if (beforeAt.has(value.number)) continue;
    if (isReservedNumber(before.reserved, value.number)) {
      context.add(
        'breaking',
        'enum_reserved_number_reused',
        element(value.name),
        `enum value \`${value.name} = ${value.number}\` reuses a number reserved in the base: old data with that number is read as \`${value.name}\``,
        headKey(value.name),
        'head',
      );
    } else if (before.reserved.names.has(value.name) && !beforeNumber.has(value.name)) {
      context.add(
        'warning',
        'reserved_name_reused',
        element(value.name),
        `enum value \`${value.name}\` reuses a name reserved in the base: JSON and text-format data may mean the old value`,
        headKey(value.name),
        'head',
      );
    }
  }
}
