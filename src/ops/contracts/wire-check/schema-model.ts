/**
 * One version of a `.proto` as the comparison sees it: the elements that travel on the wire (field and enum
 * numbers, types, cardinality) and the reservations that keep old numbers and names from coming back.
 */

export type TypeRef =
  | { readonly kind: 'scalar'; readonly name: string }
  | { readonly kind: 'message' | 'enum'; readonly name: string }
  | { readonly kind: 'external'; readonly name: string };

export interface FieldModel {
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

export interface ReservedModel {
  readonly ranges: readonly (readonly [number, number])[];
  readonly names: ReadonlySet<string>;
}

export interface MessageModel {
  /** Name relative to the package: `Outer.Inner`. */
  readonly name: string;
  readonly fields: readonly FieldModel[];
  readonly reserved: ReservedModel;
}

export interface EnumModel {
  readonly name: string;
  readonly values: readonly { readonly name: string; readonly number: number }[];
  readonly reserved: ReservedModel;
}

export interface RpcModel {
  readonly name: string;
  readonly request: TypeRef;
  readonly response: TypeRef;
  readonly clientStreaming: boolean;
  readonly serverStreaming: boolean;
}

export interface ServiceModel {
  readonly name: string;
  readonly rpcs: readonly RpcModel[];
}

export interface SchemaModel {
  readonly package: string;
  readonly messages: ReadonlyMap<string, MessageModel>;
  readonly enums: ReadonlyMap<string, EnumModel>;
  readonly services: ReadonlyMap<string, ServiceModel>;
}

/** The two versions under comparison: `base` from git, `head` from the working tree. */
export interface SchemaPair {
  readonly base: SchemaModel;
  readonly head: SchemaModel;
}

export const isReservedNumber = (reserved: ReservedModel, n: number): boolean =>
  reserved.ranges.some(([from, to]) => n >= from && n <= to);
