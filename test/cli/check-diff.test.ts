/**
 * `meshlens check --diff` through the built CLI, on a committed copy of examples/polyglot-shop edited in the
 * working tree: the exit status a CI pipeline gates on.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempEnv } from '../helpers/cli.js';
import { removeTemps, tempDir } from '../helpers/engine.js';
import { git } from '../helpers/git.js';
import { EXAMPLE } from '../helpers/workspace.js';

let ws: string;
const env = tempEnv();
const check = (...args: string[]) => runCli(['--workspace', ws, 'check', ...args], { env });

function edit(relative: string, from: string, to: string): void {
  const file = path.join(ws, ...relative.split('/'));
  const text = readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${relative} no longer contains ${JSON.stringify(from)}`);
  writeFileSync(file, text.replace(from, to));
}

beforeAll(() => {
  ws = tempDir('meshlens-check-diff-');
  cpSync(EXAMPLE, ws, { recursive: true });
  git(ws, 'init', '-q', '-b', 'main');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'base');
});
afterAll(() => removeTemps());

describe('meshlens check --diff', () => {
  it('a clean tree exits 0 with the authoritative zero (HEAD is the default)', () => {
    const result = check();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('No changes between the working tree and `HEAD`');
  });

  it('a Go handler edited compatibly exits 0; a proto field type changed exits 1', () => {
    edit(
      'services/payment/server.go',
      '\tp = s.store.refund(p.PaymentID)\n',
      '\tp = s.store.refund(p.PaymentID) // settled\n',
    );
    const compatible = check('--diff', 'HEAD');
    expect(compatible.status).toBe(0);
    expect(compatible.stdout).toContain(
      '| declaration | changed | `method server.RefundPayment` | `services/payment/server.go:34` |',
    );

    edit('proto/payment.proto', '  int64 units = 2;', '  string units = 2;');
    const breaking = check('--diff', 'HEAD');
    expect(breaking.status).toBe(1);
    expect(breaking.stdout).toContain(
      '- BREAKING `proto/payment.proto:31`: type_changed `shop.payment.v1.Money.units` — field `units = 2`: incompatible type change `int64` → `string`',
    );
  });

  it('a revision that is not a commit exits 2 with the reason', () => {
    const result = check('--diff', 'no-such-branch');
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('`diff`: "no-such-branch" is not a commit in this repository');
  });
});
