import type { RateSpec } from './rate-spec.js';

/** How much one caller may call: a token bucket, a number of admitted calls per UTC day, either or neither. */
export interface CallLimits {
  readonly rate?: RateSpec;
  readonly daily?: number;
}

/**
 * Who is calling. Over HTTP, the owner of an API key; over stdio, the person who started the process, who
 * needs no key: the local principal. Core only names the caller; the server layer authenticates it.
 */
export interface KeyPrincipal {
  readonly kind: 'key';
  readonly keyId: number;
  /** The first characters of the key, the only part of it ever shown (`ml_ab12cd`). */
  readonly prefix: string;
  readonly tenant: string;
  readonly role: string;
  /** Limits set on this key itself (`keys create --rate --daily`); they win over its role's. */
  readonly limits?: CallLimits;
}

export interface LocalPrincipal {
  readonly kind: 'local';
}

export type Principal = KeyPrincipal | LocalPrincipal;

export const LOCAL_PRINCIPAL: LocalPrincipal = { kind: 'local' };

/** The row a principal's usage is counted under: `key:<id>`, or `local`. */
export const usageSubjectOf = (principal: Principal): string =>
  principal.kind === 'key' ? `key:${principal.keyId}` : 'local';

/** How a refusal names the caller: "key ml_ab12cd", "the local server". */
export const principalLabel = (principal: Principal): string =>
  principal.kind === 'key' ? `key ${principal.prefix}` : 'the local server';
