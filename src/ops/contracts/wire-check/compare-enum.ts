import type { ComparisonContext } from './comparison-context.js';
import { isReservedNumber, type EnumModel } from './schema-model.js';

type EnumValue = EnumModel['values'][number];

/** Enum values matched by name and by number: a number is what the wire carries, a name what JSON does. */
export function compareEnum(context: ComparisonContext, before: EnumModel, after: EnumModel): void {
  const comparison = new EnumComparison(context, before, after);
  for (const value of before.values) comparison.compareBaseValue(value);
  for (const value of after.values) comparison.checkAddedValue(value);
}

const numberOf = (e: EnumModel): Map<string, number> => new Map(e.values.map((v) => [v.name, v.number]));

const namesAt = (e: EnumModel): Map<number, string[]> => {
  const map = new Map<number, string[]>();
  for (const v of e.values) (map.get(v.number) ?? map.set(v.number, []).get(v.number))?.push(v.name);
  return map;
};

/** The two versions of one enum, indexed by value name and by number, and the findings each change makes. */
class EnumComparison {
  private readonly beforeNumber: ReadonlyMap<string, number>;
  private readonly afterNumber: ReadonlyMap<string, number>;
  private readonly beforeAt: ReadonlyMap<number, readonly string[]>;
  private readonly afterAt: ReadonlyMap<number, readonly string[]>;

  constructor(
    private readonly context: ComparisonContext,
    private readonly before: EnumModel,
    private readonly after: EnumModel,
  ) {
    this.beforeNumber = numberOf(before);
    this.afterNumber = numberOf(after);
    this.beforeAt = namesAt(before);
    this.afterAt = namesAt(after);
  }

  private element(value: string): string {
    return `${this.context.qualify(this.after.name)}.${value}`;
  }

  private headKey(value: string): string {
    return `${this.after.name}#${value}`;
  }

  private baseKey(value: string): string {
    return `${this.before.name}#${value}`;
  }

  /** A base value: kept, moved to another number, replaced at its number by other names, or deleted. */
  compareBaseValue(value: EnumValue): void {
    const moved = this.afterNumber.get(value.name);
    if (moved === value.number) return;
    const occupants = this.afterAt.get(value.number) ?? [];
    if (moved !== undefined) {
      this.reportRenumbered(value, moved, occupants);
      return;
    }
    if (occupants.length > 0) {
      this.reportReplacedAtNumber(value, occupants);
      return;
    }
    if (isReservedNumber(this.after.reserved, value.number) || this.after.reserved.names.has(value.name))
      return;
    this.context.add(
      'breaking',
      'enum_value_deleted',
      this.element(value.name),
      `enum value \`${value.name} = ${value.number}\` deleted without \`reserved\`; add \`reserved ${value.number};\` and \`reserved "${value.name}";\``,
      this.baseKey(value.name),
      'base',
    );
  }

  /** The name lives on at another number; worse when other names took its old number. */
  private reportRenumbered(value: EnumValue, moved: number, occupants: readonly string[]): void {
    const others = occupants.filter((n) => n !== value.name);
    this.context.add(
      'breaking',
      others.length > 0 ? 'enum_number_reused' : 'enum_value_renumbered',
      this.element(value.name),
      others.length > 0
        ? `enum number ${value.number} now names \`${others.join('`, `')}\` (was \`${value.name}\`, now ${moved}): old data changes meaning`
        : `enum value \`${value.name}\` renumbered ${value.number} → ${moved}: a ${value.number} written by code built from the base is unknown to new readers, and a ${moved} is unknown to old ones`,
      this.headKey(value.name),
      'head',
    );
  }

  /**
   * The name is gone and other names hold its number: a removed alias or a rename when they are the same
   * value as before, a reused number when those names had other numbers in the base.
   */
  private reportReplacedAtNumber(value: EnumValue, occupants: readonly string[]): void {
    const sameNumberBefore = occupants.filter((n) => this.beforeNumber.get(n) === value.number);
    const fresh = occupants.filter((n) => !this.beforeNumber.has(n));
    if (sameNumberBefore.length > 0) {
      this.context.add(
        'warning',
        'enum_value_renamed',
        this.element(value.name),
        `enum alias \`${value.name}\` removed; ${value.number} is still \`${sameNumberBefore.join('`, `')}\`: JSON and text-format data using the old name no longer parse`,
        this.headKey(sameNumberBefore[0] ?? value.name),
        'head',
      );
    } else if (fresh.length > 0) {
      this.context.add(
        'warning',
        'enum_value_renamed',
        this.element(fresh[0] ?? value.name),
        `enum value ${value.number} renamed \`${value.name}\` → \`${fresh.join('`, `')}\`: the same on the wire; JSON and text-format names change`,
        this.headKey(fresh[0] ?? value.name),
        'head',
      );
    } else {
      this.context.add(
        'breaking',
        'enum_number_reused',
        this.element(value.name),
        `enum number ${value.number} now names \`${occupants.join('`, `')}\` (was \`${value.name}\`): old data changes meaning`,
        this.headKey(occupants[0] ?? value.name),
        'head',
      );
    }
  }

  /** A head value at a number new to the enum: it must not take a number or a name the base reserved. */
  checkAddedValue(value: EnumValue): void {
    const { before } = this;
    if (this.beforeAt.has(value.number)) return;
    if (isReservedNumber(before.reserved, value.number)) {
      this.context.add(
        'breaking',
        'enum_reserved_number_reused',
        this.element(value.name),
        `enum value \`${value.name} = ${value.number}\` reuses a number reserved in the base: old data with that number is read as \`${value.name}\``,
        this.headKey(value.name),
        'head',
      );
    } else if (before.reserved.names.has(value.name) && !this.beforeNumber.has(value.name)) {
      this.context.add(
        'warning',
        'reserved_name_reused',
        this.element(value.name),
        `enum value \`${value.name}\` reuses a name reserved in the base: JSON and text-format data may mean the old value`,
        this.headKey(value.name),
        'head',
      );
    }
  }
}
