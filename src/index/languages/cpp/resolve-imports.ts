/** C and C++ `#include "x.h"`: the workspace header it names. */
import type { IndexedFile } from '../../snapshot.js';
import { dirOf, join, rootDirOf, slash } from '../shared/import-paths.js';
import { fileResolution, NONE, type Resolution } from '../shared/import-resolution.js';

export class CIncludes {
  constructor(
    /** Indexed files by absolute, `/`-separated path. */
    private readonly byPath: ReadonlyMap<string, IndexedFile>,
    /** C or C++. */
    private readonly isC: (file: IndexedFile) => boolean,
  ) {}

  /** `#include "x.h"`: next to the including file, then from the root folder. */
  resolve(file: IndexedFile, source: string): Resolution {
    if (source === '' || source.startsWith('/')) return NONE;
    const header = (f: IndexedFile | undefined) => (f !== undefined && this.isC(f) ? f : undefined);
    const found =
      header(this.byPath.get(join(dirOf(slash(file.absolutePath)), source))) ??
      header(this.byPath.get(join(rootDirOf(file), source)));
    return fileResolution(found, 'exact');
  }
}
