/**
 * PostgreSQL restarted under load: a server of the test's own (the machine's shared server stays up for the
 * other tests), `serve --http --store` on it with an API key, clients calling without pause while the
 * database stops and starts again. Calls may fail only while it is down, each with the store's 503 and its
 * reason; they recover by themselves; nothing is lost: the audit chain verifies, the note and the key are
 * still there.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempEnv } from '../helpers/cli.js';
import { removeTemps, tempDir, writeFiles } from '../helpers/engine.js';
import { startHttpServe, stopHttpServe, type HttpServe } from '../helpers/http-serve.js';
import { callTool, openSession, type RawAnswer } from '../helpers/http-raw.js';
import { startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres.js';

const KEY_LINE = /^(ml_[0-9a-f]{48})$/m;
const CONFIG = '[workspace]\nroots = ["api"]\n\n[server.visibility.roles]\nmember = ["*"]\n';
const CLIENTS = 6;
const UNAVAILABLE =
  'Service Unavailable: the key store cannot be reached, so no key can be checked or counted; retry in 5 s.';

let postgres: PrivatePostgres;
let storeUrl: string;
let env: Record<string, string>;
let workspace: string;
let server: HttpServe | undefined;

beforeAll(async () => {
  postgres = await startPrivatePostgres();
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('CREATE DATABASE meshlens');
  await admin.end();
  storeUrl = postgres.url.replace(/\/postgres$/, '/meshlens');
  env = tempEnv();
  workspace = tempDir('meshlens-pg-restart-');
  writeFiles(workspace, {
    'meshlens.toml': CONFIG,
    'api/main.go': 'package main\n\nfunc Handle() {}\n\nfunc main() { Handle() }\n',
  });
}, 60_000);

afterAll(() => {
  if (server && server.process.exitCode === null) server.process.kill('SIGKILL');
  postgres.destroy();
  removeTemps();
});

interface Outcome {
  readonly at: number;
  readonly answer: RawAnswer | { readonly status: 0; readonly thrown: string };
}

const ok = (o: Outcome): boolean =>
  o.answer.status === 200 && 'message' in o.answer && o.answer.message?.error === undefined;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PostgreSQL restarted while clients call (built CLI, a server of its own)', () => {
  it('calls fail only during the outage, with the reason, then recover; audit, notes and keys survive', async () => {
    const created = runCli(['keys', 'create', '--store', storeUrl, '--tenant', 'acme', '--role', 'member'], {
      env,
    });
    expect(created.status, created.stderr).toBe(0);
    const key = KEY_LINE.exec(created.stdout)?.[1] ?? '';
    server = await startHttpServe(['--store', storeUrl, '--workspace', workspace, '--no-watch'], env);
    const url = server.url;
    const first = await openSession(url, key);
    const put = await callTool(url, first, key, 'memory_put', { key: 'runbook', value: 'restart the relay' });
    expect(ok({ at: 0, answer: put })).toBe(true);

    const sessions = await Promise.all(Array.from({ length: CLIENTS }, () => openSession(url, key)));
    const outcomes: Outcome[] = [];
    let running = true;
    const loops = sessions.map(async (session, i) => {
      while (running) {
        const args = i % 2 === 0 ? { mode: 'get', key: 'runbook' } : { mode: 'search', query: 'Handle' };
        const tool = i % 2 === 0 ? 'memory' : 'code';
        const answer = await callTool(url, session, key, tool, args).catch(
          (error: unknown) => ({ status: 0, thrown: String(error) }) as const,
        );
        outcomes.push({ at: Date.now(), answer });
      }
    });

    await sleep(1500);
    const downAt = Date.now();
    postgres.stop('fast');
    await sleep(2000);
    postgres.start();
    const upAt = Date.now();
    await sleep(6000);
    running = false;
    await Promise.all(loops);

    const before = outcomes.filter((o) => o.at < downAt);
    const failed = outcomes.filter((o) => !ok(o));
    const lastSecond = outcomes.filter((o) => o.at > Date.now() - 1000);
    expect(before.length).toBeGreaterThan(0);
    expect(before.every(ok)).toBe(true);
    expect(failed.length).toBeGreaterThan(0);
    // Every failure is the store's 503, saying why and when to retry; none is a crash or a silent wrong answer.
    expect(
      new Set(
        failed.map(
          (o) => `${o.answer.status} ${'message' in o.answer ? o.answer.message?.error?.message : ''}`,
        ),
      ),
    ).toEqual(new Set([`503 ${UNAVAILABLE}`]));
    // The failures lie in the outage (and the few seconds a pool needs to notice the server is back).
    for (const o of failed) expect(o.at).toBeLessThan(upAt + 5000);
    expect(lastSecond.length).toBeGreaterThan(0);
    expect(lastSecond.every(ok)).toBe(true);

    expect(await stopHttpServe(server)).toBe(0);
    const served = outcomes.filter(ok).length;
    const verify = runCli(['audit', 'verify', '--store', storeUrl], { env });
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
    // The put and every call that was answered are in the chain, and nothing else.
    expect(verify.stdout).toContain(`OK: ${served + 1} rows`);
    const keys = runCli(['keys', 'list', '--store', storeUrl, '--json'], { env });
    expect((JSON.parse(keys.stdout) as { keys: { revoked_at: unknown }[] }).keys).toEqual([
      expect.objectContaining({ revoked_at: null }),
    ]);
    const restarted = await startHttpServe(
      ['--store', storeUrl, '--workspace', workspace, '--no-watch'],
      env,
    );
    server = restarted;
    const again = await openSession(restarted.url, key);
    const note = await callTool(restarted.url, again, key, 'memory', { mode: 'get', key: 'runbook' });
    expect(JSON.stringify(note.message?.result)).toContain('restart the relay');
    expect(await stopHttpServe(restarted)).toBe(0);
  }, 120_000);
});
