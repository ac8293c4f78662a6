/**
 * The code-navigation fixture (test/fixtures/code-calls: a TypeScript service and a Go service) indexed
 * in-process and served to an SDK client with structured output.
 */
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectClient } from '../helpers/mcp.js';
import { indexedRegistry } from '../helpers/workspace.js';

export const CODE_CALLS = path.resolve(import.meta.dirname, '../fixtures/code-calls');

export async function codeCallsClient(): Promise<{ client: Client; close: () => Promise<void> }> {
  const { registry, engine } = await indexedRegistry(CODE_CALLS);
  const client = await connectClient(registry, 'flat', { structuredOutput: true });
  return {
    client,
    close: async () => {
      await client.close();
      await engine.close();
    },
  };
}
