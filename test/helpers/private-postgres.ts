/**
 * A PostgreSQL server of a test's own, for fault tests that stop and restart the database: the machine's
 * shared server stays up for every other test. Made with the installed server's initdb and pg_ctl, run as
 * the `postgres` user when the tests run as root (PostgreSQL refuses to run as root), on a free port with
 * its socket in its own folder.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseStoreUrl, type StoreChoice } from '../../src/store/postgres/store-url.js';

const PG_ROOT = '/usr/lib/postgresql';

/** The newest installed server's bin folder, if any. */
export function postgresBinDir(): string | undefined {
  if (!existsSync(PG_ROOT)) return undefined;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => existsSync(path.join(PG_ROOT, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(PG_ROOT, versions[0], 'bin') : undefined;
}

export interface PrivatePostgres {
  readonly port: number;
  /** A URL to the `postgres` database of this server. */
  readonly url: string;
  readonly store: Extract<StoreChoice, { kind: 'postgres' }>;
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  /** Stops it and removes its files. */
  destroy(): void;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('no PostgreSQL server is installed under /usr/lib/postgresql');
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'meshlens-pg-'));
  chmodSync(dir, 0o777);
  const data = path.join(dir, 'data');
  const run = (tool: string, args: string[]) => {
    const command = path.join(bin, tool);
    execFileSync(asRoot ? 'runuser' : command, asRoot ? ['-u', 'postgres', '--', command, ...args] : args, {
      stdio: 'pipe',
      cwd: dir,
    });
  };
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const store = parseStoreUrl(url);
  if (store.kind !== 'postgres') throw new Error('unreachable');
  const stop = (mode: 'fast' | 'immediate' = 'fast') => run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
  return {
    port,
    url,
    store,
    stop,
    start,
    destroy: () => {
      try {
        stop('immediate');
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
