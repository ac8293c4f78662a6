/** Redraws at most this often: a terminal repainting thousands of times a second slows the index itself. */
export const PROGRESS_INTERVAL_MS = 100;
const BAR_WIDTH = 24;

/** What the bar needs from a stream: `process.stderr` in the CLI, a fake in tests. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(text: string): boolean;
}

export interface ProgressBar {
  /** Reports progress; draws at most once per interval (the first call always draws). */
  readonly update: (done: number, total: number) => void;
  /** Erases the line, leaving the terminal as it was. */
  readonly clear: () => void;
}

/** Thousands separators without Intl, so the text is the same whatever the locale. */
const formatInt = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** `indexing [=======>        ] 1,234/5,000 files`, cut to the terminal's width. */
export function progressLine(done: number, total: number, columns = 80): string {
  const ratio = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(ratio * BAR_WIDTH);
  const bar = `[${'='.repeat(Math.max(0, filled - 1))}${filled > 0 ? (filled === BAR_WIDTH ? '=' : '>') : ''}${' '.repeat(BAR_WIDTH - filled)}]`;
  const line = `indexing ${bar} ${formatInt(done)}/${formatInt(total)} files`;
  // One column short of the width: writing the last column makes some terminals wrap.
  return line.slice(0, Math.max(10, columns - 1));
}

/**
 * A one-line progress bar on a terminal, or nothing at all when the stream is not one (a pipe, a file, CI
 * logs): there, carriage returns and escape codes would only be noise.
 */
export function createProgressBar(
  stream: ProgressStream = process.stderr,
  now: () => number = () => performance.now(),
): ProgressBar | undefined {
  if (!stream.isTTY) return undefined;
  let last = Number.NEGATIVE_INFINITY;
  let drawn = false;
  let cleared = false;
  return {
    update: (done, total) => {
      if (cleared) return;
      const at = now();
      if (at - last < PROGRESS_INTERVAL_MS) return;
      last = at;
      drawn = true;
      // `\r` back to column 0, then erase the rest of the line: a shorter line leaves no tail behind.
      // A pseudo-terminal without a size reports 0 columns.
      stream.write(`\r${progressLine(done, total, stream.columns || 80)}\x1b[K`);
    },
    clear: () => {
      if (cleared) return;
      cleared = true;
      if (drawn) stream.write('\r\x1b[K');
    },
  };
}
