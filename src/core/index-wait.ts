/**
 * The first call waits for the first index. An agent's first action is often a tool call made right after
 * `initialize`, while the index is still being built (or loaded from the cache); answering "still indexing"
 * then makes one-shot clients give up. So an index-reading call that arrives early waits, within a bound,
 * and tells the caller how far the index has come while it waits.
 */

export interface IndexProgress {
  readonly done: number;
  readonly total: number;
}

export interface IndexWait {
  /** Why the index cannot be read yet, or undefined once it can. */
  readonly readiness: () => string | undefined;
  /** How far the current run has come, when one is running. */
  readonly progress: () => IndexProgress | undefined;
  /** The longest wait; past it the call is answered with the readiness message. */
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Called when the progress changes (and once at the start), at most every `POLL_MS`. */
  readonly onProgress?: (progress: IndexProgress | undefined) => void;
}

/** How often readiness is checked: short next to an index run, long next to a timer's cost. */
const POLL_MS = 50;

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * Waits until the index can be read. Returns undefined when it can, else the readiness message once the
 * bound has passed. A cancelled call stops waiting at once (the caller sees the signal aborted).
 */
export async function waitForIndex(wait: IndexWait): Promise<string | undefined> {
  let notReady = wait.readiness();
  if (notReady === undefined || wait.timeoutMs <= 0) return notReady;
  const deadline = performance.now() + wait.timeoutMs;
  let reported: string | undefined;
  while (notReady !== undefined && !wait.signal.aborted) {
    const progress = wait.progress();
    const key = progress === undefined ? 'starting' : `${progress.done}/${progress.total}`;
    if (key !== reported) {
      reported = key;
      wait.onProgress?.(progress);
    }
    const left = deadline - performance.now();
    if (left <= 0) break;
    await sleep(Math.min(POLL_MS, left), wait.signal);
    notReady = wait.readiness();
  }
  return notReady;
}
