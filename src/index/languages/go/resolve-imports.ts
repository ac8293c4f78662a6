/** Go imports: a path under a workspace module's path (its `go.mod`) names a package folder, not a file. */
import type { IndexedFile } from '../../snapshot.js';
import { cmp, dirOf, join, slash } from '../shared/import-paths.js';
import { NONE, type Resolution } from '../shared/import-resolution.js';
import type { RootImportSettings } from '../../graph/imports-settings.js';

export class GoImports {
  /** Go modules, longest path first (a nested module wins over its parent). */
  private readonly goModules: { readonly path: string; readonly dir: string }[] = [];
  /** Folders holding non-test `.go` files → their root and root-relative folder. */
  private readonly goFolders = new Map<string, { root: string; dir: string }>();

  constructor(
    files: readonly IndexedFile[],
    rootSettings: readonly RootImportSettings[],
    isGo: (file: IndexedFile) => boolean,
  ) {
    for (const file of files) {
      if (isGo(file) && !file.path.endsWith('_test.go'))
        this.goFolders.set(dirOf(slash(file.absolutePath)), { root: file.root, dir: dirOf(file.path) });
    }
    const seenModules = new Set<string>();
    for (const settings of rootSettings) {
      const go = settings.goModule;
      if (go && !seenModules.has(`${go.path}\u0000${go.dir}`)) {
        seenModules.add(`${go.path}\u0000${go.dir}`);
        this.goModules.push(go);
      }
    }
    this.goModules.sort((a, b) => b.path.length - a.path.length || cmp(a.path, b.path) || cmp(a.dir, b.dir));
  }

  /** A Go import under a workspace module's path → the package folder. */
  resolve(source: string): Resolution {
    for (const module of this.goModules) {
      if (source !== module.path && !source.startsWith(`${module.path}/`)) continue;
      const folder = this.goFolders.get(
        source === module.path ? module.dir : join(module.dir, source.slice(module.path.length + 1)),
      );
      if (folder)
        return { targets: [{ kind: 'folder', root: folder.root, dir: folder.dir }], confidence: 'exact' };
    }
    return NONE;
  }
}
