import type { ResolvedRoot } from '../core/config.js';
import type { RootImportSettings } from './graph/imports-settings.js';
import { readImportSettings } from './import-config.js';
import { RootSet, type RootSource } from './root-set.js';
import { ServiceInputs } from './service-inputs.js';
import type { RootIdentity, ServiceView } from './services/types.js';

/** What a snapshot takes from the workspace besides its files. */
export interface WorkspaceParts {
  readonly roots: readonly ResolvedRoot[];
  readonly services: ReadonlyMap<string, string>;
  readonly serviceView: ServiceView;
  readonly identities: ReadonlyMap<string, RootIdentity>;
  readonly imports: readonly RootImportSettings[] | undefined;
}

/**
 * What the index derives from besides the files: the roots (the patterns expanded again on every full run),
 * the service model as the roots see it, and each root's import settings.
 */
export class WorkspaceInputs {
  private readonly rootSet: RootSet;
  private serviceInputs: ServiceInputs;
  /** Whether the service model was read for the current roots. */
  private serviceInputsRead = false;
  private importSettings: RootImportSettings[] | undefined;
  /** The import settings the installed snapshot's graph was built with (a changed tsconfig is a change). */
  private importKey: string | undefined;

  constructor(private readonly source: RootSource & { readonly baseDir: string }) {
    this.rootSet = new RootSet(source);
    this.serviceInputs = new ServiceInputs(source.baseDir, this.rootSet.roots);
  }

  get roots(): readonly ResolvedRoot[] {
    return this.rootSet.roots;
  }

  /** Folders where a new root may appear, for the watcher. */
  patternBases(): string[] {
    return this.rootSet.patternBases();
  }

  /** Expands the root patterns again; true when the roots moved (the service model is then read afresh). */
  refreshRoots(): boolean {
    if (!this.rootSet.refresh()) return false;
    this.serviceInputs = new ServiceInputs(this.source.baseDir, this.rootSet.roots);
    this.serviceInputsRead = false;
    return true;
  }

  /**
   * Re-reads what the graph derives from besides files; true when it moved since the last install. The
   * service model is re-read on every full run, and on a reload only when `changed` may move it.
   */
  refresh(changed?: { paths: readonly string[]; structural: boolean }): boolean {
    const modelMoved = this.serviceInputs.refresh(changed) || !this.serviceInputsRead;
    this.serviceInputsRead = true;
    this.importSettings = readImportSettings(this.rootSet.roots, this.source.baseDir);
    const importKey = JSON.stringify(this.importSettings);
    const moved = importKey !== this.importKey || modelMoved;
    this.importKey = importKey;
    return moved;
  }

  /** Each root's display name; the model is read first if it was not yet. */
  services(): ReadonlyMap<string, string> {
    if (!this.serviceInputsRead) {
      this.serviceInputs.refresh();
      this.serviceInputsRead = true;
    }
    return this.serviceInputs.services;
  }

  parts(): WorkspaceParts {
    return {
      roots: this.rootSet.roots,
      services: this.services(),
      serviceView: this.serviceInputs.view,
      identities: this.serviceInputs.identities,
      imports: this.importSettings,
    };
  }
}
