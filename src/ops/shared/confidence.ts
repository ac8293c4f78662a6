import type { Confidence } from '../../index/reader.js';

const RANK: Record<Confidence, number> = { exact: 0, heuristic: 1, ambiguous: 2 };

/** How sure a reading is, surest first: exact 0, heuristic 1, ambiguous 2. */
export const confidenceRank = (c: Confidence): number => RANK[c];

/** The weaker of two readings: what is derived from both is never surer than either. */
export const weaker = (a: Confidence, b: Confidence): Confidence => (RANK[a] >= RANK[b] ? a : b);
