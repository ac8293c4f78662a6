import type { LoadedConfig } from '../core/config.js';
import type { RootImportSettings } from './graph/imports-settings.js';
import type { ContractGraph } from './graph/model.js';
import { graphLines, reconcile } from './graph/reconcile.js';
import type { RejectedFile } from './reader.js';
import type { IndexedFile, Snapshot } from './snapshot.js';

export interface SnapshotParts {
  readonly generation: number;
  readonly loaded: LoadedConfig;
  readonly files: readonly IndexedFile[];
  readonly rejected: readonly RejectedFile[];
  readonly services: ReadonlyMap<string, string>;
  readonly imports: readonly RootImportSettings[] | undefined;
}

/**
 * A new snapshot over `files`. The contract graph is reconciled on first use: a reload that only feeds
 * declaration search (the common edit → search loop) never pays for it, and the first graph query pays
 * once per generation.
 */
export function buildSnapshot(parts: SnapshotParts): Snapshot {
  const { files, services, imports, loaded } = parts;
  const protoDirs = loaded.config.contracts.proto_dirs;
  let graph: ContractGraph | undefined;
  const graphOf = (): ContractGraph =>
    (graph ??= reconcile({ files, services, protoDirs, ...(imports ? { imports } : {}) }));
  return {
    generation: parts.generation,
    createdAt: new Date().toISOString(),
    workspace: loaded.workspaceName,
    roots: loaded.roots,
    files,
    rejected: parts.rejected,
    services,
    get graph() {
      return graphOf();
    },
    graphBuilt: () => graph !== undefined,
    extraLines: () => graphLines(graphOf()),
    derived: new Map(),
  };
}
