import { describe, expect, it } from 'vitest';
import { connectClient, textOf } from '../helpers/mcp.js';
import { indexedRegistry } from '../helpers/workspace.js';

describe('index_status', () => {
  it('does not build the contract graph to count its edges; after a graph query it reports them', async () => {
    const { registry, engine } = await indexedRegistry();
    const client = await connectClient(registry, 'flat');
    try {
      const status = async () => textOf(await client.callTool({ name: 'index_status', arguments: {} }));
      expect(await status()).toContain(
        'contract facts, graph edges not counted yet (the graph is built by the first contract or graph query)',
      );
      expect(engine.snapshot()?.hasContractGraph()).toBe(false);
      await client.callTool({ name: 'analyze_impact', arguments: { target: 'orders.created' } });
      const edges = engine.snapshot()?.contractGraph().edges.length ?? 0;
      expect(edges).toBeGreaterThan(0);
      expect(await status()).toContain(`contract facts, ${edges} graph edges,`);
    } finally {
      await client.close();
      await engine.close();
    }
  });
});
