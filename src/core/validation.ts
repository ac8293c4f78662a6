import type { z } from 'zod';
import { ToolError } from './errors.js';
import { MAX_NESTING_DEPTH, pathText, tooDeepPath } from './nesting.js';
import type { AnyOperation, Domain } from './operation.js';
import { argumentSchema, fieldsOf, limitsText, type FieldInfo } from './schema.js';
import { nearest } from './suggest.js';

/** Request metadata that rides along with any call and is never part of a schema. */
export interface CallMeta {
  readonly traceparent?: string;
  readonly tracestate?: string;
  readonly progressToken?: string | number;
}

export interface ValidatedCall {
  readonly op: AnyOperation;
  readonly args: Record<string, unknown>;
  readonly meta: CallMeta;
}

/** How a caller addressed the operation; used to word errors the way the caller spelled the call. */
export type CallAddress =
  | { readonly kind: 'domain'; readonly domain: Domain; readonly ops: readonly AnyOperation[] }
  | { readonly kind: 'operation'; readonly op: AnyOperation; readonly label: string };

/** The JSON type of a value, as messages name it. */
export const typeName = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/** A value as JSON, cut to 60 characters, for quoting what a caller sent. */
export const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

const list = (names: readonly string[]): string =>
  names.length ? names.map((n) => `\`${n}\``).join(', ') : '(none)';

/** `_meta` may come in the request params or, as some clients send it, inside the arguments. */
export function readMeta(...sources: unknown[]): CallMeta {
  const meta: { traceparent?: string; tracestate?: string; progressToken?: string | number } = {};
  for (const source of sources) {
    if (!source || typeof source !== 'object' || Array.isArray(source)) continue;
    const record = source as Record<string, unknown>;
    if (typeof record.traceparent === 'string' && meta.traceparent === undefined)
      meta.traceparent = record.traceparent;
    if (typeof record.tracestate === 'string' && meta.tracestate === undefined)
      meta.tracestate = record.tracestate;
    const token = record.progressToken;
    if ((typeof token === 'string' || typeof token === 'number') && meta.progressToken === undefined) {
      meta.progressToken = token;
    }
  }
  return meta;
}

/** The trace id of a W3C `traceparent` (`00-<32 hex>-<16 hex>-<2 hex>`), if well formed. */
export function traceIdOf(traceparent: string | undefined): string | undefined {
  const match = traceparent?.match(/^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/);
  return match?.[1] && !/^0+$/.test(match[1]) ? match[1] : undefined;
}

function describeField(field: FieldInfo): string {
  const limits = limitsText(field);
  return `\`${field.name}\` (${field.type}${limits ? `; ${limits}` : ''})`;
}

function messageForIssue(
  issue: z.core.$ZodIssue,
  fields: readonly FieldInfo[],
  input: Record<string, unknown>,
): string {
  const name = String(issue.path[0] ?? '');
  const field = fields.find((f) => f.name === name);
  const got = input[name];
  const expectation = field ? limitsText(field) : '';
  switch (issue.code) {
    case 'invalid_type': {
      const expected = field?.type ?? issue.expected;
      const article = /^[aeiou]/.test(expected) ? 'an' : 'a';
      return `\`${name}\` must be ${article} ${expected}, got ${typeName(got)} ${show(got)}.`;
    }
    case 'too_small':
    case 'too_big': {
      if (field?.type === 'string') {
        return `\`${name}\` must be ${issue.code === 'too_small' ? 'non-empty' : 'shorter'}, got ${show(got)}.`;
      }
      const range =
        field?.minimum !== undefined && field.maximum !== undefined
          ? `between ${field.minimum} and ${field.maximum}`
          : issue.code === 'too_small'
            ? `at least ${String((issue as { minimum?: unknown }).minimum)}`
            : `at most ${String((issue as { maximum?: unknown }).maximum)}`;
      const fallback = field?.default !== undefined ? ` (default ${JSON.stringify(field.default)})` : '';
      return `\`${name}\` must be ${range}${fallback}, got ${show(got)}.`;
    }
    case 'invalid_value': {
      const values = (issue as { values?: unknown[] }).values ?? field?.enum ?? [];
      return `\`${name}\` must be one of ${values.map((v) => `\`${String(v)}\``).join(', ')}, got ${show(got)}.`;
    }
    default:
      return `\`${name}\` is invalid${expectation ? ` (${expectation})` : ''}: ${issue.message}.`;
  }
}

function labelOf(address: CallAddress, op: AnyOperation): string {
  return address.kind === 'domain' ? `\`${address.domain}\` mode \`${op.mode}\`` : `\`${address.label}\``;
}

/** The arguments as an object, refused when they are not one or nest deeper than any flat argument could. */
function argumentObject(rawArgs: unknown): Record<string, unknown> {
  const input: Record<string, unknown> =
    rawArgs === undefined || rawArgs === null ? {} : (rawArgs as Record<string, unknown>);
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new ToolError('invalid_argument', `Arguments must be a JSON object, got ${typeName(rawArgs)}.`);
  }
  // Before anything recursive (zod, JSON.stringify in the messages below) walks a value of unbounded depth.
  const deep = tooDeepPath(input);
  if (deep) {
    throw new ToolError(
      'invalid_argument',
      `\`${pathText(deep, 1)}\` nests deeper than ${MAX_NESTING_DEPTH} levels; arguments are flat strings, numbers and booleans.`,
    );
  }
  return input;
}

/**
 * Checks a raw call in the order an agent can fix it: shape, mode, unknown fields (with the nearest accepted
 * one), fields of another mode, missing required fields, then types, ranges and enum values. Every message
 * names the operation as the caller addressed it and says what would be accepted.
 */
export function validateCall(address: CallAddress, rawArgs: unknown, requestMeta?: unknown): ValidatedCall {
  const input = argumentObject(rawArgs);
  const meta = readMeta(requestMeta, input._meta);
  const args: Record<string, unknown> = { ...input };
  delete args._meta;

  let op: AnyOperation;
  if (address.kind === 'domain') {
    const modes = address.ops.map((o) => o.mode);
    const mode = args.mode;
    if (mode === undefined) {
      throw new ToolError(
        'invalid_argument',
        `\`${address.domain}\` requires \`mode\`, one of ${list(modes)}.`,
      );
    }
    const found = address.ops.find((o) => o.mode === mode);
    if (!found) {
      const guess = typeof mode === 'string' ? nearest(mode, modes) : undefined;
      throw new ToolError(
        'invalid_argument',
        `\`${address.domain}\` has no mode ${show(mode)}.${guess ? ` Did you mean \`${guess}\`?` : ''} Modes: ${list(modes)}.`,
      );
    }
    op = found;
    delete args.mode;
  } else {
    op = address.op;
  }

  const label = labelOf(address, op);
  const fields = fieldsOf(op);
  const accepted = fields.map((f) => f.name);
  const unknown = Object.keys(args).filter((key) => !accepted.includes(key));
  if (unknown.length > 0) {
    const siblings = address.kind === 'domain' ? address.ops.filter((o) => o !== op) : [];
    const foreign = unknown
      .map((key) => ({
        key,
        owners: siblings.filter((o) => fieldsOf(o).some((f) => f.name === key)).map((o) => o.mode),
      }))
      .filter((entry) => entry.owners.length > 0);
    if (foreign.length > 0) {
      const parts = foreign.map(
        ({ key, owners }) => `\`${key}\` (it belongs to mode${owners.length > 1 ? 's' : ''} ${list(owners)})`,
      );
      throw new ToolError(
        'invalid_argument',
        `${label} does not accept ${parts.join(', ')}. Accepted fields: ${list(accepted)}.`,
      );
    }
    const key = unknown[0] ?? '';
    const guess = nearest(key, accepted);
    const others = unknown.length > 1 ? ` (also unknown: ${list(unknown.slice(1))})` : '';
    throw new ToolError(
      'invalid_argument',
      `${label} has no field \`${key}\`${others}.${guess ? ` Did you mean \`${guess}\`?` : ''} Accepted fields: ${list(accepted)}.`,
    );
  }

  const missing = fields.filter((f) => f.required && args[f.name] === undefined);
  if (missing.length > 0) {
    throw new ToolError(
      'invalid_argument',
      `${label} requires ${missing.map(describeField).join(', ')}: ${missing.map((f) => f.description).join(' ')}`,
    );
  }

  const parsed = argumentSchema(op).safeParse(args);
  if (!parsed.success) {
    const messages = parsed.error.issues.map((issue) => messageForIssue(issue, fields, args));
    throw new ToolError('invalid_argument', `${label}: ${[...new Set(messages)].join(' ')}`);
  }
  return { op, args: parsed.data as Record<string, unknown>, meta };
}
