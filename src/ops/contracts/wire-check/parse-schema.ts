import protobuf from 'protobufjs';
import { blankCommentsAndStrings } from './blank-comments.js';
import type {
  EnumModel,
  FieldModel,
  MessageModel,
  ReservedModel,
  SchemaModel,
  ServiceModel,
  TypeRef,
} from './schema-model.js';

// protobufjs gives a reflection tree; the comparison needs each field's type resolved to a message, an enum
// or a type declared in another file, and whether repeated numerics are packed, so that is worked out here.

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

/** Parses one version; throws an Error whose message names the line when protobufjs rejects the text. */
export function parseSchema(text: string): SchemaModel {
  const parsed = protobuf.parse(text, { keepCase: true });
  const pkg = parsed.package ?? '';
  const packedByDefault = packedDefaultOf(text);
  const relative = (fullName: string): string => {
    const bare = fullName.replace(/^\./, '');
    return pkg && bare.startsWith(`${pkg}.`) ? bare.slice(pkg.length + 1) : bare;
  };
  const root = parsed.root as ReflectionNode;
  const resolve = typeResolver(declaredTypes(root), relative);

  const messages = new Map<string, MessageModel>();
  const enums = new Map<string, EnumModel>();
  const services = new Map<string, ServiceModel>();
  walk(root, (n) => {
    if (n instanceof protobuf.Type) {
      const full = n.fullName.slice(1);
      const fields = n.fieldsArray
        // Extensions declared elsewhere show up here under their full name; they are not this message's fields.
        .filter((field) => !field.name.startsWith('.'))
        .map((field) => fieldModel(field, resolve(field.type, full), packedByDefault));
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
      services.set(relative(full), serviceModel(n, relative(full), resolve));
    }
  });
  return { package: pkg, messages, enums, services };
}

/** Every declaration below `node`, depth first, in declaration order. */
function walk(node: ReflectionNode, visit: (n: protobuf.ReflectionObject) => void): void {
  for (const child of node.nestedArray ?? []) {
    visit(child);
    if (child instanceof protobuf.Namespace) walk(child as ReflectionNode, visit);
  }
}

/** Every declared type by full name, for scope resolution of field types. */
function declaredTypes(root: ReflectionNode): ReadonlyMap<string, 'message' | 'enum'> {
  const declared = new Map<string, 'message' | 'enum'>();
  walk(root, (n) => {
    if (n instanceof protobuf.Type) declared.set(n.fullName.slice(1), 'message');
    else if (n instanceof protobuf.Enum) declared.set(n.fullName.slice(1), 'enum');
  });
  return declared;
}

type ResolveType = (written: string, scope: string) => TypeRef;

/** Protobuf scoping: innermost scope outwards, then the name as written; a leading dot is absolute. */
function typeResolver(
  declared: ReadonlyMap<string, 'message' | 'enum'>,
  relative: (fullName: string) => string,
): ResolveType {
  return (written, scope) => {
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
}

/** One field with its resolved type, its real oneof, and whether it is written packed. */
function fieldModel(field: protobuf.Field, type: TypeRef, packedByDefault: boolean): FieldModel {
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
  return {
    name: field.name,
    id: field.id,
    cardinality: map ? 'map' : field.repeated ? 'repeated' : 'singular',
    type,
    ...(map ? { keyType: { kind: 'scalar', name: (field as protobuf.MapField).keyType } as TypeRef } : {}),
    ...(oneof ? { oneof } : {}),
    packed,
  };
}

/** A service's rpcs, their message types resolved from the scope the service is declared in. */
function serviceModel(service: protobuf.Service, name: string, resolve: ResolveType): ServiceModel {
  const scope = service.fullName.slice(1).split('.').slice(0, -1).join('.');
  return {
    name,
    rpcs: service.methodsArray.map((m) => ({
      name: m.name,
      request: resolve(m.requestType, scope),
      response: resolve(m.responseType, scope),
      clientStreaming: Boolean(m.requestStream),
      serverStreaming: Boolean(m.responseStream),
    })),
  };
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
