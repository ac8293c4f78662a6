import { statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteNotesStore, prefixBound } from '../../src/store/notes-db.js';
import { NOTES_SCHEMA_VERSION } from '../../src/store/notes-migrations.js';
import { dataRoot, notesDbPath } from '../../src/store/notes-paths.js';
import { removeTemps, tempDir } from '../helpers/engine.js';

const at = (second: number) => () => new Date(Date.UTC(2026, 0, 1, 0, 0, second));

describe('the notes file', () => {
  afterAll(() => removeTemps());

  it('records each migration once, with its version, name and time', () => {
    const file = path.join(tempDir(), 'notes', 'w.db');
    SqliteNotesStore.open({ path: file, workspace: 'w', now: at(1) }).close();
    SqliteNotesStore.open({ path: file, workspace: 'w', now: at(2) }).close();
    const db = new Database(file, { readonly: true });
    try {
      expect(
        db.prepare('SELECT version, name, applied_at FROM schema_migrations ORDER BY version').all(),
      ).toEqual([
        { version: 1, name: 'notes', applied_at: '2026-01-01T00:00:01.000Z' },
        { version: 2, name: 'notes full-text index', applied_at: '2026-01-01T00:00:01.000Z' },
      ]);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
    }
    expect(NOTES_SCHEMA_VERSION).toBe(2);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses a file written by a newer meshlens and leaves it as it was', () => {
    const file = path.join(tempDir(), 'w.db');
    SqliteNotesStore.open({ path: file, workspace: 'w' }).close();
    const db = new Database(file);
    db.prepare("INSERT INTO schema_migrations VALUES (99, 'future', 'then')").run();
    db.close();
    expect(() => SqliteNotesStore.open({ path: file, workspace: 'w' })).toThrow(
      `the notes file has schema version 99, newer than this meshlens knows (${NOTES_SCHEMA_VERSION}); upgrade meshlens`,
    );
  });

  it('keeps rows of one workspace apart from another in the same file, and the full-text index in step', async () => {
    const file = path.join(tempDir(), 'shared.db');
    const a = SqliteNotesStore.open({ path: file, workspace: 'a', now: at(3) });
    const b = SqliteNotesStore.open({ path: file, workspace: 'b', now: at(4) });
    try {
      await a.put({ key: 'k', value: 'alpha words', tags: ['x'], author: 'ann' });
      await b.put({ key: 'k', value: 'beta words', tags: [], author: 'bo' });
      await a.put({ key: 'k', value: 'gamma words', tags: ['y'], author: 'ann' });
      expect((await a.search({ words: ['alpha'], offset: 0, limit: 10 })).total).toBe(0);
      expect(
        (await a.search({ words: ['gamma'], offset: 0, limit: 10 })).hits.map((h) => h.note.value),
      ).toEqual(['gamma words']);
      expect(
        (await b.search({ words: ['words'], offset: 0, limit: 10 })).hits.map((h) => h.note.value),
      ).toEqual(['beta words']);
      expect(await a.delete('k')).toBe(true);
      expect((await a.search({ words: ['words'], offset: 0, limit: 10 })).total).toBe(0);
      expect((await b.get('k'))?.value).toBe('beta words');
    } finally {
      a.close();
      b.close();
    }
  });

  it('lists a key prefix exactly: no pattern characters, any script, through the key index', async () => {
    expect(prefixBound('deploy/')).toBe('deploy0');
    expect(prefixBound('a\u{10FFFF}')).toBe('b');
    expect(prefixBound('\u{D7FF}')).toBe('\u{E000}');
    expect(prefixBound('\u{10FFFF}')).toBeUndefined();
    const store = SqliteNotesStore.open({ path: path.join(tempDir(), 'p.db'), workspace: 'w' });
    try {
      const keys = ['a', 'a%b', 'a/b', 'a0', 'a_b', 'ab', 'b', 'é/1', 'é/2', 'éa', 'z\u{10FFFF}'];
      for (const key of keys) await store.put({ key, value: key, tags: [], author: 'x' });
      const listed = async (prefix: string) =>
        (await store.list({ prefix, offset: 0, limit: 100 })).notes.map((n) => n.key);
      expect(await listed('a')).toEqual(['a', 'a%b', 'a/b', 'a0', 'a_b', 'ab']);
      expect(await listed('a%')).toEqual(['a%b']);
      expect(await listed('a_')).toEqual(['a_b']);
      expect(await listed('é/')).toEqual(['é/1', 'é/2']);
      expect(await listed('z\u{10FFFF}')).toEqual(['z\u{10FFFF}']);
      expect(await store.keys('é', 10)).toEqual(['é/1', 'é/2', 'éa']);
      const plan = new Database(store.location, { readonly: true });
      try {
        const detail = plan
          .prepare(
            "EXPLAIN QUERY PLAN SELECT key FROM notes n WHERE n.workspace = 'w' AND n.key >= 'a' AND n.key < 'b'",
          )
          .all()
          .map((r) => (r as { detail: string }).detail)
          .join(' ');
        expect(detail).toContain('INDEX sqlite_autoindex_notes_1 (workspace=? AND key>? AND key<?)');
      } finally {
        plan.close();
      }
    } finally {
      store.close();
    }
  });

  it('lives under the data folder, never the cache folder', () => {
    const env = { MESHLENS_DATA_DIR: '/data/ml', MESHLENS_CACHE_DIR: '/cache/ml' };
    expect(dataRoot(env)).toBe('/data/ml');
    expect(dataRoot({ XDG_DATA_HOME: '/xdg', HOME: '/home/u' })).toBe('/xdg/meshlens');
    expect(dataRoot({ XDG_DATA_HOME: 'relative', HOME: '/home/u' })).toBe('/home/u/.local/share/meshlens');
    expect(notesDbPath('/no/such/workspace', env)).toMatch(/^\/data\/ml\/notes\/[0-9a-f]{16}\.db$/);
  });
});
