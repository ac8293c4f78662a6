import { describe, expect, test } from 'vitest';
import { bindingMatches, reachedBy } from '../../src/ops/contracts/routing-keys.js';

describe('AMQP binding keys', () => {
  test.each([
    ['kern.*', 'kern.critical', true],
    ['kern.*', 'kern.critical.disk', false],
    ['*.critical', 'kern.critical', true],
    ['#.critical', 'critical', true],
    ['#.critical', 'a.b.critical', true],
    ['lazy.#', 'lazy', true],
    ['lazy.#', 'lazy.orange.rabbit', true],
    ['*.orange.*', 'quick.orange.rabbit', true],
    ['*.orange.*', 'quick.orange.male.rabbit', false],
    ['error', 'error', true],
    ['error', 'info', false],
    ['', 'anything', true],
    ['#', 'a.b', true],
  ])('binding %s admits %s: %s', (binding, key, admits) => {
    expect(bindingMatches(binding, key)).toBe(admits);
  });

  test('a consumer with no known binding, or a walk with no known key, is always reached', () => {
    expect(reachedBy(undefined, ['error'])).toBe(true);
    expect(reachedBy('info', undefined)).toBe(true);
    expect(reachedBy('info', ['error', 'warning'])).toBe(false);
    expect(reachedBy('info', ['error', 'info'])).toBe(true);
  });
});
