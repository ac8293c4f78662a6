/**
 * Which three-character sequences one file holds, as a Bloom filter: a few hundred bytes per file that
 * answer "could this file contain `createOrder`?" with no false "no". Sequences are taken with ASCII letters
 * folded to lower case, so one filter serves case-sensitive and case-insensitive searches.
 *
 * Sizing: a file of n characters holds at most n distinct sequences (about 12 % of n in real code). The
 * filter is filled at twice n bits, then folded in halves (OR of the two halves, which is the filter the
 * same hashes give at half the size) while it keeps at least `MIN_BITS_PER_SEQUENCE` bits per distinct
 * sequence. With two hashes that is at most a 15 % false-positive rate per sequence, and a search literal of
 * k sequences passes a file that lacks it with probability below 0.15^k.
 */

const MIN_BITS_PER_SEQUENCE = 4;
/** 2^5 bits: the smallest filter kept. */
const MIN_LOG_BITS = 5;

/** ASCII upper case folded to lower; every other code unit as it is. */
const fold = (code: number): number => (code >= 65 && code <= 90 ? code + 32 : code);

/** A 32-bit hash of three folded code units. */
function sequenceHash(a: number, b: number, c: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h >>> 0;
}

/** The second hash, from the first: its bits rotated and mixed. */
const secondHash = (h: number): number => (Math.imul((h << 16) | (h >>> 16), 0x297a2d39) ^ h) >>> 0;

/** The two hashes of every sequence of a literal, computed once per search and tested against each file. */
export interface LiteralProbe {
  readonly first: Uint32Array;
  readonly second: Uint32Array;
}

export function literalProbe(literal: string): LiteralProbe {
  const count = Math.max(0, literal.length - 2);
  const first = new Uint32Array(count);
  const second = new Uint32Array(count);
  for (let at = 0; at < count; at++) {
    const h = sequenceHash(
      fold(literal.charCodeAt(at)),
      fold(literal.charCodeAt(at + 1)),
      fold(literal.charCodeAt(at + 2)),
    );
    first[at] = h;
    second[at] = secondHash(h);
  }
  return { first, second };
}

function popcount(words: Uint32Array): number {
  let count = 0;
  for (let i = 0; i < words.length; i++) {
    let v = words[i] as number;
    v -= (v >>> 1) & 0x55555555;
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    count += (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
  }
  return count;
}

/** The filter of one text, as a bit array whose length (in bits) is a power of two. */
export function buildFilter(text: string): Uint32Array {
  let logBits = MIN_LOG_BITS;
  while (1 << logBits < text.length * 2 && logBits < 30) logBits++;
  let words = new Uint32Array((1 << logBits) >>> 5);
  const mask = (1 << logBits) - 1;
  let a = fold(text.charCodeAt(0));
  let b = fold(text.charCodeAt(1));
  for (let at = 2; at < text.length; at++) {
    const c = fold(text.charCodeAt(at));
    const h1 = sequenceHash(a, b, c);
    const h2 = secondHash(h1);
    words[(h1 & mask) >>> 5] = (words[(h1 & mask) >>> 5] as number) | (1 << (h1 & 31));
    words[(h2 & mask) >>> 5] = (words[(h2 & mask) >>> 5] as number) | (1 << (h2 & 31));
    a = b;
    b = c;
  }
  // Two bits per sequence, few collisions at this load: half the set bits estimates the distinct sequences.
  const sequences = Math.max(1, popcount(words) / 2);
  while (logBits > MIN_LOG_BITS && 1 << (logBits - 1) >= sequences * MIN_BITS_PER_SEQUENCE) {
    const half = words.length >>> 1;
    const folded = words.slice(0, half);
    for (let i = 0; i < half; i++) folded[i] = (folded[i] as number) | (words[i + half] as number);
    words = folded;
    logBits--;
  }
  return words;
}

/** Whether the filter may hold every sequence of the literal (false: certainly not). */
export function mayHoldAll(filter: Uint32Array, probe: LiteralProbe): boolean {
  const mask = filter.length * 32 - 1;
  const { first, second } = probe;
  for (let i = 0; i < first.length; i++) {
    const h1 = first[i] as number;
    const h2 = second[i] as number;
    if (((filter[(h1 & mask) >>> 5] as number) & (1 << (h1 & 31))) === 0) return false;
    if (((filter[(h2 & mask) >>> 5] as number) & (1 << (h2 & 31))) === 0) return false;
  }
  return true;
}
