import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll } from 'vitest';
import type { IndexEngine } from '../../src/index/engine.js';
import { codeLab } from './code-lab.js';
import { removeTemps } from './engine.js';
import { connectClient, textOf } from './mcp.js';
import { indexedRegistry } from './workspace.js';

/** An indexed workspace behind a real SDK client on the flat surface, with structured answers. */
export interface IndexedClient {
  readonly client: Client;
  readonly engine: IndexEngine;
  readonly workspace: string | undefined;
}

export async function openIndexed(workspace?: string): Promise<IndexedClient> {
  const { registry, engine } = await indexedRegistry(workspace);
  return { client: await connectClient(registry, 'flat', { structuredOutput: true }), engine, workspace };
}

export async function closeIndexed(...opened: (IndexedClient | undefined)[]): Promise<void> {
  for (const o of opened) {
    await o?.client.close();
    await o?.engine.close();
  }
}

export interface ToolAnswer {
  readonly text: string;
  readonly isError: boolean;
  readonly data: Record<string, unknown>;
}

/** One call: the Markdown, whether it failed, and the JSON answer. */
export async function callTool(
  on: IndexedClient,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolAnswer> {
  const result = await on.client.callTool({ name, arguments: args });
  return {
    text: textOf(result),
    isError: result.isError === true,
    data: (result.structuredContent ?? {}) as Record<string, unknown>,
  };
}

/** The example workspace and a fresh code lab, opened before a test file's tests and closed after them. */
export function withShopAndLab(): { readonly shop: IndexedClient; readonly lab: IndexedClient } {
  const opened = {} as { shop: IndexedClient; lab: IndexedClient };
  beforeAll(async () => {
    opened.shop = await openIndexed();
    opened.lab = await openIndexed(codeLab());
  }, 120_000);
  afterAll(async () => {
    await closeIndexed(opened.shop, opened.lab);
    removeTemps();
  });
  return opened;
}
