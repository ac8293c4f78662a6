import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { MAX_OUTPUT_BYTES } from '../../src/core/budget.js';
import { defineOperation } from '../../src/core/operation.js';
import { Registry } from '../../src/core/registry.js';
import { createMcpServer } from '../../src/server/mcp-server.js';
import { ServedRegistry } from '../../src/server/served-registry.js';
import { connectClient } from '../helpers/mcp.js';
import { SAMPLE_OPERATIONS } from '../helpers/sample-ops.js';
import { keyOf, TIERED_OPERATIONS } from '../helpers/tiered-ops.js';

/** Counts the list-changed notifications a client receives. */
function counting(client: Client) {
  const received = { tools: 0, prompts: 0, resources: 0 };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void received.tools++);
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => void received.prompts++);
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void received.resources++);
  return received;
}

/** A client that counts the list-changed notifications it receives. */
async function connect(served: ServedRegistry) {
  const server = createMcpServer({ registry: served, surface: 'domain', version: 'test' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'list-changed', version: '1.0.0' });
  const received = counting(client);
  await client.connect(clientTransport);
  return { client, received };
}

/** Notifications travel through the transport's microtasks: let them arrive. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('list changes', () => {
  it('advertises listChanged for tools, prompts and resources', async () => {
    const { client } = await connect(
      ServedRegistry.of(new Registry({ operations: SAMPLE_OPERATIONS, services: undefined })),
    );
    expect(client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true },
    });
    await client.close();
  });

  it('a registry with a domain switched off sends tools/list_changed, and the next list is the new one', async () => {
    const served = ServedRegistry.of(new Registry({ operations: SAMPLE_OPERATIONS, services: undefined }));
    const { client, received } = await connect(served);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['code', 'admin']);
    const templates = async () =>
      (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(await templates()).toEqual(['meshlens://contracts/{target}']);

    await served.replace((registry) => registry.withDisabledDomains(['code']));
    await settle();
    expect(received).toEqual({ tools: 1, prompts: 0, resources: 1 });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['admin']);
    // The contract template reads through `code search`, which is gone with its domain.
    expect(await templates()).toEqual([]);
    const call = await client
      .callTool({ name: 'code', arguments: { mode: 'search', query: 'x' } })
      .catch((e: Error) => e);
    expect(String(call)).toContain('Unknown tool: code');

    // The same set again changes nothing a client sees: nothing is sent.
    await served.replace((registry) => registry.withDisabledDomains(['code']));
    await settle();
    expect(received).toEqual({ tools: 1, prompts: 0, resources: 1 });

    await served.replace((registry) => registry.withDisabledDomains([]));
    await settle();
    expect(received).toEqual({ tools: 2, prompts: 0, resources: 2 });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['code', 'admin']);
    await client.close();
  });

  it('a changed visibility tier tells each session what changed for its own caller, and the next list is the new one', async () => {
    const table = (planner: string[]) => ({ roles: { planner, writer: ['memory'] }, tenants: {} });
    const served = ServedRegistry.of(
      new Registry({
        operations: TIERED_OPERATIONS,
        services: undefined,
        visibility: table(['contracts.impact']),
      }),
    );
    const sessions = await Promise.all(
      [keyOf('t1', 'planner', 1), keyOf('t1', 'writer', 2)].map(async (key) => {
        let received = { tools: 0, prompts: 0, resources: 0 };
        const client = await connectClient(served, 'domain', {
          key,
          onClient: (c) => (received = counting(c)),
        });
        return { client, received: () => received };
      }),
    );
    const [planner, writer] = sessions as [(typeof sessions)[number], (typeof sessions)[number]];
    const modes = async () =>
      (await planner.client.listTools()).tools.map((t) => [
        t.name,
        (t.inputSchema as unknown as { properties: { mode: { enum: string[] } } }).properties.mode.enum,
      ]);
    expect(await modes()).toEqual([['contracts', ['impact']]]);
    expect((await planner.client.listPrompts()).prompts).toEqual([]);
    expect(await writer.client.listTools().then((l) => l.tools.map((t) => t.name))).toEqual([
      'memory',
      'memory_put',
    ]);

    await served.replace((registry) =>
      registry.withVisibility(table(['contracts.impact', 'contracts.grpc'])),
    );
    await settle();
    expect(planner.received()).toEqual({ tools: 1, prompts: 1, resources: 0 });
    expect(writer.received()).toEqual({ tools: 0, prompts: 0, resources: 0 });
    expect(await modes()).toEqual([['contracts', ['impact', 'grpc']]]);
    expect((await planner.client.listPrompts()).prompts.map((p) => p.name)).toEqual([
      'change_contract_safely',
    ]);
    const call = await planner.client.callTool({ name: 'contracts', arguments: { mode: 'grpc' } });
    expect(call.content).toEqual([{ type: 'text', text: 'reached contracts.grpc' }]);

    // The same table again changes nothing anyone sees: nothing is sent.
    await served.replace((registry) =>
      registry.withVisibility(table(['contracts.impact', 'contracts.grpc'])),
    );
    await settle();
    expect(planner.received()).toEqual({ tools: 1, prompts: 1, resources: 0 });
    await Promise.all(sessions.map((s) => s.client.close()));
  });

  it('a document kept as a resource adds to the resource list: resources/list_changed, once per new page', async () => {
    const page = defineOperation({
      domain: 'graph',
      mode: 'page',
      flatName: 'sample_page',
      title: 'Sample page',
      description: 'A page over the answer cap, e.g. the topology.',
      args: { n: z.number().int().default(0).describe('Which page, e.g. 1.') },
      output: z.looseObject({}),
      capabilities: {},
      run: (args) => ({
        data: {},
        markdown: `<html>${String(args.n).repeat(MAX_OUTPUT_BYTES)}</html>`,
        document: true,
      }),
    });
    const { client, received } = await connect(
      ServedRegistry.of(new Registry({ operations: [page], services: undefined })),
    );
    await client.callTool({ name: 'graph', arguments: { mode: 'page', n: 1 } });
    await client.callTool({ name: 'graph', arguments: { mode: 'page', n: 1 } });
    await settle();
    expect(received.resources).toBe(1);
    await client.callTool({ name: 'graph', arguments: { mode: 'page', n: 2 } });
    await settle();
    expect(received.resources).toBe(2);
    expect(
      (await client.listResources()).resources.filter((r) => r.uri.startsWith('meshlens://documents/')),
    ).toHaveLength(2);
    await client.close();
  });

  it('composes the registry on first use, once', async () => {
    let composed = 0;
    const served = new ServedRegistry(() => {
      composed++;
      return new Registry({ operations: SAMPLE_OPERATIONS, services: undefined });
    });
    const { client } = await connect(served);
    expect(composed).toBe(0);
    await Promise.all([client.listTools(), client.listPrompts(), client.listResources()]);
    expect(composed).toBe(1);
    await client.close();
  });

  it('a server whose client has gone stops listening to the registry (HTTP sessions come and go)', async () => {
    const served = ServedRegistry.of(new Registry({ operations: SAMPLE_OPERATIONS, services: undefined }));
    const server = createMcpServer({ registry: served, surface: 'domain', version: 'test' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: 'gone', version: '1.0.0' });
    await client.connect(clientTransport);
    const announced = vi.spyOn(server, 'sendToolListChanged');
    await served.replace((registry) => registry.withDisabledDomains(['code']));
    expect(announced).toHaveBeenCalledTimes(1);
    await client.close();
    await served.replace((registry) => registry.withDisabledDomains([]));
    expect(announced).toHaveBeenCalledTimes(1);
  });
});
