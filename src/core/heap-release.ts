/**
 * Gives the main thread's spare heap back to the system when a burst of work is over. After a cold index
 * V8 keeps the pages the indexing garbage used, and collects them only under allocation pressure, which
 * an idle server never creates: on the small 5k benchmark workspace an idle server held 168 MB, of which
 * about 35 MB were heap pages holding nothing. Two full collections return them (the first frees the
 * objects, the second the emptied pages).
 *
 * Node exposes no collection call without `--expose-gc` on its command line; setting that flag at run time
 * makes `gc` available to contexts created afterwards, which is where it is taken from. Where that fails
 * (another runtime), releasing does nothing.
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Collections this close together would cost a pause for little: the heap has not grown back yet. */
const MIN_INTERVAL_MS = 60_000;
/** Wait this long after the work ends, so that a burst ending in steps collects once. */
const SETTLE_MS = 1_000;

let collector: (() => void) | null | undefined;
let lastRelease = Number.NEGATIVE_INFINITY;
let pending: NodeJS.Timeout | undefined;
let releases = 0;

function collectGarbage(): (() => void) | null {
  if (collector !== undefined) return collector;
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    collector = typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    collector = null;
  }
  return collector;
}

/**
 * Schedules a release once the work has settled, unless one ran in the last minute. `stillIdle` is asked
 * again when the time comes: work that started meanwhile cancels it (its own end schedules the next).
 */
export function releaseHeapWhenIdle(stillIdle: () => boolean): void {
  if (pending !== undefined || performance.now() - lastRelease < MIN_INTERVAL_MS) return;
  pending = setTimeout(() => {
    pending = undefined;
    if (!stillIdle()) return;
    const gc = collectGarbage();
    if (!gc) return;
    gc();
    gc();
    lastRelease = performance.now();
    releases += 1;
  }, SETTLE_MS);
  // A pending release never keeps a process alive that has nothing else to do.
  pending.unref();
}

/** How many releases this process has made (for tests and diagnostics). */
export function heapReleases(): number {
  return releases;
}
