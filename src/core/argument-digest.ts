import { createHash } from 'node:crypto';
import { MAX_NESTING_DEPTH } from './nesting.js';

/**
 * Sorted keys, no spaces. Past the nesting limit a value is written as a marker: arguments that deep are
 * refused anyway, and the digest of a refused call must not overflow the stack.
 */
function canonicalJson(value: unknown, depth = 1): string {
  if (value && typeof value === 'object' && depth > MAX_NESTING_DEPTH) return '"<nested too deep>"';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, depth + 1)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v, depth + 1)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const argumentDigest = (args: unknown): string =>
  createHash('sha256')
    .update(canonicalJson(args ?? {}))
    .digest('hex');
