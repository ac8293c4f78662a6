import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteKeyStore } from '../../src/store/keys-db.js';
import { runCli, tempEnv } from '../helpers/cli.js';
import { removeTemps } from '../helpers/engine.js';

const KEY_LINE = /^(ml_[0-9a-f]{48})$/m;

function createKey(env: Record<string, string>, ...args: string[]) {
  const result = runCli(['keys', 'create', ...args], { env });
  const key = KEY_LINE.exec(result.stdout)?.[1] ?? '';
  return { ...result, key, prefix: key.slice(0, 11) };
}

describe('meshlens keys', () => {
  afterAll(() => removeTemps());

  it('creates a key, prints it once with its prefix, and lists it without the hash', () => {
    const env = tempEnv();
    const db = path.join(env.MESHLENS_DATA_DIR ?? '', 'keys.db');
    const created = createKey(
      env,
      '--tenant',
      'acme',
      '--role',
      'reader',
      '--label',
      'ci bot',
      '--expires',
      '2099-12-31',
      '--rate',
      '5/s',
      '--daily',
      '100',
    );
    expect(created.status).toBe(0);
    expect(created.stdout).toBe(
      `Created key ${created.prefix} (id 1) for tenant acme, role reader, expires 2099-12-31T00:00:00.000Z, rate 5/s, 100 calls a day.\n` +
        'The key is shown this once; only its prefix and a hash are kept:\n\n' +
        `${created.key}\n`,
    );
    const second = createKey(env, '--tenant', 'globex', '--role', 'admin');
    const list = runCli(['keys', 'list', '--json'], { env });
    const listed = JSON.parse(list.stdout) as { db: string; keys: Record<string, unknown>[] };
    expect(listed.db).toBe(db);
    expect(
      listed.keys.map((k) => [
        k.id,
        k.prefix,
        k.tenant,
        k.role,
        k.label,
        k.rate,
        k.daily,
        k.expires_at,
        k.revoked_at,
        k.last_used_at,
      ]),
    ).toEqual([
      [1, created.prefix, 'acme', 'reader', 'ci bot', '5/s', 100, '2099-12-31T00:00:00.000Z', null, null],
      [2, second.prefix, 'globex', 'admin', '', null, null, null, null, null],
    ]);
    expect(JSON.stringify(listed)).not.toContain('hash');
    const table = runCli(['keys', 'list'], { env }).stdout.split('\n');
    expect(table[0]).toBe(
      'id  prefix       tenant  role    label   rate  daily  created                   expires                   revoked  last used',
    );
    expect(table[1]).toMatch(
      new RegExp(
        `^ 1  ${created.prefix}  acme    reader  ci bot  5/s     100  \\S+Z  2099-12-31T00:00:00.000Z        -          -$`,
      ),
    );
    const bytes = readFileSync(db).toString('latin1');
    expect(bytes.includes(created.key) || bytes.includes(created.key.slice(11))).toBe(false);
  });

  it('revokes by prefix or id, once', () => {
    const env = tempEnv();
    const created = createKey(env, '--tenant', 'acme', '--role', 'reader');
    const revoked = runCli(['keys', 'revoke', created.prefix], { env });
    expect(revoked.status).toBe(0);
    expect(revoked.stdout).toMatch(
      new RegExp(`^Revoked key ${created.prefix} \\(id 1, tenant acme\\) at \\S+Z\\.\\n$`),
    );
    const again = runCli(['keys', 'revoke', '1'], { env });
    expect(again.stdout).toMatch(
      new RegExp(`^Key ${created.prefix} \\(id 1\\) was revoked already, at \\S+Z\\.\\n$`),
    );
    const listed = JSON.parse(runCli(['keys', 'list', '--json'], { env }).stdout) as {
      keys: { revoked_at: string }[];
    };
    expect(listed.keys[0]?.revoked_at).toMatch(/Z$/);
  });

  it('refuses bad input with exit 2, saying what was wrong, and writes nothing', () => {
    const env = tempEnv();
    const db = path.join(env.MESHLENS_DATA_DIR ?? '', 'keys.db');
    const cases: [string[], string][] = [
      [
        ['create', '--tenant', 'a b', '--role', 'r'],
        'meshlens: invalid --tenant "a b": use up to 64 letters, digits, ".", "_" or "-", starting with a letter or digit\n',
      ],
      [
        ['create', '--tenant', 't', '--role', 'r', '--expires', 'soon'],
        'meshlens: invalid --expires "soon": write a duration (30d, 12h), a day (2026-12-31, from 00:00 UTC) or a time with its zone (2026-12-31T18:00:00Z)\n',
      ],
      [
        ['create', '--tenant', 't', '--role', 'r', '--expires', '2020-01-01'],
        'meshlens: --expires 2020-01-01 is not in the future (2020-01-01T00:00:00.000Z)\n',
      ],
      [
        ['create', '--tenant', 't', '--role', 'r', '--rate', '5'],
        'meshlens: --rate: invalid rate "5": a rate is written N/s, N/m or N/h with N a whole number from 1, e.g. 10/s\n',
      ],
      [
        ['create', '--tenant', 't', '--role', 'r', '--daily', '0'],
        'meshlens: invalid --daily "0": a whole number of calls per UTC day, from 1\n',
      ],
      [
        ['revoke', 'ml_zz'],
        'meshlens: invalid key "ml_zz": name it by its prefix (ml_ and 8 hex digits, as `meshlens keys list` shows) or its id\n',
      ],
    ];
    for (const [args, stderr] of cases) {
      const result = runCli(['keys', ...args], { env });
      expect([result.status, result.stdout, result.stderr]).toEqual([2, '', stderr]);
    }
    const missing = runCli(['keys', 'create', '--role', 'r'], { env });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("error: required option '--tenant <name>' not specified");
    expect(existsSync(db)).toBe(false);
    const unknown = runCli(['keys', 'revoke', 'ml_0123abcd'], { env });
    expect([unknown.status, unknown.stderr]).toEqual([
      2,
      `meshlens: no key ml_0123abcd in ${db}; \`meshlens keys list\` shows the keys\n`,
    ]);
  });

  it('shows calls and refusals per key, per tenant and for the local server in stats', () => {
    const env = tempEnv();
    const db = path.join(env.MESHLENS_DATA_DIR ?? '', 'keys.db');
    const created = createKey(env, '--tenant', 'acme', '--role', 'reader');
    const second = createKey(env, '--tenant', 'acme', '--role', 'admin');
    const globex = createKey(env, '--tenant', 'globex', '--role', 'reader');
    const store = SqliteKeyStore.open({ path: db, env });
    const today = new Date().toISOString().slice(0, 10);
    for (let i = 0; i < 4; i++) store.admitCall('key:1', today, 3);
    store.countRefusal('key:1', today);
    store.admitCall('key:2', today, undefined);
    for (let i = 0; i < 2; i++) store.admitCall('key:3', today, undefined);
    store.admitCall('local', today, undefined);
    store.admitCall('key:9', '2001-01-01', undefined);
    store.close();
    const report = JSON.parse(runCli(['stats', '--json'], { env }).stdout) as { key_usage: unknown };
    const fromDay = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
    expect(report.key_usage).toEqual({
      db,
      from_day: fromDay,
      callers: [
        { caller: created.prefix, tenant: 'acme', calls: 3, refusals: 2 },
        { caller: globex.prefix, tenant: 'globex', calls: 2, refusals: 0 },
        { caller: second.prefix, tenant: 'acme', calls: 1, refusals: 0 },
        { caller: 'local', tenant: null, calls: 1, refusals: 0 },
      ],
      tenants: [
        { tenant: 'acme', keys: 2, calls: 4, refusals: 2 },
        { tenant: 'globex', keys: 1, calls: 2, refusals: 0 },
      ],
    });
    const text = runCli(['stats', '--since', 'all'], { env }).stdout;
    expect(text.split('\n').slice(-13)).toEqual([
      `Calls per key (${db}, all days):`,
      'caller           tenant  calls  refusals',
      `${created.prefix}      acme        3         2`,
      `${globex.prefix}      globex      2         0`,
      `${second.prefix}      acme        1         0`,
      'key 9 (deleted)  -           1         0',
      'local            -           1         0',
      '',
      'Calls per tenant:',
      'tenant  keys  calls  refusals',
      'acme       2      4         2',
      'globex     1      2         0',
      '',
    ]);
    const acme = JSON.parse(runCli(['stats', '--tenant', 'acme', '--json'], { env }).stdout) as {
      key_usage: { callers: { caller: string }[] };
    };
    expect(acme.key_usage.callers.map((c) => c.caller)).toEqual([created.prefix, second.prefix]);
  });
});
