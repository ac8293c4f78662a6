/**
 * Hands queued batches to the worker lanes, one batch in flight per lane. An idle lane takes its own next
 * batch; a lane with none left takes one from a busy lane (`LaneQueues.steal`); a lane whose worker has
 * left gives a reload's last batch to a live worker instead of starting a thread.
 */
import type { LaneQueues, Batch } from './lanes.js';
import type { WorkerLane } from './worker-lane.js';
import type { ParseBatchResult, ParseBatchTask } from './worker.js';

export interface LaneRun {
  readonly lanes: readonly WorkerLane[];
  readonly queues: LaneQueues;
  readonly taskOf: (batch: Batch) => ParseBatchTask;
  readonly signal: AbortSignal | undefined;
  /** A batch's result (outcomes in its job order), or undefined when its worker failed. Not called once aborted. */
  readonly settle: (batch: Batch, result: ParseBatchResult | undefined) => void;
}

/** Runs every queued batch; resolves with how many were lost to a failed worker. */
export function runLanes({ lanes, queues, taskOf, signal, settle }: LaneRun): Promise<number> {
  return new Promise((resolve, reject) => {
    const busy = new Set<number>();
    let lost = 0;
    let failure = false;

    const finish = (lane: number, batch: Batch, results: ParseBatchResult | undefined): void => {
      busy.delete(lane);
      // The worker gets its next batch before this thread stores the results of the last one.
      dispatch();
      try {
        if (results === undefined && signal?.aborted) return;
        if (results === undefined) lost += 1;
        settle(batch, results);
      } catch (error) {
        failure = true;
        reject(error as Error);
      } finally {
        if (busy.size === 0) resolve(lost);
      }
    };

    const start = (lane: number, batch: Batch | undefined): void => {
      if (batch === undefined) return;
      busy.add(lane);
      (lanes[lane] as WorkerLane).run(taskOf(batch), signal).then(
        (results) => finish(lane, batch, results),
        // A worker that died or threw loses its whole batch; the caller's retry recovers it.
        () => finish(lane, batch, undefined),
      );
    };

    const alive = (lane: number): boolean => (lanes[lane] as WorkerLane).threads > 0;
    // Loading one more grammar in a live worker costs a few milliseconds, starting a thread a hundred or
    // more: a lane whose worker has left gives its last batch (a reload's few files) to an idle live lane.
    // With more batches queued it starts its worker, and the live lane helps by taking some.
    const runnerFor = (owner: number): number => {
      if (alive(owner) || queues.queued(owner) > 0) return owner;
      return [...lanes.keys()].find((lane) => !busy.has(lane) && alive(lane)) ?? owner;
    };

    const dispatch = (): void => {
      if (signal?.aborted || failure) return;
      // Owners first, so that no lane takes a batch its idle owner is about to start.
      for (const lane of lanes.keys()) {
        if (busy.has(lane)) continue;
        const batch = queues.takeOwn(lane);
        if (batch !== undefined) start(runnerFor(lane), batch);
      }
      for (const [lane, worker] of lanes.entries())
        if (!busy.has(lane)) start(lane, queues.steal(busy, worker.holds()));
    };

    dispatch();
    if (busy.size === 0) resolve(lost);
  });
}
