import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OUTPUT_BYTES, byteLength } from '../../src/core/budget.js';
import { CLI, tempEnv } from '../helpers/cli.js';
import { DOMAIN_SURFACE_TOOLS } from '../helpers/tool-names.js';

const EXAMPLE = path.resolve(import.meta.dirname, '../../examples/polyglot-shop');

let client: Client;

const textOfResource = (result: Awaited<ReturnType<Client['readResource']>>): string => {
  const [first] = result.contents;
  return first && 'text' in first ? String(first.text) : '';
};

beforeAll(async () => {
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'meshlens-capabilities-'));
  cpSync(EXAMPLE, workspace, { recursive: true });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--no-watch', '--workspace', workspace],
    env: tempEnv(),
    stderr: 'pipe',
  });
  client = new Client({ name: 'capabilities', version: '1.0.0' });
  await client.connect(transport);
  // The first index-reading call waits for the index; after it the catalog is filled.
  await client.callTool({ name: 'admin', arguments: { mode: 'status' } }, undefined, { timeout: 60_000 });
  await client.callTool({ name: 'code', arguments: { mode: 'search', query: 'Order' } }, undefined, {
    timeout: 60_000,
  });
}, 90_000);

afterAll(async () => client.close());

describe('MCP beyond tools (built CLI over stdio)', () => {
  it('advertises tools, resources, prompts, completions and logging', () => {
    expect(client.getServerCapabilities()).toMatchObject({
      tools: {},
      resources: {},
      prompts: {},
      completions: {},
      logging: {},
    });
  });

  it('lists tools with output schemas; admin is read-only, admin_rescan writes', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...DOMAIN_SURFACE_TOOLS]);
    for (const tool of tools) expect(tool.outputSchema?.type).toBe('object');
    expect(tools.find((t) => t.name === 'admin')?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === 'admin_rescan')?.annotations?.readOnlyHint).toBe(false);
  });

  it('lists and reads resources: services, graph JSON, documents', async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris.slice(0, 3)).toEqual([
      'meshlens://services',
      'meshlens://graph.json',
      'meshlens://graph.html',
    ]);
    expect(uris).toContain('meshlens://docs/docs/adr/0001-use-kafka-for-order-events.md');
    const services = JSON.parse(
      textOfResource(await client.readResource({ uri: 'meshlens://services' })),
    ) as {
      services: { folder: string }[];
    };
    expect(services.services.map((s) => s.folder)).toContain('services/payment');
    const graph = JSON.parse(textOfResource(await client.readResource({ uri: 'meshlens://graph.json' }))) as {
      nodes: unknown[];
    };
    expect(graph.nodes.length).toBeGreaterThan(5);
    const adr = await client.readResource({
      uri: 'meshlens://docs/docs/adr/0001-use-kafka-for-order-events.md',
    });
    expect(adr.contents[0]?.mimeType).toBe('text/markdown');
    expect(textOfResource(adr)).toContain('Kafka');
    await expect(client.readResource({ uri: 'meshlens://nothing' })).rejects.toMatchObject({ code: -32002 });
  });

  it('lists templates and reads a service, a contract definition and an impact through them', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'meshlens://services/{service}',
      'meshlens://contracts/{target}',
      'meshlens://impact/{target}',
      'meshlens://docs/{+path}',
      'meshlens://notes/{+key}',
    ]);
    const around = textOfResource(
      await client.readResource({ uri: 'meshlens://services/services%2Fpayment' }),
    );
    expect(around).toContain('```mermaid');
    const definition = textOfResource(
      await client.readResource({ uri: 'meshlens://contracts/PaymentService' }),
    );
    expect(definition).toContain('PaymentService');
    const impact = textOfResource(await client.readResource({ uri: 'meshlens://impact/orders.created' }));
    expect(impact).toContain('`services/payment/events.go:43`');
    const outside = client.readResource({ uri: 'meshlens://docs/..%2F..%2Fetc%2Fpasswd' });
    await expect(outside).rejects.toMatchObject({ code: -32602 });
  });

  it('offers three prompts written for this surface, with required arguments checked', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([
      'review_diff_impact',
      'tour_service',
      'change_contract_safely',
    ]);
    const tour = await client.getPrompt({ name: 'tour_service', arguments: { service: 'services/payment' } });
    const text = (tour.messages[0]?.content as { text: string }).text;
    expect(text).toContain('`graph` with mode `visualize`');
    expect(text).toContain('`service: "services/payment"`');
    await expect(client.getPrompt({ name: 'tour_service', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('completes prompt and template arguments from the index', async () => {
    const services = await client.complete({
      ref: { type: 'ref/prompt', name: 'tour_service' },
      argument: { name: 'service', value: 'services/pay' },
    });
    expect(services.completion.values).toEqual(['services/payment']);
    const contracts = await client.complete({
      ref: { type: 'ref/resource', uri: 'meshlens://impact/{target}' },
      argument: { name: 'target', value: 'orders.c' },
    });
    expect(contracts.completion.values).toContain('orders.created');
    const none = await client.complete({
      ref: { type: 'ref/prompt', name: 'review_diff_impact' },
      argument: { name: 'base', value: 'ori' },
    });
    expect(none.completion.values).toEqual([]);
  });

  it('accepts logging/setLevel', async () => {
    await expect(client.setLoggingLevel('warning')).resolves.toBeDefined();
  });

  it('answers the HTML page with a resource link within the cap, and the link reads the page', async () => {
    const result = await client.callTool({ name: 'graph', arguments: { mode: 'visualize', format: 'html' } });
    const content = result.content as { type: string; text?: string; uri?: string }[];
    const total = content.reduce((sum, c) => sum + byteLength(JSON.stringify(c)), 0);
    expect(total).toBeLessThan(MAX_OUTPUT_BYTES);
    const link = content.find((c) => c.type === 'resource_link');
    expect(link?.uri).toMatch(/^meshlens:\/\/documents\/graph-[0-9a-f]{16}\.html$/);
    const page = await client.readResource({ uri: link?.uri ?? '' });
    expect(page.contents[0]?.mimeType).toBe('text/html');
    expect(textOfResource(page)).toMatch(/^<!doctype html>/i);
  });
});
