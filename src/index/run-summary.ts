import type { RunOutput } from './index-run.js';
import type { IndexRunSummary } from './reader.js';

/** What one run did, for its summary. */
export interface RunFigures {
  readonly started: number;
  readonly filesSeen: number;
  readonly output: RunOutput;
  readonly removed: number;
  readonly full: boolean;
}

/** The summary `admin status` and `admin rescan` report for a run that left `generation` installed. */
export function runSummary(generation: number, figures: RunFigures): IndexRunSummary {
  const { output } = figures;
  return {
    generation,
    at: new Date().toISOString(),
    wallMs: Math.round(performance.now() - figures.started),
    filesSeen: figures.filesSeen,
    parsed: output.parsed,
    cacheHits: output.cacheHits,
    cacheMisses: output.cacheMisses,
    changed: output.changed,
    read: output.read,
    removed: figures.removed,
    full: figures.full,
  };
}
