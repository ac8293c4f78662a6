/**
 * What an HTTP server serves its sessions from: one workspace for every caller, or, with `[server.tenants]`,
 * one per tenant (tenant-runtimes.ts). A session is bound, when it opens, to the runtime of the key that
 * opened it, and every request of the session is answered from that runtime alone.
 */
import type { LoadedConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type { Principal } from '../core/principal.js';
import { watchServedConfig } from './serve-config-watch.js';
import { WorkspaceRuntime } from './workspace-runtime.js';
import type { TeamStore } from '../store/postgres/team-store.js';

export interface ServedWorkspaces {
  /** The runtime a session opened by `caller` is served from (the caller is undefined without keys). */
  runtimeFor(caller: Principal | undefined): WorkspaceRuntime;
  /** With tenants: whether a key's tenant has a workspace here (keys of other tenants are refused). */
  readonly serves?: (tenant: string) => boolean;
  /** Once the server listens: what starts at once (the one workspace's index; tenants start on first use). */
  start(): void;
  /** Applies a change to the server's config file while serving; returns what stops the watching. */
  watchConfig(warnClients: (message: string) => void): () => void;
  close(): Promise<void>;
}

export interface OneWorkspaceOptions {
  readonly loaded: LoadedConfig;
  readonly reload: () => LoadedConfig;
  readonly logger: Logger;
  readonly watch: boolean;
  readonly teamStore?: TeamStore;
}

/** Every caller is served the one workspace, composed now and indexed as soon as the server listens. */
export function oneWorkspace(options: OneWorkspaceOptions): ServedWorkspaces {
  const { loaded, logger } = options;
  const runtime = new WorkspaceRuntime({
    loaded,
    logger,
    session: `http-${process.pid}-${Date.now()}`,
    ...(options.teamStore ? { teamStore: options.teamStore } : {}),
  });
  return {
    runtimeFor: () => runtime,
    start: () => runtime.start({ watch: options.watch }),
    watchConfig: (warnClients) =>
      options.watch
        ? watchServedConfig({ loaded, reload: options.reload, logger, served: runtime.served, warnClients })
        : () => undefined,
    close: () => runtime.close(),
  };
}
