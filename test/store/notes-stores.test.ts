/**
 * What both notes stores must do alike, run against each: key order and prefixes, stemming, ranking where
 * bm25 and ts_rank_cd agree, workspaces kept apart, and one new key written by two servers at once.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { NoteWrite } from '../../src/core/notes.js';
import { removeTemps, tempDir } from '../helpers/engine.js';
import { notesBackends } from '../helpers/notes-backends.js';

const note = (key: string, value: string, tags: string[] = []): NoteWrite => ({
  key,
  value,
  tags,
  author: 'test',
});

describe.each(notesBackends())('notes store ($name)', (backend) => {
  afterAll(async () => {
    await backend.close();
    removeTemps();
  });

  it('orders keys by code point and takes a prefix literally, in any script', async () => {
    const store = await backend.open({ workspace: tempDir(), dataDir: tempDir() });
    try {
      const keys = ['b', 'B', 'a_b', 'a%b', 'a', 'ab', 'a0', 'a/b', 'Z', 'é/2', 'éa', 'é/1', 'z\u{10FFFF}'];
      for (const key of keys) await store.put(note(key, key));
      const listed = async (prefix?: string) =>
        (await store.list({ ...(prefix ? { prefix } : {}), offset: 0, limit: 100 })).notes.map((n) => n.key);
      expect(await listed()).toEqual([
        'B',
        'Z',
        'a',
        'a%b',
        'a/b',
        'a0',
        'a_b',
        'ab',
        'b',
        'z\u{10FFFF}',
        'é/1',
        'é/2',
        'éa',
      ]);
      expect(await listed('a')).toEqual(['a', 'a%b', 'a/b', 'a0', 'a_b', 'ab']);
      expect(await listed('a%')).toEqual(['a%b']);
      expect(await listed('a_')).toEqual(['a_b']);
      expect(await listed('é/')).toEqual(['é/1', 'é/2']);
      expect(await listed('z\u{10FFFF}')).toEqual(['z\u{10FFFF}']);
      expect(await listed('a\u0000')).toEqual([]);
      expect(await store.keys('é', 10)).toEqual(['é/1', 'é/2', 'éa']);
      expect(await store.keys('', 3)).toEqual(['B', 'Z', 'a']);
      const page = await store.list({ prefix: 'a', offset: 4, limit: 4 });
      expect({ keys: page.notes.map((n) => n.key), total: page.total }).toEqual({
        keys: ['a_b', 'ab'],
        total: 6,
      });
      const past = await store.list({ prefix: 'a', offset: 10, limit: 4 });
      expect(past).toEqual({ notes: [], total: 6 });
    } finally {
      await store.close();
    }
  });

  it('stems English words, drops no stop word, and splits keys into words', async () => {
    const store = await backend.open({ workspace: tempDir(), dataDir: tempDir() });
    try {
      await store.put(note('ops/restart', 'Do not restart the workers while payments are retried.'));
      await store.put(note('deploy/payment-worker', 'Drain the queue first.', ['ops']));
      const found = async (...words: string[]) =>
        (await store.search({ words, offset: 0, limit: 10 })).hits.map((h) => h.note.key);
      expect(await found('not')).toEqual(['ops/restart']);
      expect(await found('retries')).toEqual(['ops/restart']);
      expect(await found('restarting')).toEqual(['ops/restart']);
      expect(await found('worker')).toEqual(['deploy/payment-worker', 'ops/restart']);
      expect(await found('payment_worker')).toEqual(['deploy/payment-worker']);
      expect(await found('_')).toEqual([]);
      expect(await found('kubernetes')).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('ranks a word in the key above the same word in the text, then by key; lower scores are better', async () => {
    const store = await backend.open({ workspace: tempDir(), dataDir: tempDir() });
    try {
      await store.put(note('billing/a', 'Invoices are cut at midnight.'));
      await store.put(note('zeta/invoice', 'Owned by the billing team.'));
      await store.put(note('billing/b', 'Invoices are cut at midnight.'));
      const { hits, total } = await store.search({ words: ['invoice'], offset: 0, limit: 10 });
      expect(total).toBe(3);
      expect(hits.map((h) => h.note.key)).toEqual(['zeta/invoice', 'billing/a', 'billing/b']);
      const [key, textA, textB] = hits.map((h) => h.score);
      expect(key).toBeLessThan(textA as number);
      expect(textA).toBe(textB);
      const second = await store.search({ words: ['invoice'], offset: 1, limit: 1 });
      expect({ keys: second.hits.map((h) => h.note.key), total: second.total }).toEqual({
        keys: ['billing/a'],
        total: 3,
      });
      const tagged = await store.search({ words: ['invoice'], tag: 'none', offset: 0, limit: 10 });
      expect(tagged).toEqual({ hits: [], total: 0 });
    } finally {
      await store.close();
    }
  });

  it('ranks a note holding more of the words against one holding a word in its key as each store does', async () => {
    const store = await backend.open({ workspace: tempDir(), dataDir: tempDir() });
    try {
      await store.put(note('opening-hours', 'The office opens at nine.'));
      await store.put(note('payment', 'Owned by billing.'));
      await store.put(note('notes/y', 'Each payment retry waits; a failed payment is logged.'));
      const { hits } = await store.search({ words: ['payment', 'retry'], offset: 0, limit: 10 });
      // bm25 counts how many of the words a note holds, and how rare each is; ts_rank_cd sums the weights of
      // the words found, and a word in the key weighs four times one in the text.
      expect(hits.map((h) => h.note.key)).toEqual(
        backend.name === 'sqlite' ? ['notes/y', 'payment'] : ['payment', 'notes/y'],
      );
    } finally {
      await store.close();
    }
  });

  it("keeps another workspace's notes invisible to get, list, search, keys, pinned and delete", async () => {
    const dataDir = tempDir();
    const mine = await backend.open({ workspace: tempDir(), dataDir });
    const theirs = await backend.open({ workspace: tempDir(), dataDir });
    const pin = { kind: 'file', path: 'a.ts', hash: 'h' } as const;
    try {
      await mine.put({ ...note('shared', 'mine'), pin });
      await theirs.put({ ...note('shared', 'theirs words'), pin });
      await theirs.put({ ...note('only-theirs', 'theirs words', ['t']), pin });
      expect((await mine.get('shared'))?.value).toBe('mine');
      expect(await mine.get('only-theirs')).toBeUndefined();
      expect(await mine.list({ offset: 0, limit: 10 })).toMatchObject({
        total: 1,
        notes: [{ key: 'shared' }],
      });
      expect(await mine.list({ tag: 't', offset: 0, limit: 10 })).toEqual({ notes: [], total: 0 });
      expect(await mine.search({ words: ['theirs'], offset: 0, limit: 10 })).toEqual({ hits: [], total: 0 });
      expect(await mine.keys('', 10)).toEqual(['shared']);
      expect((await mine.pinned()).map((n) => n.value)).toEqual(['mine']);
      expect(await mine.delete('only-theirs')).toBe(false);
      expect(await mine.delete('shared')).toBe(true);
      expect((await theirs.get('shared'))?.value).toBe('theirs words');
      expect(await theirs.keys('', 10)).toEqual(['only-theirs', 'shared']);
    } finally {
      await mine.close();
      await theirs.close();
    }
  });

  it('creates one new key once when two servers write it at the same moment, and both see the last write', async () => {
    const place = { workspace: tempDir(), dataDir: tempDir() };
    const one = await backend.open(place);
    const two = await backend.open(place);
    try {
      for (let round = 0; round < 10; round++) {
        const key = `race/${round}`;
        const [a, b] = await Promise.all([one.put(note(key, 'from one')), two.put(note(key, 'from two'))]);
        expect([a?.created, b?.created].filter(Boolean)).toEqual([true]);
        const seen = [(await one.get(key))?.value, (await two.get(key))?.value];
        expect(seen[0]).toBe(seen[1]);
      }
      expect((await two.list({ prefix: 'race/', offset: 0, limit: 100 })).total).toBe(10);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
