/** Largest line accepted before the buffer is dropped (a client would never send this in one message). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** The JSON-RPC error text for a line over MAX_LINE_BYTES. */
export const LONG_LINE_MESSAGE = 'Parse error: line exceeds 16 MiB';

/**
 * Splits text chunks into lines (newline-delimited JSON-RPC). `buffer` holds only the start of a line (never
 * a newline), so each chunk is searched once: a long line costs linear time, however many chunks it comes
 * in. A line over the limit (MAX_LINE_BYTES unless given) is reported once through `onLongLine` and dropped up to its newline; blank
 * lines are skipped. Has no dependencies, so that the thin stdio client can use it without the SDK.
 */
export class LineReader {
  private buffer = '';
  /** Set after an oversized line was dropped, until its newline arrives. */
  private skipping = false;
  private readonly onLine: (line: string) => void;
  private readonly onLongLine: () => void;
  private readonly maxBytes: number;

  /** `maxBytes`: Infinity for a trusted peer whose lines are passed on whatever their length. */
  constructor(onLine: (line: string) => void, onLongLine: () => void, maxBytes = MAX_LINE_BYTES) {
    this.onLine = onLine;
    this.onLongLine = onLongLine;
    this.maxBytes = maxBytes;
  }

  push(chunk: string): void {
    let text = chunk;
    if (this.skipping) {
      // The rest of an oversized line: already answered, so dropped up to its newline.
      const end = text.indexOf('\n');
      if (end === -1) return;
      this.skipping = false;
      text = text.slice(end + 1);
    }
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      const line = (this.buffer + text.slice(start, newline)).replace(/\r$/, '');
      this.buffer = '';
      start = newline + 1;
      if (line.length > this.maxBytes) this.onLongLine();
      else if (line.trim() !== '') this.onLine(line);
    }
    this.buffer += text.slice(start);
    if (this.buffer.length > this.maxBytes) {
      this.buffer = '';
      this.skipping = true;
      this.onLongLine();
    }
  }
}
