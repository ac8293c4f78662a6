/**
 * The structured model of one `.proto` file: what the extractor turns into facts and what the wire-format
 * check compares between two revisions. protobufjs decides what the file means (it rejects what protoc would
 * reject, and resolves `max`, groups, maps and proto3 `optional`); the lexical scan in `proto-scan.ts` says
 * where each piece is written.
 */
import protobuf from 'protobufjs';
import { scanProto, type ProtoScan, type ScanDecl } from './scan.js';

export interface ProtoReserved {
  /** Inclusive ranges; a single number is `{ start: n, end: n }`; `max` is 536870911 (fields) or 2147483647 (enums). */
  readonly ranges: readonly { readonly start: number; readonly end: number }[];
  readonly names: readonly string[];
}

export type ProtoCardinality = 'singular' | 'optional' | 'required' | 'repeated' | 'map';

export interface ProtoField {
  readonly name: string;
  readonly number: number;
  /** As written: `int32`, `Money`, `.shop.v1.Money`, `google.protobuf.Timestamp`; the value type of a map. */
  readonly type: string;
  /** The key type of a `map<K, V>`. */
  readonly keyType?: string;
  /** The label as written (`optional`, `required`, `repeated`), absent when there is none. */
  readonly label?: 'optional' | 'required' | 'repeated';
  /** `optional` for explicit presence (a label `optional`, proto2 or proto3), `singular` without a label. */
  readonly cardinality: ProtoCardinality;
  /** The real (not synthetic proto3-`optional`) oneof holding the field. */
  readonly oneof?: string;
  /** `type` is a scalar keyword (`int32`, `string`, `bytes`…), not a message or enum name. */
  readonly scalar: boolean;
  /**
   * Repeated numeric scalars and enums declared in this file: packed unless `[packed = false]` (proto3,
   * editions) or packed only with `[packed = true]` (proto2). Imported enum types are not known here: false.
   */
  readonly packed: boolean;
  /** A proto2 `group` (its type is the nested message of the same name). */
  readonly group: boolean;
  /** Field options as protobufjs reads them (`deprecated`, `json_name`, `packed`, custom `(x)`). */
  readonly options?: Readonly<Record<string, unknown>>;
  readonly line: number;
}

export interface ProtoOneof {
  readonly name: string;
  readonly fields: readonly string[];
  readonly line: number;
}

export interface ProtoEnumValue {
  readonly name: string;
  readonly number: number;
  readonly line: number;
}

export interface ProtoEnum {
  readonly name: string;
  /** Inside the package: `Outer.Status`. */
  readonly path: string;
  /** With the package: `shop.v1.Outer.Status`. */
  readonly fullName: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly allowAlias: boolean;
  readonly values: readonly ProtoEnumValue[];
  readonly reserved: ProtoReserved;
  readonly docstring?: string;
}

export interface ProtoMessage {
  readonly name: string;
  readonly path: string;
  readonly fullName: string;
  readonly startLine: number;
  readonly endLine: number;
  /** In source order. */
  readonly fields: readonly ProtoField[];
  readonly oneofs: readonly ProtoOneof[];
  readonly reserved: ProtoReserved;
  readonly extensionRanges: readonly { readonly start: number; readonly end: number }[];
  readonly messages: readonly ProtoMessage[];
  readonly enums: readonly ProtoEnum[];
  readonly docstring?: string;
}

export interface ProtoMethod {
  readonly name: string;
  /** As written, without `stream`. */
  readonly requestType: string;
  readonly responseType: string;
  readonly clientStreaming: boolean;
  readonly serverStreaming: boolean;
  readonly startLine: number;
  readonly endLine: number;
  readonly docstring?: string;
}

export interface ProtoService {
  readonly name: string;
  readonly fullName: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly methods: readonly ProtoMethod[];
  readonly docstring?: string;
}

export interface ProtoImport {
  readonly path: string;
  readonly kind: 'default' | 'public' | 'weak';
  readonly line: number;
}

export interface ProtoSchema {
  /** `proto2` when the file declares neither `syntax` nor `edition` (protoc's default). */
  readonly syntax: 'proto2' | 'proto3' | 'editions';
  readonly edition?: string;
  /** Empty when the file declares no package. */
  readonly package: string;
  readonly imports: readonly ProtoImport[];
  readonly messages: readonly ProtoMessage[];
  readonly enums: readonly ProtoEnum[];
  readonly services: readonly ProtoService[];
}

const SCALARS = new Set([
  ...['double', 'float', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64'],
  ...['fixed32', 'fixed64', 'sfixed32', 'sfixed64', 'bool', 'string', 'bytes'],
]);
const NOT_PACKABLE = new Set(['string', 'bytes']);

function reservedOf(raw: readonly (number[] | string)[] | undefined): ProtoReserved {
  const ranges: { start: number; end: number }[] = [];
  const names: string[] = [];
  for (const entry of raw ?? []) {
    if (typeof entry === 'string') names.push(entry);
    else if (entry[0] !== undefined && entry[1] !== undefined)
      ranges.push({ start: entry[0], end: entry[1] });
  }
  return { ranges, names };
}

const byLine = <T extends { readonly startLine: number }>(items: T[]): T[] =>
  items.sort((a, b) => a.startLine - b.startLine);

/**
 * Parses a proto source into its schema. Throws (with protobufjs's message, which names the line) when the
 * source is not a valid proto file.
 */
export function parseProtoSchema(source: string): ProtoSchema {
  const parsed = protobuf.parse(source, { keepCase: true });
  const scan = scanProto(source);
  const pkg = parsed.package ?? '';
  const syntax = scan.edition !== undefined ? 'editions' : scan.syntax === 'proto3' ? 'proto3' : 'proto2';
  const builder = new SchemaBuilder(scan, pkg, syntax);

  let namespace: protobuf.NamespaceBase = parsed.root;
  for (const part of pkg === '' ? [] : pkg.split('.')) {
    const next = namespace.get(part);
    if (!(next instanceof protobuf.Namespace)) throw new Error(`package ${pkg} not found in the parsed root`);
    namespace = next;
  }
  builder.collectEnums(namespace, '');
  const messages: ProtoMessage[] = [];
  const enums: ProtoEnum[] = [];
  const services: ProtoService[] = [];
  for (const item of namespace.nestedArray) {
    if (item instanceof protobuf.Type) messages.push(builder.message(item, ''));
    else if (item instanceof protobuf.Enum) enums.push(builder.enumeration(item, ''));
    else if (item instanceof protobuf.Service) services.push(builder.service(item));
  }
  return {
    syntax,
    ...(scan.edition !== undefined ? { edition: scan.edition } : {}),
    package: pkg,
    imports: scan.imports,
    messages: byLine(messages),
    enums: byLine(enums),
    services: byLine(services),
  };
}

class SchemaBuilder {
  private readonly decls = new Map<string, ScanDecl>();
  /** Paths (inside the package) of the enums the file declares, to tell packable enum fields. */
  private readonly enumPaths = new Set<string>();

  constructor(
    private readonly scan: ProtoScan,
    private readonly pkg: string,
    private readonly syntax: ProtoSchema['syntax'],
  ) {
    for (const decl of scan.decls) this.decls.set(`${decl.kind}:${decl.path}`, decl);
  }

  collectEnums(namespace: protobuf.NamespaceBase, parent: string): void {
    for (const item of namespace.nestedArray) {
      const path = parent === '' ? item.name : `${parent}.${item.name}`;
      if (item instanceof protobuf.Enum) this.enumPaths.add(path);
      else if (item instanceof protobuf.Type) this.collectEnums(item, path);
    }
  }

  private decl(kind: ScanDecl['kind'], path: string): ScanDecl {
    const decl = this.decls.get(`${kind}:${path}`);
    // Both readers accepted the file, so a miss is a scanner bug: fail loudly rather than invent a line.
    if (decl === undefined) throw new Error(`could not locate ${kind} ${path} in the source`);
    return decl;
  }

  private fullName(path: string): string {
    return this.pkg === '' ? path : `${this.pkg}.${path}`;
  }

  message(type: protobuf.Type, parent: string): ProtoMessage {
    const path = parent === '' ? type.name : `${parent}.${type.name}`;
    const decl = this.decl('message', path);
    // `group` is set by the parser but missing from protobufjs's type declarations.
    const nestedGroups = new Set(
      type.nestedArray
        .filter(
          (n) => n instanceof protobuf.Type && (n as protobuf.Type & { group?: boolean }).group === true,
        )
        .map((n) => n.name),
    );
    const synthetic = new Set(
      type.oneofsArray
        .filter((o) => o.oneof.length === 1 && o.fieldsArray[0]?.options?.['proto3_optional'] === true)
        .map((o) => o.name),
    );
    const fields = type.fieldsArray
      // Extensions of this message declared elsewhere in the file show up here as copies named `.pkg.X.f`.
      .filter((f) => f.declaringField === null && !f.name.includes('.'))
      .map((f) => this.field(f, path, synthetic, nestedGroups))
      .sort((a, b) => a.line - b.line || a.number - b.number);
    const oneofs = type.oneofsArray
      .filter((o) => !synthetic.has(o.name))
      .map((o) => ({
        name: o.name,
        fields: [...o.oneof],
        line: this.decl('oneof', `${path}#${o.name}`).startLine,
      }));
    const messages: ProtoMessage[] = [];
    const enums: ProtoEnum[] = [];
    for (const item of type.nestedArray) {
      if (item instanceof protobuf.Type) messages.push(this.message(item, path));
      else if (item instanceof protobuf.Enum) enums.push(this.enumeration(item, path));
    }
    return {
      name: type.name,
      path,
      fullName: this.fullName(path),
      startLine: decl.startLine,
      endLine: decl.endLine,
      fields,
      oneofs,
      reserved: reservedOf(type.reserved),
      extensionRanges: (type.extensions ?? []).flatMap(([start, end]) =>
        start !== undefined && end !== undefined ? [{ start, end }] : [],
      ),
      messages: byLine(messages),
      enums: byLine(enums),
      ...(decl.docstring !== undefined ? { docstring: decl.docstring } : {}),
    };
  }

  private field(
    field: protobuf.Field,
    message: string,
    synthetic: ReadonlySet<string>,
    groups: ReadonlySet<string>,
  ): ProtoField {
    const scanned = this.scan.fields.get(`${message}#${field.name}`);
    if (scanned === undefined)
      throw new Error(`could not locate field ${message}.${field.name} in the source`);
    const label = scanned.label as ProtoField['label'];
    const options = Object.fromEntries(
      Object.entries(field.options ?? {}).filter(([k]) => k !== 'proto3_optional'),
    );
    const keyType = (field as protobuf.Field & { keyType?: string }).keyType;
    const cardinality: ProtoCardinality = field.map
      ? 'map'
      : field.rule === 'repeated'
        ? 'repeated'
        : field.rule === 'required'
          ? 'required'
          : label === 'optional' || field.options?.['proto3_optional'] === true
            ? 'optional'
            : 'singular';
    const oneof = field.partOf !== null && !synthetic.has(field.partOf.name) ? field.partOf.name : undefined;
    const scalar = SCALARS.has(field.type);
    return {
      name: field.name,
      number: field.id,
      type: field.type,
      ...(keyType !== undefined ? { keyType } : {}),
      ...(label !== undefined ? { label } : {}),
      cardinality,
      ...(oneof !== undefined ? { oneof } : {}),
      scalar,
      packed:
        cardinality === 'repeated' && this.packable(field.type, message) && this.packedByOptions(options),
      group: groups.has(field.type),
      ...(Object.keys(options).length > 0 ? { options } : {}),
      line: scanned.line,
    };
  }

  private packedByOptions(options: Record<string, unknown>): boolean {
    if (typeof options['packed'] === 'boolean') return options['packed'];
    if (options['features.repeated_field_encoding'] === 'EXPANDED') return false;
    const features = options['features'] as Record<string, unknown> | undefined;
    if (features?.['repeated_field_encoding'] === 'EXPANDED') return false;
    return this.syntax !== 'proto2';
  }

  /** Numeric scalars, and enums this file declares (resolved with protobuf's innermost-scope-first rule). */
  private packable(type: string, scope: string): boolean {
    if (SCALARS.has(type)) return !NOT_PACKABLE.has(type);
    const inPackage = (name: string): string | undefined =>
      this.pkg === '' ? name : name.startsWith(`${this.pkg}.`) ? name.slice(this.pkg.length + 1) : undefined;
    if (type.startsWith('.')) return this.enumPaths.has(inPackage(type.slice(1)) ?? '');
    const parts = scope === '' ? [] : scope.split('.');
    for (let i = parts.length; i >= 0; i -= 1) {
      const prefix = parts.slice(0, i).join('.');
      if (this.enumPaths.has(prefix === '' ? type : `${prefix}.${type}`)) return true;
    }
    return this.enumPaths.has(inPackage(type) ?? '');
  }

  enumeration(enumeration: protobuf.Enum, parent: string): ProtoEnum {
    const path = parent === '' ? enumeration.name : `${parent}.${enumeration.name}`;
    const decl = this.decl('enum', path);
    const values = Object.entries(enumeration.values).map(([name, number]) => {
      const line = this.scan.enumValues.get(`${path}#${name}`);
      if (line === undefined) throw new Error(`could not locate enum value ${path}.${name} in the source`);
      return { name, number, line };
    });
    return {
      name: enumeration.name,
      path,
      fullName: this.fullName(path),
      startLine: decl.startLine,
      endLine: decl.endLine,
      allowAlias: enumeration.options?.['allow_alias'] === true,
      values: values.sort((a, b) => a.line - b.line),
      reserved: reservedOf(enumeration.reserved),
      ...(decl.docstring !== undefined ? { docstring: decl.docstring } : {}),
    };
  }

  service(service: protobuf.Service): ProtoService {
    const decl = this.decl('service', service.name);
    const methods = service.methodsArray.map((method): ProtoMethod => {
      const m = this.decl('rpc', `${service.name}/${method.name}`);
      return {
        name: method.name,
        requestType: method.requestType,
        responseType: method.responseType,
        clientStreaming: method.requestStream === true,
        serverStreaming: method.responseStream === true,
        startLine: m.startLine,
        endLine: m.endLine,
        ...(m.docstring !== undefined ? { docstring: m.docstring } : {}),
      };
    });
    return {
      name: service.name,
      fullName: this.fullName(service.name),
      startLine: decl.startLine,
      endLine: decl.endLine,
      methods: byLine(methods),
      ...(decl.docstring !== undefined ? { docstring: decl.docstring } : {}),
    };
  }
}
