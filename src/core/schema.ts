import { z } from 'zod';
import { operationKey, type AnyOperation, type Domain } from './operation.js';

/** One argument field as the surfaces and the docs see it. */
export interface FieldInfo {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean';
  readonly description: string;
  readonly required: boolean;
  readonly default?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly enum?: readonly string[];
}

export type JsonSchemaObject = {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties: false;
};

const strictSchemaCache = new WeakMap<AnyOperation, z.ZodObject>();

/** The operation's arguments as one strict zod object (unknown keys are refused by validation first). */
export function argumentSchema(op: AnyOperation): z.ZodObject {
  let schema = strictSchemaCache.get(op);
  if (!schema) {
    schema = z.strictObject(op.args);
    strictSchemaCache.set(op, schema);
  }
  return schema;
}

const fieldCache = new WeakMap<AnyOperation, readonly FieldInfo[]>();

/** Field facts read from the generated JSON Schema, so docs, CLI and surfaces share one source. */
export function fieldsOf(op: AnyOperation): readonly FieldInfo[] {
  const cached = fieldCache.get(op);
  if (cached) return cached;
  const json = z.toJSONSchema(argumentSchema(op), { io: 'input', unrepresentable: 'throw' }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const required = new Set(json.required ?? []);
  const fields = Object.entries(json.properties ?? {}).map(([name, property]): FieldInfo => {
    const type = property.type;
    if (type !== 'string' && type !== 'integer' && type !== 'number' && type !== 'boolean') {
      throw new Error(
        `${operationKey(op)}: field ${name} must be a flat primitive, got ${JSON.stringify(type)}`,
      );
    }
    const info: FieldInfo = {
      name,
      type,
      description: typeof property.description === 'string' ? property.description : '',
      required: required.has(name),
      ...(property.default !== undefined ? { default: property.default } : {}),
      ...(typeof property.minimum === 'number' ? { minimum: property.minimum } : {}),
      ...(typeof property.maximum === 'number' ? { maximum: property.maximum } : {}),
      ...(Array.isArray(property.enum) ? { enum: property.enum.map(String) } : {}),
    };
    return info;
  });
  fieldCache.set(op, fields);
  return fields;
}

/** "default 20, 1–100" and the like, for descriptions and docs. */
export function limitsText(field: FieldInfo): string {
  const parts: string[] = [];
  if (field.default !== undefined) parts.push(`default ${JSON.stringify(field.default)}`);
  if (field.minimum !== undefined && field.maximum !== undefined)
    parts.push(`${field.minimum}–${field.maximum}`);
  else if (field.minimum !== undefined) parts.push(`>= ${field.minimum}`);
  else if (field.maximum !== undefined) parts.push(`<= ${field.maximum}`);
  if (field.enum) parts.push(`one of ${field.enum.join(' | ')}`);
  return parts.join('; ');
}

function propertyOf(field: FieldInfo, withLimits: boolean): Record<string, unknown> {
  const property: Record<string, unknown> = { type: field.type, description: field.description };
  if (field.enum) property.enum = [...field.enum];
  if (withLimits) {
    if (field.default !== undefined) property.default = field.default;
    if (field.minimum !== undefined) property.minimum = field.minimum;
    if (field.maximum !== undefined) property.maximum = field.maximum;
  }
  return property;
}

/** Flat surface: the operation's own fields, with their defaults and limits. */
export function flatInputSchema(op: AnyOperation): JsonSchemaObject {
  const fields = fieldsOf(op);
  const required = fields.filter((f) => f.required).map((f) => f.name);
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f.name, propertyOf(f, true)])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/**
 * Domain surface: a required `mode` enum plus every mode's fields as optional siblings. A field shared by
 * several modes keeps one type; its description says which modes take it and each mode's default and range,
 * since those may differ (e.g. `limit`).
 */
export function domainInputSchema(domain: Domain, ops: readonly AnyOperation[]): JsonSchemaObject {
  const modes = ops.map((op) => op.mode);
  const byField = new Map<string, { field: FieldInfo; mode: string }[]>();
  for (const op of ops) {
    for (const field of fieldsOf(op)) {
      const uses = byField.get(field.name) ?? [];
      uses.push({ field, mode: op.mode });
      byField.set(field.name, uses);
    }
  }
  const properties: Record<string, Record<string, unknown>> = {
    mode: {
      type: 'string',
      enum: modes,
      description: `Which ${domain} operation to run: ${ops.map((op) => `${op.mode} (${op.title})`).join('; ')}.`,
    },
  };
  for (const [name, uses] of byField) {
    const first = uses[0];
    if (!first) continue;
    const conflicting = uses.find((u) => u.field.type !== first.field.type);
    if (conflicting) {
      throw new Error(
        `${domain}: field ${name} is ${first.field.type} in ${first.mode} but ${conflicting.field.type} in ${conflicting.mode}`,
      );
    }
    const sameDescription = uses.every((u) => u.field.description === first.field.description);
    const perMode = uses.map((u) => {
      const limits = limitsText(u.field);
      const required = u.field.required ? 'required' : '';
      const detail = [required, limits].filter(Boolean).join('; ');
      return sameDescription
        ? `${u.mode}${detail ? ` (${detail})` : ''}`
        : `${u.mode}${detail ? ` (${detail})` : ''}: ${u.field.description}`;
    });
    const description = sameDescription
      ? `${first.field.description} Modes: ${perMode.join(', ')}.`
      : perMode.join(' | ');
    const property: Record<string, unknown> = { type: first.field.type, description };
    const enums = uses.map((u) => u.field.enum?.join('|') ?? '');
    if (first.field.enum && enums.every((e) => e === enums[0])) property.enum = [...first.field.enum];
    properties[name] = property;
  }
  return { type: 'object', properties, required: ['mode'], additionalProperties: false };
}

/** Every key that could not travel to a strict client: the test suite walks every schema with this. */
export const FORBIDDEN_SCHEMA_KEYS = [
  '$ref',
  '$defs',
  'definitions',
  'oneOf',
  'anyOf',
  'allOf',
  '$schema',
] as const;
export const PROPERTY_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
