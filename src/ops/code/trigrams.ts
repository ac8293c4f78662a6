const ASCII_KEYS = 1 << 21;

/**
 * A three-character sequence as one number: a small integer for ASCII (the common case, and a fast map key),
 * above that range for any other UTF-16 units.
 */
function trigramAt(text: string, at: number): number {
  const a = text.charCodeAt(at);
  const b = text.charCodeAt(at + 1);
  const c = text.charCodeAt(at + 2);
  if (a < 128 && b < 128 && c < 128) return (a << 14) | (b << 7) | c;
  return ASCII_KEYS + (a * 65536 + b) * 65536 + c;
}

/**
 * Which names contain a given three-character sequence, so that a substring query only checks the names
 * holding the rarest sequence of the query instead of scanning them all. Built in one pass as a compact
 * table (slot ids per sequence, ascending); names appended later by an incremental reload go to a small
 * overflow list instead of a rebuild.
 */
export class TrigramTable {
  private readonly idOf = new Map<number, number>();
  private readonly offsets: Int32Array;
  private readonly slots: Int32Array;
  private readonly overflow = new Map<number, number[]>();
  private appendedNames = 0;

  constructor(names: readonly string[]) {
    // Two passes over the names (count, then fill) instead of one that keeps every (name, sequence) pair:
    // the table is built while a server answers, and a large temporary array would end in a long GC pause.
    const counts: number[] = [];
    let stamp: number[] = [];
    const forEachSequence = (name: string, slot: number, visit: (id: number) => void): void => {
      for (let at = 0; at + 3 <= name.length; at++) {
        const trigram = trigramAt(name, at);
        let id = this.idOf.get(trigram);
        if (id === undefined) {
          id = counts.length;
          this.idOf.set(trigram, id);
          counts.push(0);
          stamp.push(-1);
        }
        // A name holding a sequence twice is listed once.
        if (stamp[id] === slot) continue;
        stamp[id] = slot;
        visit(id);
      }
    };
    names.forEach((name, slot) => forEachSequence(name, slot, (id) => (counts[id] = (counts[id] ?? 0) + 1)));
    this.offsets = new Int32Array(counts.length + 1);
    for (let id = 0; id < counts.length; id++)
      this.offsets[id + 1] = (this.offsets[id] ?? 0) + (counts[id] ?? 0);
    // Filled in slot order, so each list is ascending.
    this.slots = new Int32Array(this.offsets[counts.length] ?? 0);
    const fill = this.offsets.slice(0, counts.length);
    stamp = new Array<number>(counts.length).fill(-1);
    names.forEach((name, slot) =>
      forEachSequence(name, slot, (id) => {
        this.slots[fill[id] as number] = slot;
        fill[id] = (fill[id] as number) + 1;
      }),
    );
  }

  /** Records a name given a slot after the table was built (slots only grow). */
  append(slot: number, name: string): void {
    this.appendedNames++;
    const seen = new Set<number>();
    for (let at = 0; at + 3 <= name.length; at++) {
      const trigram = trigramAt(name, at);
      if (seen.has(trigram)) continue;
      seen.add(trigram);
      const list = this.overflow.get(trigram);
      if (list) list.push(slot);
      else this.overflow.set(trigram, [slot]);
    }
  }

  /** How many names were appended since the table was built (a rebuild is due when this grows large). */
  get appended(): number {
    return this.appendedNames;
  }

  /**
   * Slots, ascending, of every name that could contain `needle` (at least three characters): the names
   * holding its rarest sequence. A superset: the caller checks each name.
   */
  candidates(needle: string): Iterable<number> {
    let best: { start: number; end: number; extra: readonly number[] } | undefined;
    for (let at = 0; at + 3 <= needle.length; at++) {
      const trigram = trigramAt(needle, at);
      const id = this.idOf.get(trigram);
      const start = id === undefined ? 0 : (this.offsets[id] ?? 0);
      const end = id === undefined ? 0 : (this.offsets[id + 1] ?? 0);
      const extra = this.overflow.get(trigram) ?? [];
      if (!best || end - start + extra.length < best.end - best.start + best.extra.length)
        best = { start, end, extra };
      if (end - start + extra.length === 0) break;
    }
    if (!best) return [];
    // Overflow slots are all higher than the table's: appending keeps the order ascending.
    return [...this.slots.subarray(best.start, best.end), ...best.extra];
  }
}
