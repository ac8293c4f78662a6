/**
 * What the engine keeps from the service model between runs: each root's display name, the model as the
 * roots see it (for `admin status` and the graph JSON) and each root's identity (for HTTP matching). The
 * model is re-read on a full run, and on a reload only when a changed path could change it (a declaration
 * file changed, or files came or went).
 */
import path from 'node:path';
import { declaredServiceName } from './manifests.js';
import { declaredSubscriptions } from './services/dapr-subscriptions.js';
import { buildServiceModel } from './services/model.js';
import { MANIFEST_READERS } from './services/readers/registry.js';
import {
  modelDisplayName,
  rootFolders,
  rootIdentities,
  serviceView,
  type ServiceView,
} from './services/root-view.js';
import type { RootIdentity } from './services/types.js';

interface Root {
  readonly name: string;
  readonly path: string;
}

/** A file whose change may change the model: one a reader reads, or a compose `.env`. */
export const isModelInput = (file: string): boolean => {
  const name = path.basename(file);
  return name === '.env' || MANIFEST_READERS.some((reader) => reader.matches(name));
};

export class ServiceInputs {
  services: ReadonlyMap<string, string> = new Map();
  view: ServiceView = { entries: [], uncovered: [], partial: false };
  identities: ReadonlyMap<string, RootIdentity> = new Map();
  private key: string | undefined;

  constructor(
    private readonly baseDir: string,
    private readonly roots: readonly Root[],
  ) {}

  /**
   * Re-reads the model unless `changed` (absolute paths of a reload, with `structural` when files came or
   * went) shows nothing it depends on moved. True when what the graph derives from moved.
   */
  refresh(changed?: { readonly paths: readonly string[]; readonly structural: boolean }): boolean {
    if (this.key !== undefined && changed && !changed.structural && !changed.paths.some(isModelInput))
      return false;
    const folders = rootFolders(this.baseDir, this.roots);
    const result = buildServiceModel(this.baseDir);
    const view = serviceView(result, folders);
    this.services = new Map(
      this.roots.map((root, i) => [
        root.name,
        declaredServiceName(root.path) ??
          modelDisplayName(view.entries, folders[i]?.folder) ??
          path.basename(root.path),
      ]),
    );
    this.view = view;
    const identities = rootIdentities(view.entries, folders);
    const declared = declaredSubscriptions(result.workspace, identities, folders);
    this.identities = new Map(
      [...identities].map(([root, identity]) => {
        const topics = declared.get(root);
        return [root, topics === undefined ? identity : { ...identity, topics }];
      }),
    );
    const key = JSON.stringify([
      [...this.services],
      view,
      [...this.identities].map(([r, i]) => [r, i.names, [...i.env], i.topics ?? []]),
    ]);
    const moved = key !== this.key;
    this.key = key;
    return moved;
  }
}
