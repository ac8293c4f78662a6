/**
 * A server warms each snapshot shortly after it is installed (ops/warm.ts), so that the first query after
 * a start or a reload does not pay for building a lookup. A burst of reloads warms only the last snapshot.
 */
import type { Logger } from '../core/logger.js';
import { languageSpec } from '../index/languages/registry.js';
import { warmSnapshot } from '../ops/warm.js';
import type { LazyIndex } from './lazy-index.js';

/** Long enough for a burst of file events to settle into one snapshot. */
const WARM_DELAY_MS = 250;

export function warmEachSnapshot(index: LazyIndex, logger: Logger): void {
  index.onSnapshot((snapshot) => {
    const timer = setTimeout(() => {
      if (index.snapshot() !== snapshot) return;
      try {
        warmSnapshot(snapshot, languageSpec);
      } catch (error) {
        logger.warn({ err: error }, 'warming the snapshot failed; the first query builds what it needs');
      }
    }, WARM_DELAY_MS);
    timer.unref();
  });
}
