import { describe, expect, it } from 'vitest';
import { requiredLiterals, type LiteralQuery } from '../../src/ops/code/regex-literals.js';
import { buildFilter, literalProbe, mayHoldAll } from '../../src/ops/code/trigram-bloom.js';

const sensitive = { ignoreCase: false, unicode: false };
const insensitive = { ignoreCase: true, unicode: false };

/** The tree as a compact string: `a & (b | c)`. */
function show(query: LiteralQuery): string {
  switch (query.kind) {
    case 'any':
      return '*';
    case 'literal':
      return query.text;
    case 'and':
      return query.parts.map((p) => (p.kind === 'or' ? `(${show(p)})` : show(p))).join(' & ');
    case 'or':
      return query.parts.map(show).join(' | ');
  }
}

describe('requiredLiterals', () => {
  it.each([
    ['createOrder', 'createorder'],
    ['createOrder\\(', 'createorder('],
    ['foo(Bar|Baz)+qux', 'foo & (bar | baz) & qux'],
    ['(?:foo)bar', 'foobar'],
    ['ab+cde', 'bcde'],
    ['abc?def', 'def'],
    ['abcd?ef', 'abc'],
    ['x{3}yz', 'xxxyz'],
    ['class \\w+Service\\b', 'class  & service'],
    ['TODO|FIXME', 'todo | fixme'],
    ['TODO|FI', '*'],
    ['a.b.c', '*'],
    ['[abc]def', 'def'],
    ['(?=abc)xyz', 'xyz'],
    ['(?<name>abc)def', 'abcdef'],
    ['\\d{5,}', '*'],
    ['\\x41bcd', '*'],
    ['(a)\\1bcd', '*'],
    ['orders\\.created', 'orders.created'],
    ['{abc', '{abc'],
    ['abc{1,', 'abc{1,'],
    ['(abc)?def', 'def'],
    ['(abc|)def', 'def'],
    ['^func main', 'func main'],
  ])('%s → %s', (pattern, expected) => {
    expect(show(requiredLiterals(pattern, sensitive))).toBe(expected);
  });

  it('drops non-ASCII letters when case is ignored, and s/k under the u flag', () => {
    expect(show(requiredLiterals('Ärger', insensitive))).toBe('rger');
    expect(show(requiredLiterals('Ärger', sensitive))).toBe('Ärger');
    expect(show(requiredLiterals('kafkaTask', { ignoreCase: true, unicode: true }))).toBe('ata');
  });
});

/** Deterministic pseudo-random numbers. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function test(query: LiteralQuery, filter: Uint32Array): boolean {
  switch (query.kind) {
    case 'any':
      return true;
    case 'literal':
      return mayHoldAll(filter, literalProbe(query.text));
    case 'and':
      return query.parts.every((p) => test(p, filter));
    case 'or':
      return query.parts.some((p) => test(p, filter));
  }
}

describe('the prefilter never rules out a text that matches', () => {
  const patterns = [
    'abc',
    'ab+c',
    'a(bc|cb)+a',
    'ABa',
    '(?:ab){2}c',
    'a[bc]ba',
    'ca?ba?b',
    'c{2,}ab',
    '(?<x>ab)(?=c)cab',
    'b\\.ca|acb',
    'aa?ab',
    'a{2}b',
    'ba{1,2}c',
  ];
  const letters = 'abcAB.';
  const next = rng(7);
  const texts = Array.from({ length: 3000 }, () =>
    Array.from(
      { length: 4 + Math.floor(next() * 36) },
      () => letters[Math.floor(next() * letters.length)],
    ).join(''),
  );

  it.each(patterns)('%s', (pattern) => {
    for (const ignoreCase of [false, true]) {
      const regex = new RegExp(pattern, ignoreCase ? 'i' : '');
      const query = requiredLiterals(pattern, { ignoreCase, unicode: false });
      let matched = 0;
      for (const text of texts) {
        if (!regex.test(text)) continue;
        matched++;
        expect(test(query, buildFilter(text)), `${pattern} /${ignoreCase ? 'i' : ''} on ${text}`).toBe(true);
      }
      expect(matched).toBeGreaterThan(0);
    }
  });

  it('rules out most files that lack a literal, at 4 to 8 bits per distinct sequence', () => {
    const words = Array.from({ length: 2000 }, (_, i) => `word${i.toString(36)}x${(i * 7919).toString(36)}`);
    const text = words.join(' ');
    const filter = buildFilter(text);
    const distinct = new Set(Array.from({ length: text.length - 2 }, (_, i) => text.slice(i, i + 3))).size;
    expect(filter.byteLength * 8).toBeGreaterThanOrEqual(distinct * 4);
    expect(filter.byteLength * 8).toBeLessThanOrEqual(distinct * 8);
    const absent = Array.from({ length: 1000 }, (_, i) => `zq${i.toString(36)}vj`);
    const passed = absent.filter((w) => mayHoldAll(filter, literalProbe(w))).length;
    expect(passed).toBeLessThan(50);
    for (const w of words.slice(0, 200)) expect(mayHoldAll(filter, literalProbe(w))).toBe(true);
  });
});
