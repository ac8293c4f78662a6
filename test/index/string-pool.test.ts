import { describe, expect, test } from 'vitest';
import { StringPool } from '../../src/index/string-pool.js';

/** Two equal strings built at run time are distinct heap objects until a pool makes them one. */
const fresh = (text: string): string => [...text].join('');

describe('StringPool', () => {
  test('short strings inside nested data become one shared copy; long ones and keys are left alone', () => {
    const pool = new StringPool();
    const long = 'x'.repeat(65);
    const a = { name: fresh('method'), calls: [{ receiver: fresh('r.mu') }], doc: fresh(long) };
    const b = { name: fresh('method'), calls: [{ receiver: fresh('r.mu') }], doc: fresh(long) };
    expect(pool.internDeep(a)).toBe(a);
    pool.internDeep(b);
    expect(b).toEqual({ name: 'method', calls: [{ receiver: 'r.mu' }], doc: long });
    expect(pool.size).toBe(2);
    // The same value either way: interning never changes what the facts say.
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  test('numbers, booleans, null and undefined fields pass through untouched', () => {
    const pool = new StringPool();
    const facts = {
      id: 3,
      exported: true,
      parent: null,
      missing: undefined,
      lines: [1, 2],
      tags: ['a', 'b'],
    };
    expect(pool.internDeep(structuredClone(facts))).toEqual(facts);
    expect(pool.size).toBe(2);
  });
});
