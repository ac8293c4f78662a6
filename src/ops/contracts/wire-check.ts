import { readFileSync, statSync } from 'node:fs';
import protobuf from 'protobufjs';
import { ToolError } from '../../core/errors.js';
import { locateRepository, resolveBase, showAtCommit, type ResolvedBase } from './git-show.js';
import { compareStrings as cmp } from '../../core/order.js';

/**
 * The wire-format check: a `.proto` in the working tree against the same path at a git base. Both versions
 * are parsed with protobufjs and compared element by element, by field and enum numbers (what travels on
 * the wire) rather than by names (what the code sees).
 */

/** The indexing guard's limit for schema files: both versions must pass it, as the indexed one did. */
export const MAX_PROTO_BYTES = 1_572_864;

export const BREAKING_LABEL = 'WIRE_FORMAT_BREAKING_CHANGE';

export type FindingRule =
  | 'field_number_reused'
  | 'reserved_number_reused'
  | 'type_changed'
  | 'cardinality_changed'
  | 'field_deleted'
  | 'oneof_changed'
  | 'enum_number_reused'
  | 'enum_value_renumbered'
  | 'enum_value_deleted'
  | 'enum_reserved_number_reused'
  | 'rpc_removed'
  | 'rpc_changed'
  | 'package_changed'
  | 'field_renamed'
  | 'enum_value_renamed'
  | 'reserved_name_reused'
  | 'compatible_type_change'
  | 'external_type_changed'
  | 'type_removed';

export interface WireFinding {
  readonly severity: 'breaking' | 'warning';
  readonly rule: FindingRule;
  /** What changed: `shop.v1.Money.units`, `shop.v1.Status.STATUS_DONE`, `shop.v1.PaymentService/Pay`. */
  readonly element: string;
  readonly message: string;
  /** Line in the working-tree file, or in the base file when the element no longer exists (`side: 'base'`). */
  readonly line?: number;
  readonly side: 'head' | 'base';
}

// ---------------------------------------------------------------------------------------------------------
// Schema model

type TypeRef =
  | { readonly kind: 'scalar'; readonly name: string }
  | { readonly kind: 'message' | 'enum'; readonly name: string }
  | { readonly kind: 'external'; readonly name: string };

interface FieldModel {
  readonly name: string;
  readonly id: number;
  readonly cardinality: 'singular' | 'repeated' | 'map';
  readonly type: TypeRef;
  /** Map key type, for `map<K, V>` (then `type` is V). */
  readonly keyType?: TypeRef;
  /** The real (not proto3-optional synthetic) oneof holding the field. */
  readonly oneof?: string;
  /** A repeated numeric or enum field written in the packed (length-delimited) encoding. */
  readonly packed: boolean;
}

interface ReservedModel {
  readonly ranges: readonly (readonly [number, number])[];
  readonly names: ReadonlySet<string>;
}

interface MessageModel {
  /** Name relative to the package: `Outer.Inner`. */
  readonly name: string;
  readonly fields: readonly FieldModel[];
  readonly reserved: ReservedModel;
}

interface EnumModel {
  readonly name: string;
  readonly values: readonly { readonly name: string; readonly number: number }[];
  readonly reserved: ReservedModel;
}

interface RpcModel {
  readonly name: string;
  readonly request: TypeRef;
  readonly response: TypeRef;
  readonly clientStreaming: boolean;
  readonly serverStreaming: boolean;
}

interface ServiceModel {
  readonly name: string;
  readonly rpcs: readonly RpcModel[];
}

interface SchemaModel {
  readonly package: string;
  readonly messages: ReadonlyMap<string, MessageModel>;
  readonly enums: ReadonlyMap<string, EnumModel>;
  readonly services: ReadonlyMap<string, ServiceModel>;
}

const SCALARS = new Set([
  'double',
  'float',
  'int32',
  'int64',
  'uint32',
  'uint64',
  'sint32',
  'sint64',
  'fixed32',
  'fixed64',
  'sfixed32',
  'sfixed64',
  'bool',
  'string',
  'bytes',
]);

type ReflectionNode = protobuf.ReflectionObject & { nestedArray?: protobuf.ReflectionObject[] };

function reservedOf(reserved: (number[] | string)[] | undefined): ReservedModel {
  const ranges: [number, number][] = [];
  const names = new Set<string>();
  for (const entry of reserved ?? []) {
    if (typeof entry === 'string') names.add(entry);
    else if (Array.isArray(entry) && typeof entry[0] === 'number')
      ranges.push([entry[0], entry[1] ?? entry[0]]);
  }
  return { ranges, names };
}

const isReservedNumber = (reserved: ReservedModel, n: number): boolean =>
  reserved.ranges.some(([from, to]) => n >= from && n <= to);

/** Parses one version; throws an Error whose message names the line when protobufjs rejects the text. */
export function parseSchema(text: string): SchemaModel {
  const parsed = protobuf.parse(text, { keepCase: true });
  const pkg = parsed.package ?? '';
  const packedByDefault = packedDefaultOf(text);
  const relative = (fullName: string): string => {
    const bare = fullName.replace(/^\./, '');
    return pkg && bare.startsWith(`${pkg}.`) ? bare.slice(pkg.length + 1) : bare;
  };

  // Every declared type by full name, for scope resolution of field types.
  const declared = new Map<string, 'message' | 'enum'>();
  const walk = (node: ReflectionNode, visit: (n: protobuf.ReflectionObject) => void) => {
    for (const child of node.nestedArray ?? []) {
      visit(child);
      if (child instanceof protobuf.Namespace) walk(child as ReflectionNode, visit);
    }
  };
  walk(parsed.root as ReflectionNode, (n) => {
    if (n instanceof protobuf.Type) declared.set(n.fullName.slice(1), 'message');
    else if (n instanceof protobuf.Enum) declared.set(n.fullName.slice(1), 'enum');
  });

  /** Protobuf scoping: innermost scope outwards, then the name as written; a leading dot is absolute. */
  const resolve = (written: string, scope: string): TypeRef => {
    if (SCALARS.has(written)) return { kind: 'scalar', name: written };
    if (written.startsWith('.')) {
      const kind = declared.get(written.slice(1));
      return kind ? { kind, name: relative(written) } : { kind: 'external', name: written.slice(1) };
    }
    const parts = scope ? scope.split('.') : [];
    for (let i = parts.length; i >= 0; i--) {
      const candidate = [...parts.slice(0, i), written].join('.');
      const kind = declared.get(candidate);
      if (kind) return { kind, name: relative(candidate) };
    }
    return { kind: 'external', name: written };
  };

  const messages = new Map<string, MessageModel>();
  const enums = new Map<string, EnumModel>();
  const services = new Map<string, ServiceModel>();
  walk(parsed.root as ReflectionNode, (n) => {
    if (n instanceof protobuf.Type) {
      const full = n.fullName.slice(1);
      const fields: FieldModel[] = [];
      for (const field of n.fieldsArray) {
        // Extensions declared elsewhere show up here under their full name; they are not this message's fields.
        if (field.name.startsWith('.')) continue;
        const oneof = field.partOf && !field.partOf.options?.proto3_optional ? field.partOf.name : undefined;
        const map = field instanceof protobuf.MapField;
        const options = (field.options ?? {}) as Record<string, unknown>;
        const encoding = (options.features as Record<string, unknown> | undefined)?.repeated_field_encoding;
        const packed =
          field.repeated &&
          !map &&
          (options.packed === true ||
            encoding === 'PACKED' ||
            (packedByDefault && options.packed !== false && encoding !== 'EXPANDED'));
        fields.push({
          name: field.name,
          id: field.id,
          cardinality: map ? 'map' : field.repeated ? 'repeated' : 'singular',
          type: resolve(field.type, full),
          ...(map
            ? { keyType: { kind: 'scalar', name: (field as protobuf.MapField).keyType } as TypeRef }
            : {}),
          ...(oneof ? { oneof } : {}),
          packed,
        });
      }
      messages.set(relative(full), { name: relative(full), fields, reserved: reservedOf(n.reserved) });
    } else if (n instanceof protobuf.Enum) {
      const full = n.fullName.slice(1);
      enums.set(relative(full), {
        name: relative(full),
        values: Object.entries(n.values).map(([name, number]) => ({ name, number })),
        reserved: reservedOf(n.reserved),
      });
    } else if (n instanceof protobuf.Service) {
      const full = n.fullName.slice(1);
      const scope = full.split('.').slice(0, -1).join('.');
      services.set(relative(full), {
        name: relative(full),
        rpcs: n.methodsArray.map((m) => ({
          name: m.name,
          request: resolve(m.requestType, scope),
          response: resolve(m.responseType, scope),
          clientStreaming: Boolean(m.requestStream),
          serverStreaming: Boolean(m.responseStream),
        })),
      });
    }
  });
  return { package: pkg, messages, enums, services };
}

/**
 * Whether repeated numerics are packed unless a field says otherwise: not in proto2 (nor without a
 * `syntax`), yes in proto3 and editions unless the file sets `features.repeated_field_encoding = EXPANDED`.
 */
function packedDefaultOf(text: string): boolean {
  const clean = blankCommentsAndStrings(text, true);
  const syntax = /\b(syntax|edition)\s*=\s*["']([^"']*)["']/.exec(clean);
  if (!syntax || (syntax[1] === 'syntax' && syntax[2] === 'proto2')) return false;
  if (
    syntax[1] === 'edition' &&
    /^\s*option\s+features\.repeated_field_encoding\s*=\s*EXPANDED\s*;/m.test(clean)
  )
    return false;
  return true;
}

// ---------------------------------------------------------------------------------------------------------
// Line positions (protobufjs keeps none): a small scanner over the text with comments and strings blanked.

interface LineIndex {
  /** `Outer.Inner` (messages, enums), `Service`, `Service/Rpc`, `Message#field`, `Enum#VALUE`. */
  readonly lines: ReadonlyMap<string, number>;
}

function blankCommentsAndStrings(text: string, keepStrings = false): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') {
        out += ' ';
        i++;
      }
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if ((c === '"' || c === "'") && !keepStrings) {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += `${c}${' '.repeat(Math.max(0, Math.min(j, text.length) - i - 1))}${j < text.length ? c : ''}`;
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

export function indexLines(text: string): LineIndex {
  const lines = new Map<string, number>();
  const clean = blankCommentsAndStrings(text);
  const tokens: { text: string; line: number }[] = [];
  const pattern = /[A-Za-z_][\w.]*|-?(?:0[xX][0-9a-fA-F]+|\d+)|\S/g;
  clean.split('\n').forEach((lineText, index) => {
    for (const match of lineText.matchAll(pattern)) tokens.push({ text: match[0], line: index + 1 });
  });
  type Block = { kind: 'message' | 'enum' | 'service' | 'oneof' | 'other'; path: string };
  const stack: Block[] = [];
  const container = (): Block | undefined => stack[stack.length - 1];
  const typePath = (): string =>
    stack
      .filter((b) => b.kind === 'message' || b.kind === 'enum')
      .map((b) => b.path)
      .join('.');
  let statementStart = true;
  let skipStatement = false;
  let brackets = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as { text: string; line: number };
    const t = token.text;
    const starting = statementStart;
    statementStart = false;
    if (t === ';' || t === '{' || t === '}') {
      statementStart = true;
      skipStatement = false;
    }
    if (t === '[') brackets++;
    else if (t === ']') brackets = Math.max(0, brackets - 1);
    if (starting && (t === 'option' || t === 'reserved' || t === 'extensions')) skipStatement = true;
    const name = tokens[i + 1]?.text;
    if (
      ['message', 'enum', 'service', 'oneof'].includes(t) &&
      name &&
      tokens[i + 2]?.text === '{' &&
      starting
    ) {
      const kind = t as Block['kind'];
      const block: Block = { kind, path: name };
      if (kind === 'message' || kind === 'enum') {
        const parent = typePath();
        lines.set(parent ? `${parent}.${name}` : name, token.line);
      } else if (kind === 'service') {
        lines.set(name, token.line);
      }
      stack.push(block);
      i += 2;
      statementStart = true;
      continue;
    }
    if (t === '{') stack.push({ kind: 'other', path: '' });
    else if (t === '}') stack.pop();
    else if (t === 'rpc' && starting && name && container()?.kind === 'service') {
      lines.set(`${container()?.path}/${name}`, token.line);
    } else if (
      t === '=' &&
      !skipStatement &&
      brackets === 0 &&
      i > 0 &&
      /^-?(?:0[xX][0-9a-fA-F]+|\d+)$/.test(tokens[i + 1]?.text ?? '')
    ) {
      const before = tokens[i - 1]?.text ?? '';
      const inner = container();
      const owner = typePath();
      if (
        /^[A-Za-z_]\w*$/.test(before) &&
        owner &&
        inner &&
        inner.kind !== 'other' &&
        inner.kind !== 'service'
      ) {
        const key = `${owner}#${before}`;
        if (!lines.has(key)) lines.set(key, tokens[i - 1]?.line ?? token.line);
      }
    }
  }
  return { lines };
}

// ---------------------------------------------------------------------------------------------------------
// Comparison

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

const typeText = (type: TypeRef): string => type.name;
const sameType = (a: TypeRef, b: TypeRef): boolean => a.kind === b.kind && a.name === b.name;

type TypeVerdict =
  | { kind: 'same' }
  | { kind: 'compatible'; why: string }
  | { kind: 'external' }
  | { kind: 'incompatible' }
  | { kind: 'renamed' };

interface Pair {
  readonly base: SchemaModel;
  readonly head: SchemaModel;
}

/** Whether a value written as `before` reads back as `after`, by protobuf's published compatibility rules. */
function compareTypes(before: TypeRef, after: TypeRef, pair: Pair): TypeVerdict {
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

const lenLike = (t: TypeRef): boolean => wireClassOf(t) === 'len';

class Comparison {
  readonly findings: WireFinding[] = [];
  constructor(
    private readonly pair: Pair,
    private readonly headLines: LineIndex,
    private readonly baseLines: LineIndex,
  ) {}

  private qualify(name: string): string {
    return this.pair.head.package ? `${this.pair.head.package}.${name}` : name;
  }

  private add(
    severity: WireFinding['severity'],
    rule: FindingRule,
    element: string,
    message: string,
    key: string,
    side: 'head' | 'base',
  ): void {
    const line = (side === 'head' ? this.headLines : this.baseLines).lines.get(key);
    this.findings.push({ severity, rule, element, message, side, ...(line !== undefined ? { line } : {}) });
  }

  run(): WireFinding[] {
    const { base, head } = this.pair;
    if (base.package !== head.package) {
      const hasServices = base.services.size > 0;
      this.add(
        hasServices ? 'breaking' : 'warning',
        'package_changed',
        head.package || '(no package)',
        `package changed \`${base.package || '(none)'}\` → \`${head.package || '(none)'}\`: every fully-qualified name changes` +
          (hasServices ? ' (gRPC method paths, `Any` type URLs)' : ' (`Any` type URLs, JSON type names)'),
        '',
        'head',
      );
    }
    for (const [name, message] of sorted(base.messages)) {
      const now = head.messages.get(name);
      if (now) this.compareMessage(message, now);
      else
        this.add(
          'warning',
          'type_removed',
          this.qualify(name),
          `message \`${name}\` removed: not a wire break by itself, but every file that imports it stops compiling; fields that used it are reported on their own`,
          name,
          'base',
        );
    }
    for (const [name, en] of sorted(base.enums)) {
      const now = head.enums.get(name);
      if (now) this.compareEnum(en, now);
      else
        this.add(
          'warning',
          'type_removed',
          this.qualify(name),
          `enum \`${name}\` removed: not a wire break by itself, but every file that imports it stops compiling; fields that used it are reported on their own`,
          name,
          'base',
        );
    }
    for (const [name, service] of sorted(base.services))
      this.compareService(service, head.services.get(name));
    return this.findings.sort(
      (a, b) =>
        (a.severity === b.severity ? 0 : a.severity === 'breaking' ? -1 : 1) ||
        (a.line ?? 0) - (b.line ?? 0) ||
        cmp(a.element, b.element) ||
        cmp(a.message, b.message),
    );
  }

  private compareMessage(before: MessageModel, after: MessageModel): void {
    const element = (f: string) => `${this.qualify(after.name)}.${f}`;
    const headKey = (f: string) => `${after.name}#${f}`;
    const baseKey = (f: string) => `${before.name}#${f}`;
    const beforeById = new Map(before.fields.map((f) => [f.id, f]));
    const afterById = new Map(after.fields.map((f) => [f.id, f]));
    const beforeByName = new Map(before.fields.map((f) => [f.name, f]));
    const afterByName = new Map(after.fields.map((f) => [f.name, f]));
    const beforeOneofs = new Set(
      before.fields.map((f) => f.oneof).filter((o): o is string => o !== undefined),
    );

    for (const old of [...before.fields].sort((a, b) => a.id - b.id)) {
      const now = afterById.get(old.id);
      if (!now) {
        if (isReservedNumber(after.reserved, old.id) || after.reserved.names.has(old.name)) continue;
        const moved = afterByName.get(old.name);
        this.add(
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
        const verdict = this.fieldVerdict(old, now);
        if (swapped || verdict === 'incompatible') {
          this.add(
            'breaking',
            'field_number_reused',
            element(now.name),
            `field number ${old.id} reused for another field: \`${old.name}\` ${fieldTypeText(old)} → \`${now.name}\` ${fieldTypeText(now)}` +
              (swapped ? ' (names moved between numbers)' : ''),
            headKey(now.name),
            'head',
          );
        } else {
          this.add(
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
      this.compareField(old, now, element(now.name), headKey(now.name));
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
          this.add(
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
        this.add(
          'breaking',
          'reserved_number_reused',
          element(added.name),
          `field \`${added.name} = ${added.id}\` reuses a number reserved in the base: old data with that number is read as the new field`,
          headKey(added.name),
          'head',
        );
      } else if (before.reserved.names.has(added.name) && !beforeByName.has(added.name)) {
        this.add(
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
  private fieldVerdict(old: FieldModel, now: FieldModel): 'ok' | 'incompatible' {
    const findings = this.findings.length;
    this.compareField(old, now, '', '');
    const produced = this.findings.splice(findings);
    return produced.some((f) => f.severity === 'breaking') ? 'incompatible' : 'ok';
  }

  private compareField(old: FieldModel, now: FieldModel, element: string, key: string): void {
    const label = `field \`${now.name} = ${now.id}\``;
    const breaking = (rule: FindingRule, message: string) =>
      this.add('breaking', rule, element, message, key, 'head');
    const typeCheck = (before: TypeRef, after: TypeRef, what: string) => {
      const verdict = compareTypes(before, after, this.pair);
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
          this.add(
            'warning',
            'external_type_changed',
            element,
            `${label}: ${what}type changed \`${typeText(before)}\` → \`${typeText(after)}\`, involving a type not declared in this file; check it by hand`,
            key,
            'head',
          );
          return;
        case 'renamed':
          this.add(
            'warning',
            'compatible_type_change',
            element,
            `${label}: ${what}type renamed \`${typeText(before)}\` → \`${typeText(after)}\`: the same on the wire`,
            key,
            'head',
          );
          return;
        case 'compatible':
          this.add(
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
        this.add(
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
      const entry = (other === now ? this.pair.head : this.pair.base).messages.get(other.type.name);
      const keyField = entry?.fields.find((f) => f.id === 1);
      const valueField = entry?.fields.find((f) => f.id === 2);
      const ok =
        entry !== undefined &&
        keyField?.cardinality === 'singular' &&
        valueField?.cardinality === 'singular' &&
        compareTypes(map.keyType ?? map.type, keyField.type, this.pair).kind !== 'incompatible' &&
        compareTypes(map.type, valueField.type, this.pair).kind !== 'incompatible';
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
        this.add(
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

  private compareEnum(before: EnumModel, after: EnumModel): void {
    const element = (v: string) => `${this.qualify(after.name)}.${v}`;
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
        this.add(
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
          this.add(
            'warning',
            'enum_value_renamed',
            element(value.name),
            `enum alias \`${value.name}\` removed; ${value.number} is still \`${sameNumberBefore.join('`, `')}\`: JSON and text-format data using the old name no longer parse`,
            headKey(sameNumberBefore[0] ?? value.name),
            'head',
          );
        } else if (fresh.length > 0) {
          this.add(
            'warning',
            'enum_value_renamed',
            element(fresh[0] ?? value.name),
            `enum value ${value.number} renamed \`${value.name}\` → \`${fresh.join('`, `')}\`: the same on the wire; JSON and text-format names change`,
            headKey(fresh[0] ?? value.name),
            'head',
          );
        } else {
          this.add(
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
      this.add(
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
        this.add(
          'breaking',
          'enum_reserved_number_reused',
          element(value.name),
          `enum value \`${value.name} = ${value.number}\` reuses a number reserved in the base: old data with that number is read as \`${value.name}\``,
          headKey(value.name),
          'head',
        );
      } else if (before.reserved.names.has(value.name) && !beforeNumber.has(value.name)) {
        this.add(
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

  private compareService(before: ServiceModel, after: ServiceModel | undefined): void {
    const qualified = this.qualify(before.name);
    if (!after) {
      this.add(
        'breaking',
        'rpc_removed',
        qualified,
        `service \`${before.name}\` removed: its clients get UNIMPLEMENTED`,
        before.name,
        'base',
      );
      return;
    }
    const afterRpcs = new Map(after.rpcs.map((r) => [r.name, r]));
    for (const rpc of before.rpcs) {
      const element = `${qualified}/${rpc.name}`;
      const key = `${after.name}/${rpc.name}`;
      const now = afterRpcs.get(rpc.name);
      if (!now) {
        this.add(
          'breaking',
          'rpc_removed',
          element,
          `rpc \`${rpc.name}\` removed: its clients get UNIMPLEMENTED`,
          `${before.name}/${rpc.name}`,
          'base',
        );
        continue;
      }
      if (rpc.clientStreaming !== now.clientStreaming || rpc.serverStreaming !== now.serverStreaming) {
        this.add(
          'breaking',
          'rpc_changed',
          element,
          `rpc \`${rpc.name}\` changed from ${streamingText(rpc)} to ${streamingText(now)}`,
          key,
          'head',
        );
      }
      for (const [side, beforeType, afterType] of [
        ['request', rpc.request, now.request],
        ['response', rpc.response, now.response],
      ] as const) {
        const verdict = compareTypes(beforeType, afterType, this.pair);
        if (verdict.kind === 'same') continue;
        const text = `rpc \`${rpc.name}\` ${side} type changed \`${typeText(beforeType)}\` → \`${typeText(afterType)}\``;
        if (verdict.kind === 'external')
          this.add(
            'warning',
            'external_type_changed',
            element,
            `${text}, involving a type not declared in this file; check it by hand`,
            key,
            'head',
          );
        else if (verdict.kind === 'renamed')
          this.add(
            'warning',
            'compatible_type_change',
            element,
            `${text}: the message was renamed, the same on the wire`,
            key,
            'head',
          );
        else this.add('breaking', 'rpc_changed', element, text, key, 'head');
      }
    }
  }
}

function streamingText(rpc: RpcModel): string {
  if (rpc.clientStreaming && rpc.serverStreaming) return 'bidirectional streaming';
  if (rpc.clientStreaming) return 'client streaming';
  if (rpc.serverStreaming) return 'server streaming';
  return 'unary';
}

function fieldTypeText(field: FieldModel): string {
  if (field.cardinality === 'map') return `map<${field.keyType?.name ?? '?'}, ${field.type.name}>`;
  return field.cardinality === 'repeated' ? `repeated ${field.type.name}` : field.type.name;
}

const sorted = <T>(map: ReadonlyMap<string, T>): [string, T][] =>
  [...map.entries()].sort(([a], [b]) => cmp(a, b));

/** Compares two versions of one `.proto`; throws when either does not parse (the message says which). */
export function compareProtoTexts(baseText: string, headText: string): WireFinding[] {
  let base: SchemaModel;
  let head: SchemaModel;
  try {
    base = parseSchema(baseText);
  } catch (error) {
    throw new Error(`the base version does not parse: ${(error as Error).message}`, { cause: error });
  }
  try {
    head = parseSchema(headText);
  } catch (error) {
    throw new Error(`the working-tree version does not parse: ${(error as Error).message}`, { cause: error });
  }
  return new Comparison({ base, head }, indexLines(headText), indexLines(baseText)).run();
}

// ---------------------------------------------------------------------------------------------------------
// The check of one file against a base

export type WireCheck =
  | {
      readonly status: 'compared';
      readonly file: string;
      readonly base: ResolvedBase;
      readonly findings: readonly WireFinding[];
    }
  | { readonly status: 'new_file'; readonly file: string; readonly base: ResolvedBase }
  | { readonly status: 'skipped'; readonly file: string; readonly reason: string };

export interface WireCheckRequest {
  /** Absolute, inside the roots. */
  readonly absolutePath: string;
  /** How the answer names the file. */
  readonly display: string;
  /** The caller's revision (already validated); undefined for the default base. */
  readonly base: string | undefined;
  readonly signal?: AbortSignal;
  /** Repository tops already resolved in this call → their base, so several files share one lookup. */
  readonly baseCache?: Map<string, Promise<Awaited<ReturnType<typeof resolveBase>>>>;
}

/**
 * Runs the check on one file. With an explicit base every failure is a tool error (the caller asked for
 * that comparison); with the default base a failure is a `skipped` result and the trace still answers.
 */
export async function checkWireFormat(request: WireCheckRequest): Promise<WireCheck> {
  const { display } = request;
  const explicit = request.base !== undefined;
  const fail = (
    reason: string,
    kind: 'unavailable' | 'not_found' | 'invalid_argument' = 'unavailable',
  ): WireCheck => {
    if (explicit)
      throw new ToolError(
        kind,
        `Wire check of \`${display}\` against \`${request.base}\` failed: ${reason}.`,
      );
    return { status: 'skipped', file: display, reason };
  };

  let headText: string;
  try {
    const size = statSync(request.absolutePath).size;
    if (size > MAX_PROTO_BYTES)
      return fail(
        `the working-tree file is ${size} bytes, over the ${MAX_PROTO_BYTES}-byte limit for schema files`,
      );
    headText = readFileSync(request.absolutePath, 'utf8');
  } catch (error) {
    return fail(
      `the working-tree file cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      'not_found',
    );
  }

  const repo = await locateRepository(request.absolutePath, request.signal);
  if (repo.kind === 'no_repo') return fail('the file is not inside a git repository');
  if (repo.kind === 'failed') return fail(repo.reason);

  const cache = request.baseCache;
  const cacheKey = `${repo.location.top}\u0000${request.base ?? ''}`;
  let lookup = cache?.get(cacheKey);
  if (!lookup) {
    lookup = resolveBase(repo.location.top, request.base, request.signal);
    cache?.set(cacheKey, lookup);
  }
  const resolved = await lookup;
  if (resolved.kind === 'failed') return fail(resolved.reason, explicit ? 'invalid_argument' : 'unavailable');

  const blob = await showAtCommit(repo.location, resolved.base.commit, MAX_PROTO_BYTES, request.signal);
  switch (blob.kind) {
    case 'absent':
      return { status: 'new_file', file: display, base: resolved.base };
    case 'too_large':
      return fail(`the base version is over the ${MAX_PROTO_BYTES}-byte limit for schema files`);
    case 'failed':
      return fail(blob.reason);
    case 'content':
      break;
  }
  try {
    return {
      status: 'compared',
      file: display,
      base: resolved.base,
      findings: compareProtoTexts(blob.text, headText),
    };
  } catch (error) {
    return fail((error as Error).message);
  }
}
