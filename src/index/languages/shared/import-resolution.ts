/** What resolving one import gives: where it points, and how sure that is. */
import type { Confidence } from '../../facts.js';
import type { IndexedFile } from '../../snapshot.js';

/** Where an import points: a file, a Go package folder, or a workspace package whose entry file is unknown. */
export type TargetRef =
  | { readonly kind: 'file'; readonly file: IndexedFile }
  | { readonly kind: 'folder'; readonly root: string; readonly dir: string }
  | { readonly kind: 'package'; readonly root: string };

export interface Resolution {
  readonly targets: readonly TargetRef[];
  readonly confidence: Confidence;
}

export const NONE: Resolution = { targets: [], confidence: 'exact' };

/** One file at the given confidence, or nothing when the lookup found none. */
export function fileResolution(file: IndexedFile | undefined, confidence: Confidence): Resolution {
  return file ? { targets: [{ kind: 'file', file }], confidence } : NONE;
}
