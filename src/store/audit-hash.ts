/**
 * The audit chain's hash rule, shared by the SQLite log and the PostgreSQL chains: free of any database, so a
 * store that does not use SQLite never loads it.
 */
import { createHash } from 'node:crypto';

/** The previous hash of the first row. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * Which fields, in which order, a row's hash covers (see `rowHash`). Stored per row so the rule can evolve:
 * version 1 rows (written before the caller was recorded) still verify by version 1's fields.
 */
export const CHAIN_VERSION = 2;

/** The chain versions this code can check. */
export const KNOWN_CHAIN_VERSIONS: ReadonlySet<unknown> = new Set([1, 2]);

/** A row as the database returns it. Values are `unknown` because a tampered row may hold anything. */
export type RawRow = Readonly<Record<string, unknown>>;

/** The last row of the chain as the head records it: ids run from 1, so `lastId` is also the row count. */
export interface ChainHead {
  readonly lastId: number;
  readonly lastHash: string;
}

export const EMPTY_HEAD: ChainHead = { lastId: 0, lastHash: GENESIS_HASH };

/**
 * SHA-256 over the JSON array [previous hash, chain version, id, time, session, operation, argument digest,
 * status, elapsed ms, files read (the stored JSON text), redactions, trace id, warning], and from version 2
 * on the caller after them. JSON makes the field boundaries unambiguous, and hashing the values exactly as
 * stored means any edit to a stored byte shows.
 */
export function rowHash(row: RawRow): string {
  const fields = [
    row.prev_hash,
    row.chain_version,
    row.id,
    row.time,
    row.session,
    row.operation,
    row.argument_digest,
    row.status,
    row.elapsed_ms,
    row.files_read,
    row.redactions,
    row.trace_id ?? null,
    row.warning ?? null,
    ...(row.chain_version === 1 ? [] : [row.caller ?? null]),
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/** `12:3f9a…` style text for a head: what `audit verify` prints and `--anchor` takes back. */
export const headText = (head: ChainHead): string => `${head.lastId}:${head.lastHash}`;
