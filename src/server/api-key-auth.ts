/**
 * Turns an `Authorization` header into a principal, or into a refusal that says why without telling anyone
 * which keys exist.
 *
 * What each refusal may say:
 * - no header, or one that is not `Bearer` with a token spelled like a key: said plainly, since it is about
 *   the header's spelling, the same for every key;
 * - a key no row matches, whether its prefix is unknown or its secret part is wrong: one message for both, and
 *   the same work for both (a hash and a constant-time compare against a stand-in), so neither the words nor
 *   the time tell a known prefix from an unknown one;
 * - revoked or expired: said only once the whole key has matched, to someone who holds it, and so knew of it.
 */
import { timingSafeEqual } from 'node:crypto';
import { hasKeyShape, KEY_SHAPE_TEXT, prefixOfKey } from '../core/api-key-format.js';
import type { KeyPrincipal } from '../core/principal.js';
import { parseRateSpec } from '../core/rate-spec.js';

/** What the authenticator needs of a key row; the key store's rows have it. */
export interface CheckableKey {
  readonly id: number;
  readonly prefix: string;
  readonly hash: string;
  readonly tenant: string;
  readonly role: string;
  readonly rate: string | null;
  readonly daily: number | null;
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
}

export interface KeyLookup {
  /** The keyed hash of a presented key, as the store computes it. */
  hash(key: string): string;
  /** At once from a local file; a promise from a database server. */
  candidates(prefix: string): readonly CheckableKey[] | Promise<readonly CheckableKey[]>;
  /** Notes the key was used (best effort, never throws). */
  touch?(id: number, nowMs: number): void;
}

/** A lookup that answers at once, so that authentication does too. */
export interface SyncKeyLookup extends KeyLookup {
  candidates(prefix: string): readonly CheckableKey[];
}

export type AuthOutcome =
  | { readonly ok: true; readonly principal: KeyPrincipal }
  | { readonly ok: false; readonly status: 401 | 403; readonly message: string };

export const AUTH_MESSAGES = {
  missing: 'Missing API key: send the header "Authorization: Bearer <key>".',
  malformed: `Malformed Authorization header: expected "Bearer " and a key, ${KEY_SHAPE_TEXT}.`,
  rejected:
    'API key not accepted: it matches no key of this server. Check that it was copied whole, or ask an administrator for a key.',
  revoked: (at: string) => `API key revoked at ${at}: ask an administrator for a new key.`,
  expired: (at: string) => `API key expired at ${at}: ask an administrator for a new key.`,
} as const;

/** The hash compared against when no row has the prefix, so that case costs what a wrong secret costs. */
const STAND_IN_HASH = '0'.repeat(64);

/** Compares two hex digests in time that does not depend on where they differ. */
function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  // Digests are 32 bytes; another length is a damaged row, never a match (and timingSafeEqual would throw).
  if (left.length !== right.length) return false;
  return timingSafeEqual(left, right);
}

const refuse = (message: string): AuthOutcome => ({ ok: false, status: 401, message });

/** The token of a `Bearer` header (the scheme is case-insensitive, RFC 9110), or undefined. */
function bearerToken(header: string): string | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1];
}

function principalOf(row: CheckableKey): KeyPrincipal {
  const rate = row.rate === null ? undefined : parseRateSpec(row.rate);
  const limits = {
    ...(rate && !('error' in rate) ? { rate } : {}),
    ...(row.daily !== null ? { daily: row.daily } : {}),
  };
  return {
    kind: 'key',
    keyId: row.id,
    prefix: row.prefix,
    tenant: row.tenant,
    role: row.role,
    ...(Object.keys(limits).length > 0 ? { limits } : {}),
  };
}

/** Judges a well-formed key against the rows its prefix found (none, or one). */
function judge(
  lookup: KeyLookup,
  presented: string,
  rows: readonly CheckableKey[],
  nowMs: number,
): AuthOutcome {
  let matched: CheckableKey | undefined;
  for (const row of rows.length > 0 ? rows : [undefined]) {
    if (sameHash(presented, row?.hash ?? STAND_IN_HASH) && row) matched = row;
  }
  if (!matched) return refuse(AUTH_MESSAGES.rejected);
  if (matched.revokedAt !== null) return refuse(AUTH_MESSAGES.revoked(matched.revokedAt));
  if (matched.expiresAt !== null && Date.parse(matched.expiresAt) <= nowMs)
    return refuse(AUTH_MESSAGES.expired(matched.expiresAt));
  lookup.touch?.(matched.id, nowMs);
  return { ok: true, principal: principalOf(matched) };
}

/**
 * `authenticate(header, nowMs)` for the HTTP transport: the `Authorization` header as received (undefined when
 * absent) and the time of the request. The answer comes at once from a lookup that answers at once.
 */
export function createAuthenticator(
  lookup: SyncKeyLookup,
): (header: string | undefined, nowMs?: number) => AuthOutcome;
export function createAuthenticator(
  lookup: KeyLookup,
): (header: string | undefined, nowMs?: number) => AuthOutcome | Promise<AuthOutcome>;
export function createAuthenticator(
  lookup: KeyLookup,
): (header: string | undefined, nowMs?: number) => AuthOutcome | Promise<AuthOutcome> {
  return (header, nowMs = Date.now()) => {
    if (header === undefined || header.trim() === '') return refuse(AUTH_MESSAGES.missing);
    const key = bearerToken(header);
    if (key === undefined || !hasKeyShape(key)) return refuse(AUTH_MESSAGES.malformed);
    const presented = lookup.hash(key);
    const rows = lookup.candidates(prefixOfKey(key));
    return rows instanceof Promise
      ? rows.then((found) => judge(lookup, presented, found, nowMs))
      : judge(lookup, presented, rows, nowMs);
  };
}
