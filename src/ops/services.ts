import type { IndexReader } from '../index/reader.js';

/** The services every mesh operation receives in its context. */
export interface MeshServices {
  readonly index: IndexReader;
}
