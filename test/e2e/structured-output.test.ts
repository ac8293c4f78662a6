import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, tempEnv } from '../helpers/cli.js';

const EXAMPLE = path.resolve(import.meta.dirname, '../../examples/polyglot-shop');

/** One or more calls per operation, zero and paged answers included; the client checks each against its schema. */
const FLAT_CALLS: readonly [string, Record<string, unknown>][] = [
  ['smart_search', { query: 'Order' }],
  ['smart_search', { query: 'Order', limit: 1 }],
  ['smart_search', { query: 'NoSuchNameAnywhere' }],
  ['smart_search', { query: 'orders.created', fuzzy: true }],
  ['outline_file', { path: 'services/payment/server.go' }],
  ['outline_file', { path: 'services/billing/src/main/resources/application.yml' }],
  ['expand_symbol', { symbol: 'services/payment/server.go:RefundPayment' }],
  ['find_files', { query: 'server' }],
  ['find_files', { query: 'nothing-is-named-like-this' }],
  ['grep_code', { pattern: 'orders\\.created', limit: 2, context: 1 }],
  ['grep_code', { pattern: 'no-such-text-anywhere' }],
  ['find_dependents', { target: 'orders.created' }],
  ['analyze_grpc', { target: 'PaymentService' }],
  ['analyze_grpc', { target: 'NoSuchService' }],
  ['analyze_impact', { target: 'orders.created', limit: 1 }],
  ['analyze_impact', { target: 'no.such.topic' }],
  ['analyze_impact', { symbol: 'services/payment/store.go:settlementStore.transition', limit: 2 }],
  ['search_docs', { query: 'payment' }],
  ['read_doc', { path: 'docs/architecture.md' }],
  ['visualize_mesh', { format: 'mermaid' }],
  ['visualize_mesh', { format: 'json' }],
  ['trace_calls', { from: 'services/payment/store.go:settlementStore.transition' }],
  [
    'trace_calls',
    { from: 'services/payment/main.go:main', to: 'services/payment/store.go:newSettlementStore' },
  ],
  ['explore_neighbors', { contract: 'orders.created', depth: 2 }],
  ['explore_neighbors', { symbol: 'services/payment/server.go:server.RefundPayment', limit: 1 }],
  ['index_status', {}],
  ['rescan', {}],
];

let client: Client;

beforeAll(async () => {
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'meshlens-structured-'));
  cpSync(EXAMPLE, workspace, { recursive: true });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--surface', 'flat', '--no-watch', '--workspace', workspace],
    env: tempEnv(),
    stderr: 'pipe',
  });
  client = new Client({ name: 'structured', version: '1.0.0' });
  await client.connect(transport);
}, 60_000);

afterAll(async () => client.close());

describe('outputSchema and structuredContent (built CLI over stdio)', () => {
  it('every tool advertises an object outputSchema', async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBe(20);
    for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe('object');
  });

  it('every answer carries structuredContent that its schema accepts, next to the text', async () => {
    await client.listTools(); // the client validates structuredContent against the listed schemas
    for (const [name, args] of FLAT_CALLS) {
      const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
      const label = `${name} ${JSON.stringify(args)}`;
      expect(result.isError, `${label}: ${JSON.stringify(result.content).slice(0, 300)}`).toBeFalsy();
      expect(result.structuredContent, label).toBeTypeOf('object');
      expect((result.structuredContent as { elapsed_ms: unknown }).elapsed_ms, label).toBeTypeOf('number');
      expect((result.content as { type: string }[])[0]?.type, label).toBe('text');
    }
  }, 120_000);

  it('paged answers always carry next_offset: a number, or null on the last page', async () => {
    const first = await client.callTool({
      name: 'analyze_impact',
      arguments: { target: 'orders.created', limit: 1 },
    });
    const page = first.structuredContent as {
      offset: number;
      next_offset: number | null;
      total_rows: number;
    };
    expect(page.offset).toBe(0);
    expect(page.next_offset).toBe(1);
    const last = await client.callTool({
      name: 'analyze_impact',
      arguments: { target: 'orders.created', offset: page.total_rows - 1, limit: 1 },
    });
    expect((last.structuredContent as { next_offset: number | null }).next_offset).toBeNull();
  });
});
