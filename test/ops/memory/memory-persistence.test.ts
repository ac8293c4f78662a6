import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheDirFor } from '../../../src/store/fact-cache-folder.js';
import { removeTemps, tempDir } from '../../helpers/engine.js';
import { notesBackends } from '../../helpers/notes-backends.js';
import { call, notesWorkspace, openMemoryClient } from './memory-fixture.js';

describe.each(notesBackends())('memory persistence ($name)', (backend) => {
  afterAll(async () => {
    await backend.close();
    removeTemps();
  });

  it('keeps notes across a server restart and a wipe of the index cache folder', async () => {
    const workspace = notesWorkspace();
    const dataDir = tempDir('meshlens-notes-data-');
    const cacheDir = tempDir('meshlens-notes-cache-');
    const first = await openMemoryClient({ workspace, dataDir, cacheDir, backend });
    const put = await call(first, 'put_note', { key: 'kept', value: 'survives restarts', tags: 'ops' });
    expect(put.isError).toBe(false);
    await first.close();

    // The index cache holds the workspace's fact cache; the notes are elsewhere and outlive it.
    const indexCache = cacheDirFor(workspace, { MESHLENS_CACHE_DIR: cacheDir });
    expect(existsSync(indexCache)).toBe(true);
    const location = put.data.location as string;
    if (backend.name === 'sqlite') {
      expect(location.startsWith(`${dataDir}${path.sep}`)).toBe(true);
      expect(location.startsWith(cacheDir)).toBe(false);
      expect(location.startsWith(workspace)).toBe(false);
    } else {
      expect(location).toMatch(
        /^postgres:\/\/postgres@127\.0\.0\.1:5432\/meshlens_notes_[0-9a-f]{10} \(tenant _local, workspace [0-9a-f]{16}\)$/,
      );
    }
    rmSync(cacheDir, { recursive: true, force: true });

    const second = await openMemoryClient({ workspace, dataDir, cacheDir, backend });
    try {
      const got = await call(second, 'get_note', { key: 'kept' });
      expect(got.isError).toBe(false);
      expect(got.data.note).toEqual(put.data.note);
      // Nothing was written into the repository.
      expect(readdirSync(workspace).sort()).toEqual(['app', 'meshlens.toml']);
    } finally {
      await second.close();
    }
  }, 60_000);

  it("a second client on another server over the same store sees the first client's notes at once", async () => {
    const workspace = notesWorkspace();
    const dataDir = tempDir('meshlens-notes-data-');
    const one = await openMemoryClient({ workspace, dataDir, clientName: 'agent-one', backend });
    const two = await openMemoryClient({ workspace, dataDir, clientName: 'agent-two', backend });
    try {
      expect(one.store.location).toBe(two.store.location);
      await call(one, 'put_note', { key: 'shared', value: 'written by one' });
      const seen = await call(two, 'get_note', { key: 'shared' });
      expect(seen.data.note).toMatchObject({ key: 'shared', value: 'written by one', author: 'agent-one' });
      await call(two, 'put_note', { key: 'shared', value: 'rewritten by two' });
      const back = await call(one, 'search_notes', { query: 'rewritten' });
      expect((back.data.results as { note: unknown }[]).map((r) => r.note)).toMatchObject([
        { key: 'shared', value: 'rewritten by two', author: 'agent-two' },
      ]);
      await call(one, 'delete_note', { key: 'shared' });
      expect((await call(two, 'list_notes', {})).data).toMatchObject({ total: 0, notes: [] });
    } finally {
      await one.close();
      await two.close();
    }
  }, 60_000);

  it("keeps each workspace's notes apart", async () => {
    const dataDir = tempDir('meshlens-notes-data-');
    const a = await openMemoryClient({ workspace: notesWorkspace(), dataDir, backend });
    const b = await openMemoryClient({ workspace: notesWorkspace(), dataDir, backend });
    try {
      await call(a, 'put_note', { key: 'only-a', value: 'a' });
      expect((await call(b, 'list_notes', {})).data.total).toBe(0);
      expect(a.store.location).not.toBe(b.store.location);
    } finally {
      await a.close();
      await b.close();
    }
  }, 60_000);
});
