import { afterAll, describe, expect, it } from 'vitest';
import { Registry } from '../../../src/core/registry.js';
import { languageSpec } from '../../../src/index/languages/registry.js';
import { OPERATIONS } from '../../../src/ops/catalog.js';
import type { MeshServices } from '../../../src/ops/services.js';
import { removeTemps, tempDir } from '../../helpers/engine.js';
import { fakeIndex } from '../../helpers/fake-index.js';
import { connectClient, textOf } from '../../helpers/mcp.js';
import { notesBackends } from '../../helpers/notes-backends.js';

describe.each(notesBackends())('the memory tools before the first index ($name)', (backend) => {
  afterAll(async () => {
    await backend.close();
    removeTemps();
  });

  it('plain notes need no index; a pin or an audit waits for it; fields of another mode are named', async () => {
    const store = await backend.open({ workspace: tempDir(), dataDir: tempDir() });
    const registry = new Registry<MeshServices>({
      operations: OPERATIONS,
      services: { index: fakeIndex(), languages: languageSpec, notes: () => Promise.resolve(store) },
      readiness: () => 'Still indexing (3 of 9 files).',
    });
    const client = await connectClient(registry, 'domain');
    try {
      const callTool = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args });
        return { isError: result.isError === true, text: textOf(result) };
      };
      expect(await callTool('memory_put', { key: 'k', value: 'v' })).toMatchObject({ isError: false });
      expect(await callTool('memory', { mode: 'get', key: 'k' })).toMatchObject({ isError: false });
      expect(await callTool('memory', { mode: 'search', query: 'v' })).toMatchObject({ isError: false });
      expect(await callTool('memory_put', { key: 'p', value: 'v', path: 'svc/a.ts' })).toEqual({
        isError: true,
        text: 'Still indexing (3 of 9 files).',
      });
      expect(await callTool('memory', { mode: 'audit' })).toEqual({
        isError: true,
        text: 'Still indexing (3 of 9 files).',
      });
      expect(await callTool('memory', { mode: 'get', key: 'k', query: 'v' })).toEqual({
        isError: true,
        text: '`memory` mode `get` does not accept `query` (it belongs to mode `search`). Accepted fields: `key`.',
      });
      expect(await callTool('memory', { mode: 'list', offset: -1 })).toMatchObject({ isError: true });
    } finally {
      await client.close();
      await store.close();
    }
  });
});
