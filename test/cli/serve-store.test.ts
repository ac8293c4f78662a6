/** `serve --http --store` refuses to start, with what to fix, when the store cannot be used (built CLI). */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempEnv } from '../helpers/cli.js';

const EXAMPLE = path.resolve(import.meta.dirname, '../../examples/polyglot-shop');
const serve = (...store: string[]) =>
  runCli(['--workspace', EXAMPLE, 'serve', '--http', '--listen', '127.0.0.1:0', ...store], {
    env: tempEnv(),
  });

describe('serve --http --store refusals', () => {
  it('a URL that is not PostgreSQL', () => {
    const result = serve('--store', 'mysql://db.internal/meshlens');
    expect([result.status, result.stderr]).toEqual([
      2,
      'meshlens: the store URL must start with postgres:// or postgresql:// (got mysql://); give `sqlite` for the local store\n',
    ]);
  });

  it('a database that cannot be reached, with the password masked', () => {
    const result = serve('--store', 'postgres://team:s3cret@127.0.0.1:1/meshlens');
    expect([result.status, result.stderr]).toEqual([
      2,
      'meshlens: the PostgreSQL store at postgres://team:***@127.0.0.1:1/meshlens cannot be reached ' +
        '(connect ECONNREFUSED 127.0.0.1:1); start the database or correct --store (or MESHLENS_STORE, [server] store)\n',
    ]);
  });

  it('--store without --http is a usage error', () => {
    const result = runCli(['--workspace', EXAMPLE, 'serve', '--store', 'postgres://h/db'], {
      env: tempEnv(),
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--listen, --allow-origin and --store go with --http');
  });
});
