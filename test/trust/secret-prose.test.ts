import { describe, expect, it } from 'vitest';
import { maskProseSecrets } from '../../src/trust/secret-prose.js';

describe('secrets in prose', () => {
  it('masks a value that follows a secret word in a sentence', () => {
    const cases: [string, string][] = [
      ['db password is hunter2secret', 'db password is [REDACTED_SECRET]'],
      ['the admin password: Xk9-qq7Lmw2.', 'the admin password: [REDACTED_SECRET].'],
      ['password for staging is hunter2', 'password for staging is [REDACTED_SECRET]'],
      ['export STRIPE_KEY=abc123def456ghi', 'export STRIPE_KEY=[REDACTED_SECRET]'],
      ['The token: "abcdefghij1234567890"', 'The token: "[REDACTED_SECRET]"'],
      ['use api key 9f8e7d6c5b4a', 'use api key 9f8e7d6c5b4a'],
    ];
    for (const [input, output] of cases) expect(maskProseSecrets(input).text, input).toBe(output);
    expect(maskProseSecrets('password is hunter22; token: zz-99-yy-88').redactions).toBe(2);
  });

  it('keeps words that only talk about secrets', () => {
    for (const text of [
      'the password: see the vault',
      'the password is rotated monthly',
      'token refresh happens every hour',
      'the primary key is order_id',
      'password is [REDACTED_SECRET]',
      'secret: none',
    ])
      expect(maskProseSecrets(text), text).toEqual({ text, redactions: 0 });
  });
});
