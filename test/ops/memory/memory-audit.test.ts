import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTemps, tempDir } from '../../helpers/engine.js';
import { notesBackends } from '../../helpers/notes-backends.js';
import { PRICES_TS, REPO_TS, call, notesWorkspace, openMemoryClient } from './memory-fixture.js';

interface Finding {
  status: string;
  detail: string;
  current_hash: string | null;
  note: { key: string; pin: { kind: string; path: string; name?: string; hash: string } };
}

describe.each(notesBackends())('memory audit ($name)', (backend) => {
  afterAll(async () => {
    await backend.close();
    removeTemps();
  });

  it('reports notes whose pinned file or declaration changed or vanished, and changes no note', async () => {
    const workspace = notesWorkspace();
    const memory = await openMemoryClient({ workspace, dataDir: tempDir('meshlens-notes-data-'), backend });
    try {
      const pins: [string, Record<string, string>][] = [
        ['repo/save', { path: 'app/order-repo.ts', name: 'save' }],
        ['repo/find', { path: 'app/order-repo.ts', name: 'OrderRepo.find', kind: 'method' }],
        ['prices/file', { path: 'app/prices.ts' }],
        ['prices/price-of', { path: 'app/prices.ts', name: 'priceOf' }],
        ['legacy/file', { path: 'app/legacy.ts' }],
      ];
      for (const [key, pin] of pins) {
        const put = await call(memory, 'put_note', { key, value: `about ${key}`, ...pin });
        expect({ key, isError: put.isError }).toEqual({ key, isError: false });
      }
      await call(memory, 'put_note', { key: 'unpinned', value: 'not checked' });
      const before = await call(memory, 'audit_notes', {});
      expect(before.data).toMatchObject({ checked: 5, unchanged: 5, changed: 0, vanished: 0, findings: [] });

      // `save` gets another body, `find` goes, a comment above `priceOf` changes the file but not `priceOf`.
      writeFileSync(
        path.join(workspace, 'app/order-repo.ts'),
        REPO_TS.replace('this.rows.set(id, row);', 'this.rows.set(id, row.trim());').replace(
          /\n {2}find\(id: string\)[^}]*\}\n/,
          '\n',
        ),
      );
      writeFileSync(path.join(workspace, 'app/prices.ts'), `// Prices in cents.\n${PRICES_TS}`);
      rmSync(path.join(workspace, 'app/legacy.ts'));
      await memory.rescan();

      const after = await call(memory, 'audit_notes', {});
      expect(after.isError).toBe(false);
      expect(after.data).toMatchObject({
        checked: 5,
        unchanged: 1,
        changed: 2,
        vanished: 2,
        next_offset: null,
      });
      const findings = after.data.findings as Finding[];
      expect(findings.map((f) => [f.note.key, f.status, f.detail])).toEqual([
        ['legacy/file', 'vanished', 'the file is no longer indexed (deleted, moved or excluded)'],
        ['prices/file', 'changed', "the pinned content's hash differs"],
        ['repo/find', 'vanished', 'the file no longer declares method `OrderRepo.find`'],
        ['repo/save', 'changed', "the pinned content's hash differs"],
      ]);
      for (const f of findings) {
        if (f.status === 'vanished') expect(f.current_hash).toBeNull();
        else expect(f.current_hash).toMatch(/^[0-9a-f]{64}$/);
        if (f.status === 'changed') expect(f.current_hash).not.toBe(f.note.pin.hash);
      }
      expect(after.text).toContain(
        'Checked 5 pinned note(s) against snapshot generation 2: 1 unchanged, 2 changed, 2 vanished.',
      );
      expect(after.text).toContain(
        '- `repo/find` — **vanished**: method `OrderRepo.find` in `app/order-repo.ts`: the file no longer declares method `OrderRepo.find`.',
      );

      // Reporting only: the notes and their pins are as they were written.
      const again = await call(memory, 'audit_notes', {});
      expect(again.data.findings).toEqual(after.data.findings);
      const saved = await call(memory, 'get_note', { key: 'repo/save' });
      expect((saved.data.note as { pin: unknown }).pin).toEqual(findings[3]?.note.pin);

      const paged = await call(memory, 'audit_notes', { limit: 3, prefix: 'repo/' });
      expect(paged.data).toMatchObject({ checked: 2, changed: 1, vanished: 1, next_offset: null });
      const first = await call(memory, 'audit_notes', { limit: 1 });
      expect(first.data).toMatchObject({ offset: 0, next_offset: 1 });

      // Pinning to what the index does not hold says why.
      const gone = await call(memory, 'put_note', {
        key: 'x',
        value: 'x',
        path: 'app/order-repo.ts',
        name: 'find',
      });
      expect(gone.isError).toBe(true);
      expect(gone.text).toContain('No declaration named `find` in `app/order-repo.ts`.');
    } finally {
      await memory.close();
    }
  }, 60_000);
});
