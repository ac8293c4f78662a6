import { describe, expect, it } from 'vitest';
import { connectClient, textOf } from '../helpers/mcp.js';
import { indexedRegistry } from '../helpers/workspace.js';

describe('index_status', () => {
  it('builds the contract graph of an installed snapshot: counts its edges and lists unresolved HTTP calls', async () => {
    const { registry, engine } = await indexedRegistry();
    const client = await connectClient(registry, 'flat');
    try {
      const status = async () => textOf(await client.callTool({ name: 'index_status', arguments: {} }));
      const text = await status();
      expect(engine.snapshot()?.hasContractGraph()).toBe(true);
      const graph = engine.snapshot()?.contractGraph();
      const edges = graph?.edges.length ?? 0;
      expect(edges).toBeGreaterThan(0);
      expect(text).toContain(`contract facts, ${edges} graph edges,`);
      const unresolved = graph?.unresolved ?? [];
      if (unresolved.length === 0) expect(text).toContain('**Unresolved HTTP calls:** none');
      else {
        expect(text).toContain(`**Unresolved HTTP calls:** ${unresolved.length} call(s)`);
        const first = unresolved[0];
        expect(text).toContain(`:${first?.line}\` ${first?.method} \`${first?.url}\``);
      }
    } finally {
      await client.close();
      await engine.close();
    }
  });
});
