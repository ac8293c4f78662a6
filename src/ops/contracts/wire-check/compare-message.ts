import type { ComparisonContext } from './comparison-context.js';
import { compareField, fieldTypeText } from './compare-field.js';
import { isReservedNumber, type FieldModel, type MessageModel } from './schema-model.js';

/** Fields matched by number (what the wire carries), then names and reservations checked against it. */
export function compareMessage(context: ComparisonContext, before: MessageModel, after: MessageModel): void {
  const comparison = new MessageComparison(context, before, after);
  for (const old of byNumber(before.fields)) comparison.compareBaseField(old);
  for (const added of byNumber(after.fields)) comparison.checkAddedField(added);
}

const byNumber = (fields: readonly FieldModel[]): FieldModel[] => [...fields].sort((a, b) => a.id - b.id);

/** The two versions of one message, indexed by field number and name, and the findings each field change makes. */
class MessageComparison {
  private readonly beforeById: ReadonlyMap<number, FieldModel>;
  private readonly afterById: ReadonlyMap<number, FieldModel>;
  private readonly beforeByName: ReadonlyMap<string, FieldModel>;
  private readonly afterByName: ReadonlyMap<string, FieldModel>;
  private readonly beforeOneofs: ReadonlySet<string>;

  constructor(
    private readonly context: ComparisonContext,
    private readonly before: MessageModel,
    private readonly after: MessageModel,
  ) {
    this.beforeById = new Map(before.fields.map((f) => [f.id, f]));
    this.afterById = new Map(after.fields.map((f) => [f.id, f]));
    this.beforeByName = new Map(before.fields.map((f) => [f.name, f]));
    this.afterByName = new Map(after.fields.map((f) => [f.name, f]));
    this.beforeOneofs = new Set(
      before.fields.map((f) => f.oneof).filter((o): o is string => o !== undefined),
    );
  }

  private element(field: string): string {
    return `${this.context.qualify(this.after.name)}.${field}`;
  }

  private headKey(field: string): string {
    return `${this.after.name}#${field}`;
  }

  private baseKey(field: string): string {
    return `${this.before.name}#${field}`;
  }

  /** A base field and whatever the head holds at its number. */
  compareBaseField(old: FieldModel): void {
    const now = this.afterById.get(old.id);
    if (!now) {
      this.checkDeletedField(old);
      return;
    }
    if (now.name !== old.name) {
      this.checkNameChange(old, now);
      return;
    }
    compareField(this.context, old, now, this.element(now.name), this.headKey(now.name));
    if (old.oneof !== now.oneof) this.checkOneofChange(old, now);
  }

  /** Gone from its number: fine when reserved, breaking otherwise, and worse when it moved to another number. */
  private checkDeletedField(old: FieldModel): void {
    const { after } = this;
    if (isReservedNumber(after.reserved, old.id) || after.reserved.names.has(old.name)) return;
    const moved = this.afterByName.get(old.name);
    this.context.add(
      'breaking',
      'field_deleted',
      this.element(old.name),
      `field \`${old.name} = ${old.id}\` deleted without \`reserved\`` +
        (moved
          ? ` (it is now \`= ${moved.id}\`: renumbering breaks every reader and writer built from the base)`
          : '') +
        `; add \`reserved ${old.id};\` and \`reserved "${old.name}";\``,
      moved ? this.headKey(moved.name) : this.baseKey(old.name),
      moved ? 'head' : 'base',
    );
  }

  /** Another name at the same number: a rename if the wire still agrees, a reused number if not. */
  private checkNameChange(old: FieldModel, now: FieldModel): void {
    const swapped = this.beforeByName.has(now.name) || this.afterByName.has(old.name);
    const verdict = fieldVerdict(this.context, old, now);
    if (swapped || verdict === 'incompatible') {
      this.context.add(
        'breaking',
        'field_number_reused',
        this.element(now.name),
        `field number ${old.id} reused for another field: \`${old.name}\` ${fieldTypeText(old)} → \`${now.name}\` ${fieldTypeText(now)}` +
          (swapped ? ' (names moved between numbers)' : ''),
        this.headKey(now.name),
        'head',
      );
    } else {
      this.context.add(
        'warning',
        'field_renamed',
        this.element(now.name),
        `field ${old.id} renamed \`${old.name}\` → \`${now.name}\`: the same on the wire; JSON and text-format names change`,
        this.headKey(now.name),
        'head',
      );
    }
  }

  /** Harmless only when the field alone moves into a oneof that is new. */
  private checkOneofChange(old: FieldModel, now: FieldModel): void {
    const intoNewAlone =
      old.oneof === undefined &&
      now.oneof !== undefined &&
      !this.beforeOneofs.has(now.oneof) &&
      this.after.fields.filter((f) => f.oneof === now.oneof && this.beforeById.has(f.id)).length === 1;
    if (intoNewAlone) return;
    const what =
      old.oneof === undefined
        ? `moved into oneof \`${now.oneof}\`, which holds other fields: setting one clears the others`
        : now.oneof === undefined
          ? `moved out of oneof \`${old.oneof}\`: readers built from the base clear it when a sibling is set`
          : `moved from oneof \`${old.oneof}\` to \`${now.oneof}\``;
    this.context.add(
      'breaking',
      'oneof_changed',
      this.element(now.name),
      `field \`${now.name} = ${now.id}\` ${what}`,
      this.headKey(now.name),
      'head',
    );
  }

  /** A head field at a new number: it must not take a number or a name the base reserved. */
  checkAddedField(added: FieldModel): void {
    const { before } = this;
    if (this.beforeById.has(added.id)) return;
    if (isReservedNumber(before.reserved, added.id)) {
      this.context.add(
        'breaking',
        'reserved_number_reused',
        this.element(added.name),
        `field \`${added.name} = ${added.id}\` reuses a number reserved in the base: old data with that number is read as the new field`,
        this.headKey(added.name),
        'head',
      );
    } else if (before.reserved.names.has(added.name) && !this.beforeByName.has(added.name)) {
      this.context.add(
        'warning',
        'reserved_name_reused',
        this.element(added.name),
        `field \`${added.name}\` reuses a name reserved in the base: JSON and text-format data may mean the old field`,
        this.headKey(added.name),
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
