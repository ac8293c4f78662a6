import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- the generator is plain JavaScript without types
import { generateWorkspace } from '../../bench/gen-workspace.mjs';
import type { IndexStatus } from '../../src/index/reader.js';
import { runCli, tempEnv } from '../helpers/cli.js';
import { removeTemps, tempDir, waitFor } from '../helpers/engine.js';
import { httpClient, startHttpServe, stopHttpServe, type HttpServe } from '../helpers/http-serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

/**
 * Replica A indexes a workspace on the team store and is killed (SIGKILL) part way, after it shared some
 * facts; replica B then takes the job, reuses what A shared and parses the rest. Both are the built CLI.
 */
const FILES = 600;
const UPLOAD_BATCH = 256;

let db: TestDatabase;
let workspace: string;
const servers: HttpServe[] = [];

beforeAll(async () => {
  db = await createTestDatabase('kill');
  workspace = path.join(tempDir('meshlens-kill-'), 'shop');
  generateWorkspace({ out: workspace, files: FILES, shape: 'realistic' });
});
afterAll(async () => {
  for (const serve of servers) if (serve.process.exitCode === null) serve.process.kill('SIGKILL');
  await db.drop();
  removeTemps();
});

async function scalar(sql: string, values: unknown[] = []): Promise<number> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(sql, values);
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

async function runsOf(): Promise<[string, string][]> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ replica: string; state: string }>(
      'SELECT replica, state FROM index_runs ORDER BY id DESC',
    );
    return rows.map((row) => [row.replica, row.state]);
  } finally {
    await client.end();
  }
}

const sharedFacts = () => scalar('SELECT count(*)::int AS n FROM shared_facts');

async function serveReplica(env: Record<string, string>): Promise<HttpServe> {
  const serve = await startHttpServe(['--no-watch', '--workspace', workspace, '--store', db.url], env);
  servers.push(serve);
  return serve;
}

interface IndexJson extends IndexStatus {
  readonly fingerprint: string;
}

function indexJson(env: Record<string, string>): IndexJson {
  const result = runCli(['index', '--json', '--workspace', workspace], { env });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as IndexJson;
}

const counts = (status: IndexStatus) => ({
  files: status.files,
  byLanguage: status.byLanguage,
  symbols: status.symbols,
  contracts: status.contracts,
  docSections: status.docSections,
  rejected: status.rejected.length,
});

describe('a replica killed in the middle of the cold index (built CLI, real PostgreSQL)', () => {
  it('the next replica takes the job over, reuses what the dead one shared, and answers as a clean index', async () => {
    const a = await serveReplica(tempEnv());
    const replicaA = `meshlens-${a.process.pid}`;
    await waitFor(
      'replica A to share its first batch of facts',
      async () => (await sharedFacts()) >= UPLOAD_BATCH,
      180_000,
    );
    expect(await runsOf()).toEqual([[replicaA, 'running']]);
    const exited = new Promise((resolve) => a.process.once('exit', resolve));
    a.process.kill('SIGKILL');
    await exited;
    // Its lock goes with its connection: wait until the server has seen every one of them close.
    await waitFor(
      "replica A's connections to close",
      async () =>
        (await scalar('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [
          replicaA,
        ])) === 0,
    );
    const sharedByA = await sharedFacts();

    const envB = tempEnv();
    const b = await serveReplica(envB);
    const client = await httpClient(b.url);
    let status: IndexStatus | undefined;
    await waitFor(
      'replica B to finish the cold index',
      async () => {
        const result = await client.callTool({ name: 'admin', arguments: { mode: 'status' } });
        status = result.structuredContent as unknown as IndexStatus;
        return status.phase === 'ready' && status.shared?.state === 'built';
      },
      180_000,
    );
    await client.close();
    expect(await stopHttpServe(b)).toBe(0);

    // A clean index of the same workspace, with no store and a cache of its own.
    const clean = indexJson(tempEnv());
    const parseable = clean.lastRun?.parsed ?? 0;
    const shared = status?.shared;
    expect(sharedByA).toBeLessThan(parseable);
    expect(shared?.thisRun).toEqual({
      parsed: parseable - sharedByA,
      pulled: sharedByA,
      uploaded: parseable - sharedByA,
      matchesSnapshot: true,
    });
    expect(status?.lastRun?.parsed).toBe(parseable - sharedByA);
    expect(shared?.snapshot).toMatchObject({ replica: `meshlens-${b.process.pid}`, files: clean.files });
    expect(await runsOf()).toEqual([
      [`meshlens-${b.process.pid}`, 'done'],
      [replicaA, 'abandoned'],
    ]);
    expect(await sharedFacts()).toBe(parseable);
    expect(counts(status as IndexStatus)).toEqual(counts(clean));
    // B's own cache, which holds A's shared rows, rebuilds the clean index exactly, parsing nothing.
    const fromB = indexJson(envB);
    expect(fromB.lastRun?.parsed).toBe(0);
    expect(fromB.fingerprint).toBe(clean.fingerprint);
  }, 600_000);
});
