/**
 * The MCP `outputSchema` of a tool, from the output schemas of the operations it addresses: one
 * operation's schema as JSON Schema, or, for a domain tool with several modes, any one of theirs.
 */
import { z } from 'zod';
import type { AnyOperation } from '../core/operation.js';

/** The answer's `elapsed_ms`, which the registry adds to every JSON answer. */
const withElapsed = (op: AnyOperation) =>
  op.output.extend({ elapsed_ms: z.number().describe('Time the call took, in milliseconds.') });

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'output' }) as Record<string, unknown>;
  return rest;
}

/** A tool's output schema: an object at the root, as MCP requires. */
export interface OutputSchema {
  readonly type: 'object';
  readonly [keyword: string]: unknown;
}

export function outputSchemaOf(ops: readonly AnyOperation[]): OutputSchema {
  const [only] = ops;
  if (ops.length === 1 && only) return { ...jsonSchemaOf(withElapsed(only)), type: 'object' };
  return { type: 'object', anyOf: ops.map((op) => jsonSchemaOf(withElapsed(op))) };
}
