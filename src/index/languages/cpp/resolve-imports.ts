/** C and C++ `#include "x.h"`: the workspace header it names. */
import type { LanguageId } from '../../facts.js';
import type { IndexedFile } from '../../snapshot.js';
import { dirOf, join, rootDirOf, slash } from '../shared/import-paths.js';
import { fileResolution, NONE, type Resolution } from '../shared/import-resolution.js';

export const C_FAMILY: ReadonlySet<LanguageId> = new Set(['c', 'cpp']);

export class CIncludes {
  constructor(
    /** Indexed files by absolute, `/`-separated path. */
    private readonly byPath: ReadonlyMap<string, IndexedFile>,
  ) {}

  /** `#include "x.h"`: next to the including file, then from the root folder. */
  resolve(file: IndexedFile, source: string): Resolution {
    if (source === '' || source.startsWith('/')) return NONE;
    const isC = (f: IndexedFile | undefined) =>
      f?.language !== undefined && C_FAMILY.has(f.language) ? f : undefined;
    const found =
      isC(this.byPath.get(join(dirOf(slash(file.absolutePath)), source))) ??
      isC(this.byPath.get(join(rootDirOf(file), source)));
    return fileResolution(found, 'exact');
  }
}
