// A small seeded PRNG (mulberry32) and the helpers the generators draw from. Everything the generator
// writes is a function of the seed, so the same seed gives a byte-identical tree.

/** 32-bit FNV-1a of a string: turns any seed text into a PRNG state. */
export function hash32(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function createRng(seed) {
  let state = hash32(String(seed)) || 0x9e3779b9;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  return {
    next,
    /** 0 <= x < n */
    int,
    /** lo <= x <= hi */
    range: (lo, hi) => lo + int(hi - lo + 1),
    pick: (list) => list[int(list.length)],
    chance: (p) => next() < p,
    /** k distinct items of `list`, in list order. */
    sample(list, k) {
      const idx = list.map((_, i) => i);
      for (let i = idx.length - 1; i > 0; i--) {
        const j = int(i + 1);
        [idx[i], idx[j]] = [idx[j], idx[i]];
      }
      return idx
        .slice(0, Math.min(k, list.length))
        .sort((a, b) => a - b)
        .map((i) => list[i]);
    },
    shuffle(list) {
      const out = [...list];
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(i + 1);
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
  };
}
