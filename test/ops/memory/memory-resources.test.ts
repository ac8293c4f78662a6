import { afterAll, describe, expect, it } from 'vitest';
import { removeTemps, tempDir } from '../../helpers/engine.js';
import { notesBackends } from '../../helpers/notes-backends.js';
import { call, notesWorkspace, openMemoryClient } from './memory-fixture.js';

describe.each(notesBackends())('notes as resources ($name)', (backend) => {
  afterAll(async () => {
    await backend.close();
    removeTemps();
  });

  it('completes note keys in the note template and reads a note by its URI', async () => {
    const memory = await openMemoryClient({
      workspace: notesWorkspace(),
      dataDir: tempDir('meshlens-notes-data-'),
      backend,
    });
    try {
      for (const key of ['deploy/orders', 'deploy/payment-worker', 'decisions/retry'])
        await call(memory, 'put_note', { key, value: `about ${key}` });
      const { resourceTemplates } = await memory.client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('meshlens://notes/{+key}');
      const completed = await memory.client.complete({
        ref: { type: 'ref/resource', uri: 'meshlens://notes/{+key}' },
        argument: { name: 'key', value: 'dep' },
      });
      expect(completed.completion).toEqual({
        values: ['deploy/orders', 'deploy/payment-worker'],
        total: 2,
        hasMore: false,
      });
      const read = await memory.client.readResource({ uri: 'meshlens://notes/deploy/payment-worker' });
      const [first] = read.contents;
      expect(first && 'text' in first ? first.text : '').toContain('about deploy/payment-worker');
    } finally {
      await memory.close();
    }
  }, 60_000);
});
