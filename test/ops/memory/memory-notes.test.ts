import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED } from '../../../src/trust/secret-mask.js';
import { removeTemps, tempDir } from '../../helpers/engine.js';
import { notesBackends } from '../../helpers/notes-backends.js';
import { SECRETS } from '../../helpers/planted-secrets.js';
import {
  call,
  notesWorkspace,
  openMemoryClient,
  steppingClock,
  type MemoryClient,
} from './memory-fixture.js';

const T = (second: number) => new Date(Date.UTC(2026, 0, 1) + second * 1000).toISOString();

/** The note row every mode answers with, unpinned. */
const row = (
  key: string,
  value: string,
  tags: string[],
  at: string,
  createdAt = at,
  author = 'meshlens-test',
) => ({
  key,
  value,
  tags,
  author,
  created_at: createdAt,
  updated_at: at,
  pin: null,
});

const BACKENDS = notesBackends();

describe.each(BACKENDS)('memory put, get, list, search and delete ($name)', (backend) => {
  let memory: MemoryClient;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = tempDir('meshlens-notes-data-');
    // The clock's first two readings go to the two migrations (of SQLite; PostgreSQL skips them).
    memory = await openMemoryClient({ workspace: notesWorkspace(), dataDir, now: steppingClock(), backend });
  }, 60_000);
  afterAll(async () => {
    await memory.close();
    await backend.close();
    removeTemps();
  });

  it('puts notes and reads them back as exact rows, in key order, filtered by prefix and tag', async () => {
    const first = await call(memory, 'put_note', {
      key: 'deploy/payment-worker',
      value: 'Drain the payment queue before a restart.',
      tags: 'ops, Deploy,ops',
    });
    expect(first.isError).toBe(false);
    expect(first.data).toMatchObject({
      created: true,
      redactions: 0,
      note: row(
        'deploy/payment-worker',
        'Drain the payment queue before a restart.',
        ['deploy', 'ops'],
        T(2),
      ),
    });
    expect(first.text).toBe(
      'Wrote note `deploy/payment-worker`.\n\n### `deploy/payment-worker`\ntags: deploy, ops · by meshlens-test · written 2026-01-01T00:00:02.000Z\n\nDrain the payment queue before a restart.\n',
    );
    await call(memory, 'put_note', {
      key: 'deploy/orders',
      value: 'Orders deploy after billing.',
      tags: 'deploy',
    });
    await call(memory, 'put_note', {
      key: 'decisions/retry',
      value: 'Payment retries back off exponentially, at most five times.',
      tags: 'decision',
      author: 'alice',
    });

    const got = await call(memory, 'get_note', { key: 'decisions/retry' });
    expect(got.data.note).toEqual(
      row(
        'decisions/retry',
        'Payment retries back off exponentially, at most five times.',
        ['decision'],
        T(4),
        T(4),
        'alice',
      ),
    );

    const all = await call(memory, 'list_notes', {});
    expect((all.data.notes as { key: string }[]).map((n) => n.key)).toEqual([
      'decisions/retry',
      'deploy/orders',
      'deploy/payment-worker',
    ]);
    expect(all.data).toMatchObject({ total: 3, offset: 0, next_offset: null });

    const deploys = await call(memory, 'list_notes', { prefix: 'deploy/' });
    expect(deploys.data.notes).toEqual([
      row('deploy/orders', 'Orders deploy after billing.', ['deploy'], T(3)),
      row('deploy/payment-worker', 'Drain the payment queue before a restart.', ['deploy', 'ops'], T(2)),
    ]);
    const ops = await call(memory, 'list_notes', { tag: 'OPS' });
    expect((ops.data.notes as { key: string }[]).map((n) => n.key)).toEqual(['deploy/payment-worker']);
    // A tag is matched whole: `dep` is no tag of any note.
    expect((await call(memory, 'list_notes', { tag: 'dep' })).data).toMatchObject({ total: 0, notes: [] });

    const firstPage = await call(memory, 'list_notes', { limit: 2 });
    expect(firstPage.data).toMatchObject({ total: 3, offset: 0, next_offset: 2 });
    expect(firstPage.text).toContain('Showing 1–2 of 3 notes. More: `offset: 2`.');
    const secondPage = await call(memory, 'list_notes', { limit: 2, offset: 2 });
    expect((secondPage.data.notes as { key: string }[]).map((n) => n.key)).toEqual(['deploy/payment-worker']);
    expect(secondPage.data).toMatchObject({ total: 3, offset: 2, next_offset: null });
  });

  it('replaces a note under the same key, keeping when it was created', async () => {
    const replaced = await call(memory, 'put_note', {
      key: 'deploy/orders',
      value: 'Orders deploy after billing and inventory.',
      tags: 'deploy,order',
    });
    expect(replaced.data.created).toBe(false);
    expect(replaced.text.startsWith('Replaced note `deploy/orders`.')).toBe(true);
    const got = await call(memory, 'get_note', { key: 'deploy/orders' });
    expect(got.data.note).toEqual(
      row('deploy/orders', 'Orders deploy after billing and inventory.', ['deploy', 'order'], T(5), T(3)),
    );
  });

  it('searches keys, tags and text, best first (bm25; ts_rank_cd), with a tag filter and stable pages', async () => {
    const found = await call(memory, 'search_notes', { query: 'payment retry' });
    const keys = (found.data.results as { note: { key: string } }[]).map((r) => r.note.key);
    // The first holds both words (`retry` in its key, `payment` and `retries` in its text), the second one.
    expect(keys).toEqual(['decisions/retry', 'deploy/payment-worker']);
    expect(found.data).toMatchObject({ words: ['payment', 'retry'], total: 2, offset: 0, next_offset: null });
    const scores = (found.data.results as { score: number }[]).map((r) => r.score);
    expect(scores[0]).toBeLessThan(scores[1] as number);

    const stemmed = await call(memory, 'search_notes', { query: 'retried' });
    expect((stemmed.data.results as { note: { key: string } }[]).map((r) => r.note.key)).toEqual([
      'decisions/retry',
    ]);

    const decisions = await call(memory, 'search_notes', { query: 'payment', tag: 'decision' });
    expect((decisions.data.results as { note: { key: string } }[]).map((r) => r.note.key)).toEqual([
      'decisions/retry',
    ]);

    const byTag = await call(memory, 'search_notes', { query: 'ops' });
    expect((byTag.data.results as { note: { key: string } }[]).map((r) => r.note.key)).toEqual([
      'deploy/payment-worker',
    ]);

    const pageOne = await call(memory, 'search_notes', { query: 'payment retry', limit: 1 });
    const pageTwo = await call(memory, 'search_notes', { query: 'payment retry', limit: 1, offset: 1 });
    expect(pageOne.data).toMatchObject({ total: 2, next_offset: 1 });
    expect(pageTwo.data).toMatchObject({ total: 2, next_offset: null });
    expect(
      [pageOne, pageTwo].map((p) => (p.data.results as { note: { key: string } }[])[0]?.note.key),
    ).toEqual(keys);

    const none = await call(memory, 'search_notes', { query: 'kubernetes' });
    expect(none.isError).toBe(false);
    expect(none.data).toMatchObject({ total: 0, results: [] });
    expect(none.text).toBe('No note holds any of: kubernetes. memory list shows every note.\n\n');
  });

  it('masks secrets before they are stored: neither the answer nor the store holds them', async () => {
    const value = `Staging DB: postgres://shop:${SECRETS.dbPassword.secret}@db:5432/shop\ntoken ${SECRETS.githubClassic.secret}\nThe admin password is ${SECRETS.springPassword.secret}.`;
    const put = await call(memory, 'put_note', { key: 'staging/db', value });
    expect(put.data).toMatchObject({
      redactions: 3,
      note: {
        value: `Staging DB: postgres://shop:${REDACTED}@db:5432/shop\ntoken ${REDACTED}\nThe admin password is ${REDACTED}.`,
      },
    });
    expect(put.text).toContain('3 secret(s) masked before storing.');
    expect(put.data.location).toBe(memory.store.location);
    expect(await backend.storedValue(memory.store, 'staging/db')).toBe(
      `Staging DB: postgres://shop:${REDACTED}@db:5432/shop\ntoken ${REDACTED}\nThe admin password is ${REDACTED}.`,
    );
    const dump = await backend.dump(memory.store);
    expect(dump).toContain('admin password');
    expect(dump).not.toContain(SECRETS.dbPassword.secret);
    expect(dump).not.toContain(SECRETS.githubClassic.secret);
    expect(dump).not.toContain(SECRETS.springPassword.secret);
    const search = await call(memory, 'search_notes', { query: SECRETS.githubClassic.secret });
    expect(search.data.total).toBe(0);
    const secretKey = await call(memory, 'put_note', {
      key: `token ${SECRETS.githubClassic.secret}`,
      value: 'x',
    });
    expect(secretKey.isError).toBe(true);
    expect(secretKey.text).toBe(
      '`key` looks like it holds a secret; keys are shown and listed as written. Name the note instead, and leave secrets out of notes altogether.',
    );
  });

  it('deletes a note and answers a key that names none with the closest keys', async () => {
    const deleted = await call(memory, 'delete_note', { key: 'staging/db' });
    expect(deleted.text).toBe('Deleted note `staging/db`.\n');
    expect((deleted.data.deleted as { key: string }).key).toBe('staging/db');
    const again = await call(memory, 'delete_note', { key: 'staging/db' });
    expect(again.isError).toBe(true);
    expect(again.text).toBe(
      'No note under `staging/db`, nor under a key close to it. memory list shows the keys, memory search finds notes by their words.',
    );
    const typo = await call(memory, 'get_note', { key: 'deploy/order' });
    expect(typo.text).toBe(
      'No note under `deploy/order`. Closest keys: `deploy/orders`. memory list shows them all, memory search finds notes by their words.',
    );
  });

  it('refuses bad keys, values, tags and queries, saying what is wrong and how to fix it', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'put_note',
        { key: '', value: 'x' },
        '`key` is empty: give the note a name, e.g. "deploy/payment-worker".',
      ],
      [
        'put_note',
        { key: ' padded', value: 'x' },
        '`key` starts or ends with white space (" padded"): remove it, keys are compared exactly.',
      ],
      [
        'put_note',
        { key: 'k'.repeat(201), value: 'x' },
        '`key` is 201 characters long; keys hold at most 200. Use a shorter key and put the detail in `value`.',
      ],
      [
        'put_note',
        { key: 'big', value: 'x'.repeat(16 * 1024 + 1) },
        '`value` is 16385 bytes; a note holds at most 16384 (16 KiB). Keep the gist, link to the file or doc that holds the rest, or split it over several keys.',
      ],
      [
        'put_note',
        { key: 'blank', value: '  ' },
        '`value` is empty: write what the note should remember, or delete the note with mode `delete`.',
      ],
      [
        'put_note',
        { key: 'tagged', value: 'x', tags: 'ok,not ok' },
        '`tags`: the tag "not ok" is not a tag: use letters, digits and . _ : / - (starting with a letter or digit), e.g. "decision" or "team/payments".',
      ],
      [
        'put_note',
        { key: 'pinned', value: 'x', name: 'save' },
        '`name` and `kind` pin a note to a declaration and need the `path` of its file, e.g. path "services/orders/src/order.repo.ts", name "OrderRepo.save".',
      ],
      [
        'search_notes',
        { query: '?!' },
        '`query` "?!" holds no word to search for; give a few words, e.g. "payment retry".',
      ],
      [
        'get_note',
        { key: 'a\nb' },
        '`key` holds a control character (a line break, a tab): write it on one line.',
      ],
    ];
    for (const [tool, args, message] of cases) {
      const answer = await call(memory, tool, args);
      expect({ tool, isError: answer.isError, text: answer.text }).toEqual({
        tool,
        isError: true,
        text: message,
      });
    }
    expect((await call(memory, 'list_notes', {})).data.total).toBe(3);
  });

  it('refuses a NUL character in a value, which PostgreSQL text cannot hold, with either store', async () => {
    const answer = await call(memory, 'put_note', { key: 'nul', value: 'a\u0000b' });
    expect({ isError: answer.isError, text: answer.text }).toEqual({
      isError: true,
      text: '`value` holds a NUL character (\\u0000): remove it, notes hold text.',
    });
    expect((await call(memory, 'list_notes', {})).data.total).toBe(3);
  });
});

describe.each(notesBackends())('memory authors ($name)', (backend) => {
  afterAll(async () => {
    await backend.close();
    removeTemps();
  });

  it('takes the author from the argument, else the MCP client name', async () => {
    const memory = await openMemoryClient({
      workspace: notesWorkspace(),
      dataDir: tempDir('meshlens-notes-data-'),
      clientName: 'claude-code',
      backend,
    });
    try {
      await call(memory, 'put_note', { key: 'a', value: 'from the client' });
      await call(memory, 'put_note', { key: 'b', value: 'from the argument', author: 'bob' });
      const notes = (await call(memory, 'list_notes', {})).data.notes as { key: string; author: string }[];
      expect(notes.map((n) => [n.key, n.author])).toEqual([
        ['a', 'claude-code'],
        ['b', 'bob'],
      ]);
    } finally {
      await memory.close();
    }
  }, 60_000);
});
