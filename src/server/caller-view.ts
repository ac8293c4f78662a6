/**
 * What one caller sees of the served registry. Every handler (tools, prompts, resources, completions) asks
 * here, so that what a caller is shown and what it may call come from one set: the registry narrowed to
 * its tier of `[server.visibility]`.
 */
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { LOCAL_PRINCIPAL, type Principal } from '../core/principal.js';
import type { Registry } from '../core/registry.js';
import { callerOf } from './caller-auth-info.js';
import type { ServedRegistry } from './served-registry.js';
import type { Surface } from './surface.js';

export interface CallerView {
  readonly principal: Principal;
  /** The registry as this caller sees it: only the operations its tier lists. */
  readonly registry: Registry;
  readonly surface: Surface;
}

/** What a request handler is handed beside the request; only the authenticated caller is read. */
export type RequestExtra = { readonly authInfo?: AuthInfo } | undefined;

export type ViewOf = (extra: RequestExtra) => Promise<CallerView>;

/**
 * The views of one session. Its principal is the local one on stdio; over HTTP, the key each request was
 * authenticated with, which is also the one list changes are computed for.
 */
export class SessionViews {
  private principal: Principal;

  constructor(
    private readonly served: ServedRegistry,
    private readonly surfaceOf: (registry: Registry) => Surface,
    principal: Principal = LOCAL_PRINCIPAL,
  ) {
    this.principal = principal;
  }

  /** The caller a request comes from: its key when it carries one, else the session's principal. */
  principalOf(extra: RequestExtra): Principal {
    const principal = callerOf(extra?.authInfo).principal;
    if (principal) this.principal = principal;
    return principal ?? this.principal;
  }

  readonly viewOf: ViewOf = async (extra) => {
    const principal = this.principalOf(extra);
    return this.viewIn(await this.served.current(), principal);
  };

  /** What the session's principal sees in a registry (before or after a reload). */
  sessionView(registry: Registry): CallerView {
    return this.viewIn(registry, this.principal);
  }

  private viewIn(base: Registry, principal: Principal): CallerView {
    const registry = base.viewFor(principal);
    return { principal, registry, surface: this.surfaceOf(registry) };
  }
}
