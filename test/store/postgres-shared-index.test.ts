import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LazyIndex } from '../../src/cli/lazy-index.js';
import { loadConfig } from '../../src/core/config.js';
import { silentLogger } from '../../src/core/logger.js';
import type { IndexStatus } from '../../src/index/reader.js';
import { IndexJobs } from '../../src/store/postgres/index-jobs.js';
import { SharedFacts } from '../../src/store/postgres/shared-facts.js';
import { PostgresPool } from '../../src/store/postgres/pool.js';
import { parseStoreUrl } from '../../src/store/postgres/store-url.js';
import { openTeamStore, type TeamStore } from '../../src/store/postgres/team-store.js';
import { SERVER_TENANT } from '../../src/cli/team-index.js';
import { sharedSection } from '../../src/ops/admin/shared-index-section.js';
import { makeEngine, polyglotFiles, removeTemps, tempDir, waitFor, writeFiles } from '../helpers/engine.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

let db: TestDatabase;
const opened: { close(): Promise<void> }[] = [];
const savedCacheDir = process.env['MESHLENS_CACHE_DIR'];

beforeAll(async () => {
  db = await createTestDatabase('shared_index');
  // Each replica's workspace copy lives at its own path, so each gets a local cache of its own under here.
  process.env['MESHLENS_CACHE_DIR'] = tempDir('meshlens-shared-cache-');
});
afterAll(async () => {
  for (const thing of opened.reverse()) await thing.close().catch(() => undefined);
  await db.drop();
  if (savedCacheDir === undefined) delete process.env['MESHLENS_CACHE_DIR'];
  else process.env['MESHLENS_CACHE_DIR'] = savedCacheDir;
  removeTemps();
});

/** A copy of a workspace named `name` in a folder of its own, as another replica's checkout would be. */
function checkout(name: string, files: [string, string][]): string {
  const dir = path.join(tempDir('meshlens-replica-'), name);
  writeFiles(
    dir,
    files.map(([file, text]) =>
      (file === 'meshlens.toml'
        ? [file, text.replace('name = "shop"', `name = "${name}"`)]
        : [file, text]) as readonly [string, string],
    ),
  );
  return dir;
}

async function team(replica: string): Promise<TeamStore> {
  const store = await openTeamStore(db.store, { replica });
  opened.push(store);
  return store;
}

function replicaIndex(dir: string, store: TeamStore): LazyIndex {
  const loaded = loadConfig({ cwd: dir, workspaceDir: dir, env: {} });
  const index = new LazyIndex(loaded, silentLogger, { team: store, pollMs: 20, threads: 0 });
  opened.push(index);
  return index;
}

const counts = (status: IndexStatus) => ({
  files: status.files,
  symbols: status.symbols,
  contracts: status.contracts,
  docSections: status.docSections,
});

async function query<R extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query<R>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * What a replica does when it takes a job, on a plain connection: the job row locked in an open
 * transaction, a run recorded as running. Ending the connection is the replica dying.
 */
async function holdJob(workspace: string, replica: string): Promise<pg.Client> {
  const holder = new pg.Client({ connectionString: db.url, application_name: replica });
  holder.on('error', () => undefined);
  await holder.connect();
  await holder.query(`INSERT INTO index_jobs (tenant, workspace) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
    SERVER_TENANT,
    workspace,
  ]);
  await holder.query(
    `INSERT INTO index_runs (tenant, workspace, replica, state) VALUES ($1, $2, $3, 'running')`,
    [SERVER_TENANT, workspace, replica],
  );
  await holder.query('BEGIN');
  await holder.query(`SELECT * FROM index_jobs WHERE workspace = $1 FOR UPDATE`, [workspace]);
  return holder;
}

describe('replicas on one PostgreSQL store share the index', () => {
  test('the second replica parses nothing, pulls every fact and answers the same', async () => {
    const a = replicaIndex(checkout('shop', polyglotFiles()), await team('replica-a'));
    await a.start({ watch: false });
    const first = a.status();
    expect(first.lastRun?.parsed).toBe(11);
    expect(counts(first)).toEqual({ files: 11, symbols: 26, contracts: 3, docSections: 5 });
    expect(first.shared).toMatchObject({
      replica: 'replica-a',
      state: 'built',
      snapshot: { replica: 'replica-a', files: 11, parsed: 11 },
      thisRun: { parsed: 11, pulled: 0, uploaded: 11, matchesSnapshot: true },
    });
    const shared = new SharedFacts((await team('reader')).pool, { tenant: SERVER_TENANT, workspace: 'shop' });
    expect(await shared.count()).toBe(11);

    const b = replicaIndex(checkout('shop', polyglotFiles()), await team('replica-b'));
    await b.start({ watch: false });
    const second = b.status();
    expect(second.lastRun?.parsed).toBe(0);
    expect(counts(second)).toEqual(counts(first));
    expect(second.shared).toMatchObject({
      replica: 'replica-b',
      state: 'built',
      thisRun: { parsed: 0, pulled: 11, uploaded: 0, matchesSnapshot: true },
    });
    // Both runs read the same inputs, so both snapshots carry the same fingerprint.
    expect(second.shared?.snapshot?.inputsFingerprint).toBe(first.shared?.snapshot?.inputsFingerprint);
    expect((await b.load()).fingerprintOf()).toBe((await a.load()).fingerprintOf());
    // The same answers as an index of its own, without any store.
    const { engine } = makeEngine(checkout('shop', polyglotFiles()), { cacheDir: null });
    await engine.indexAll();
    expect(counts(engine.status())).toEqual(counts(second));
    expect(engine.fingerprintOf()).toBe((await b.load()).fingerprintOf());
    await engine.close();
    const runs = await new IndexJobs((await team('runs')).pool, shared.scope, silentLogger).runs();
    expect(runs.map((run) => [run.replica, run.state, run.parsed, run.pulled])).toEqual([
      ['replica-b', 'done', 0, 11],
      ['replica-a', 'done', 11, 0],
    ]);
    for (const run of runs)
      expect(Date.parse(run.finishedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(run.startedAt));
  });

  test('a replica that starts while another builds waits (reported as indexing), then pulls what it built', async () => {
    // Both find the job held (here by a plain connection), so both wait; when it lets go, one builds and
    // the other waits for it, then follows.
    const holder = await holdJob('busy', 'early-bird');
    const first = replicaIndex(checkout('busy', polyglotFiles()), await team('first'));
    const second = replicaIndex(checkout('busy', polyglotFiles()), await team('second'));
    const started = [first.start({ watch: false }), second.start({ watch: false })];
    await waitFor('both to wait', () => [first, second].every((i) => i.status().shared?.state === 'waiting'));
    const waiting = first.status();
    expect(waiting.phase).toBe('indexing');
    expect(waiting.shared?.holder?.replica).toBe('early-bird');
    expect(first.readiness()).toBe(
      'Still indexing: replica early-bird is indexing this workspace for every replica; this one uses its result when it finishes. Retry shortly, or call admin status.',
    );
    await holder.end();
    await Promise.all(started);
    const statuses = [first.status(), second.status()];
    const built = statuses.find((status) => status.shared?.state === 'built');
    const followed = statuses.find((status) => status.shared?.state === 'followed');
    expect(built?.lastRun?.parsed).toBe(11);
    expect(followed?.lastRun?.parsed).toBe(0);
    expect(counts(followed as IndexStatus)).toEqual(counts(built as IndexStatus));
    expect(followed?.shared).toMatchObject({
      state: 'followed',
      snapshot: { replica: built?.shared?.replica, files: 11, parsed: 11 },
      thisRun: { parsed: 0, pulled: 11, uploaded: 0, matchesSnapshot: true },
    });
  });

  test('a claim released without finishing is taken over, and the facts shared before it are reused', async () => {
    const dir = checkout('orphan', polyglotFiles());
    const store = await team('survivor');
    const scope = { tenant: SERVER_TENANT, workspace: 'orphan' };
    // A replica that shared a few facts, then died holding the job: first share, then hold the lock.
    const donor = replicaIndex(checkout('donor', polyglotFiles()), await team('donor'));
    await donor.start({ watch: false });
    await query(
      `INSERT INTO shared_facts (tenant, workspace, key, kind, enc, value)
       SELECT $1, 'orphan', key, kind, enc, value FROM shared_facts WHERE workspace = 'donor'
        ORDER BY key LIMIT 6`,
      [SERVER_TENANT],
    );
    const holder = await holdJob('orphan', 'dying');

    const survivor = replicaIndex(dir, store);
    const started = survivor.start({ watch: false });
    await waitFor('the survivor to wait', () => survivor.status().shared?.state === 'waiting');
    expect(survivor.status().shared?.holder?.replica).toBe('dying');
    await query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'dying'`);
    await started;
    await holder.end().catch(() => undefined);
    const status = survivor.status();
    // Six files' facts were shared before the holder died (same roots, paths and contents as the donor's):
    // the survivor pulls those and parses the other five, then shares them.
    expect(status.lastRun?.parsed).toBe(5);
    expect(status.shared).toMatchObject({
      state: 'built',
      thisRun: { parsed: 5, pulled: 6, uploaded: 5 },
    });
    expect(counts(status)).toEqual({ files: 11, symbols: 26, contracts: 3, docSections: 5 });
    const rows = await query<{ n: number }>(
      `SELECT count(*)::int AS n FROM shared_facts WHERE workspace = 'orphan'`,
    );
    expect(rows).toEqual([{ n: 11 }]);
    const runs = await new IndexJobs(store.pool, scope, silentLogger).runs();
    expect(runs.map((run) => [run.replica, run.state])).toEqual([
      ['survivor', 'done'],
      ['dying', 'abandoned'],
    ]);
  });

  test('a replica whose checkout differs pulls what matches, parses the rest, and says its files differ', async () => {
    const clean = replicaIndex(checkout('drift', polyglotFiles()), await team('clean'));
    await clean.start({ watch: false });
    const holder = await holdJob('drift', 'finisher');
    const drifted = polyglotFiles().map(([file, text]): [string, string] =>
      file === 'services/inventory/stock.go' ? [file, text.replace('Reserve', 'Hold')] : [file, text],
    );
    const late = replicaIndex(checkout('drift', drifted), await team('late'));
    const started = late.start({ watch: false });
    await waitFor('the late replica to wait', () => late.status().shared?.state === 'waiting');
    // The holder finishes with the clean checkout's inputs: its run becomes the job's snapshot.
    await holder.query(
      `UPDATE index_runs r SET state = 'done', finished_at = now(), files = c.files, parsed = c.parsed,
              inputs_fingerprint = c.inputs_fingerprint
         FROM index_runs c WHERE r.replica = 'finisher' AND c.replica = 'clean'`,
    );
    await holder.query(
      `UPDATE index_jobs SET snapshot_run = (SELECT id FROM index_runs WHERE replica = 'finisher')
        WHERE workspace = 'drift'`,
    );
    await holder.query('COMMIT');
    await started;
    await holder.end();
    const status = late.status();
    expect(status.lastRun?.parsed).toBe(1);
    expect(status.shared).toMatchObject({
      state: 'followed',
      snapshot: { replica: 'finisher', files: 11, parsed: 11 },
      thisRun: { parsed: 1, pulled: 10, uploaded: 1, matchesSnapshot: false },
    });
    const run = status.shared?.snapshot?.run;
    expect(sharedSection(status.shared)).toEqual([
      '**Shared index:** this replica (late) indexed from the shared facts.',
      `Shared snapshot: run ${run} by replica finisher, finished ${status.shared?.snapshot?.finishedAt}; 11 files, 11 parsed there.`,
      'This replica parsed 1 file, pulled 10 facts from the store and shared 1. Its files differ from the shared snapshot (another checkout or settings).',
    ]);
  });

  test('a replica whose store cannot be reached indexes on its own and says why', async () => {
    const store = parseStoreUrl('postgres://meshlens@127.0.0.1:1/nowhere');
    if (store.kind !== 'postgres') throw new Error('expected postgres');
    const pool = await PostgresPool.open({ store });
    const lonely = replicaIndex(checkout('lonely', polyglotFiles()), {
      store,
      pool,
      replica: 'lonely',
      close: () => pool.close(),
    });
    opened.push({ close: () => pool.close() });
    await lonely.start({ watch: false });
    const status = lonely.status();
    expect(status.lastRun?.parsed).toBe(11);
    expect(counts(status)).toEqual({ files: 11, symbols: 26, contracts: 3, docSections: 5 });
    expect(status.shared).toEqual({
      replica: 'lonely',
      state: 'unshared',
      note:
        'the index job could not be taken (the PostgreSQL store at postgres://meshlens@127.0.0.1:1/nowhere cannot be reached ' +
        '(connect ECONNREFUSED 127.0.0.1:1); calls that need it fail until it is back, then recover by themselves); ' +
        'this replica indexed on its own',
      thisRun: { parsed: 11, pulled: 0, uploaded: 0, matchesSnapshot: false },
    });
  });
});
