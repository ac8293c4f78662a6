/**
 * One copy of each short string in the facts the main thread keeps. Facts arrive from workers and from the
 * cache as fresh strings: a heap snapshot of the realistic 5,000-file workspace held 1.43 M strings, 299 k of
 * them distinct, 38 MB of the 59.5 MB being copies ("method", "item", "sync.Mutex"…). Names, kinds and
 * receivers repeat; long strings (signatures, docstrings) rarely do and are left alone.
 */
const MAX_POOLED_LENGTH = 64;
/** A pool that outgrows this is started afresh: strings still in use stay alive, new ones pool again. */
const MAX_ENTRIES = 1_000_000;

export class StringPool {
  private readonly strings = new Map<string, string>();

  /** The pooled copy of `value` when it is short, else `value`. */
  intern(value: string): string {
    if (value.length > MAX_POOLED_LENGTH) return value;
    const pooled = this.strings.get(value);
    if (pooled !== undefined) return pooled;
    if (this.strings.size >= MAX_ENTRIES) this.strings.clear();
    this.strings.set(value, value);
    return value;
  }

  /**
   * Replaces, in place, every short string inside plain data (objects and arrays, as facts are) by its
   * pooled copy; returns the same value. Object keys are left as they are: V8 already shares property names.
   */
  internDeep<T>(value: T): T {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item === 'string') value[i] = this.intern(item);
        else if (item !== null && typeof item === 'object') this.internDeep(item);
      }
    } else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      for (const key in record) {
        const field = record[key];
        if (typeof field === 'string') record[key] = this.intern(field);
        else if (field !== null && typeof field === 'object') this.internDeep(field);
      }
    }
    return value;
  }

  get size(): number {
    return this.strings.size;
  }
}
