import type { LoadedConfig, ResolvedRoot } from '../core/config.js';
import type { RootImportSettings } from './graph/imports-settings.js';
import type { ServiceView } from './services/types.js';
import type { RootIdentity } from './services/types.js';
import type { IndexedFile, RejectedFile } from './snapshot.js';
import { SnapshotHolder, type SnapshotLineage } from './snapshot-holder.js';

export interface SnapshotParts {
  readonly generation: number;
  readonly loaded: LoadedConfig;
  /** The roots as the run saw them (they move when a folder matching a root pattern comes or goes). */
  readonly roots: readonly ResolvedRoot[];
  readonly files: readonly IndexedFile[];
  readonly rejected: readonly RejectedFile[];
  readonly services: ReadonlyMap<string, string>;
  /** The service model as the roots see it. */
  readonly serviceView?: ServiceView;
  /** Root name → what it answers to, for HTTP matching. */
  readonly identities?: ReadonlyMap<string, RootIdentity>;
  readonly imports: readonly RootImportSettings[] | undefined;
  /** Set when the snapshot is patched from the installed one (an incremental reload). */
  readonly lineage?: SnapshotLineage;
}

/**
 * A new snapshot over `files`. Its contract graph is reconciled when first asked for: a reload that only
 * feeds declaration search (the common edit → search loop) never pays for it, and the first graph query
 * pays once per generation.
 */
export function buildSnapshot(parts: SnapshotParts): SnapshotHolder {
  const { files, services, imports, loaded } = parts;
  return new SnapshotHolder(
    {
      generation: parts.generation,
      createdAt: new Date().toISOString(),
      workspace: loaded.workspaceName,
      roots: parts.roots,
      files,
      rejected: parts.rejected,
      services,
      ...(parts.serviceView ? { serviceView: parts.serviceView } : {}),
    },
    {
      protoDirs: loaded.config.contracts.proto_dirs,
      ...(imports ? { imports } : {}),
      ...(parts.identities ? { identities: parts.identities } : {}),
    },
    parts.lineage,
  );
}
