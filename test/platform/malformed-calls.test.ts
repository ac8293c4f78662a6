import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../src/core/call-record.js';
import { Registry } from '../../src/core/registry.js';
import { createMcpServer } from '../../src/server/mcp-server.js';
import { connectClient } from '../helpers/mcp.js';
import { SAMPLE_OPERATIONS } from '../helpers/sample-ops.js';

const DEPTH = 100_000;

/** `[[[…]]]` nested `depth` levels, built without recursion. */
function deepArray(depth: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

/** `{"a":{"a":…1}}` nested `depth` levels. */
function deepObject(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** A raw JSON-RPC peer on the SDK's in-memory transport: what it sends reaches the server unparsed. */
async function rawPeer() {
  const registry = new Registry({ operations: SAMPLE_OPERATIONS, services: undefined });
  const server = createMcpServer({ registry, surface: 'domain', version: 'test' });
  const [peer, serverSide] = InMemoryTransport.createLinkedPair();
  const replies = new Map<unknown, JSONRPCMessage>();
  const waiting = new Map<unknown, (message: JSONRPCMessage) => void>();
  peer.onmessage = (message) => {
    const id = (message as { id?: unknown }).id;
    const resolve = waiting.get(id);
    if (resolve) resolve(message);
    else replies.set(id, message);
  };
  await server.connect(serverSide);
  await peer.start();
  let next = 1;
  const request = (method: string, params: unknown): Promise<JSONRPCMessage> => {
    const id = next++;
    const reply = new Promise<JSONRPCMessage>((resolve) => waiting.set(id, resolve));
    void peer.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage);
    return reply;
  };
  const call = (params: unknown) => request('tools/call', params);
  return { request, call, close: () => server.close() };
}

const errorOf = (message: JSONRPCMessage) => (message as { error?: unknown }).error;

describe('malformed calls over the in-memory transport', () => {
  it(`answers arguments nested ${DEPTH} levels deep with -32602 naming the field, then keeps answering`, async () => {
    const peer = await rawPeer();
    expect(
      errorOf(await peer.call({ name: 'code', arguments: { mode: 'search', query: deepArray(DEPTH) } })),
    ).toEqual({
      code: -32602,
      message:
        'Invalid params: `params.arguments.query` nests deeper than 64 levels; tool arguments are flat strings, numbers and booleans.',
    });
    expect(
      errorOf(await peer.call({ name: 'code', arguments: { mode: 'search', nope: deepObject(DEPTH) } })),
    ).toEqual({
      code: -32602,
      message:
        'Invalid params: `params.arguments.nope` nests deeper than 64 levels; tool arguments are flat strings, numbers and booleans.',
    });
    expect(errorOf(await peer.call({ name: 'code', arguments: {}, _meta: deepObject(DEPTH) }))).toEqual({
      code: -32602,
      message:
        'Invalid params: `params._meta.a` nests deeper than 64 levels; no MCP message nests that deep.',
    });
    expect(errorOf(await peer.request('ping', deepObject(DEPTH)))).toEqual({
      code: -32602,
      message: 'Invalid params: `params.a.a` nests deeper than 64 levels; no MCP message nests that deep.',
    });
    const valid = await peer.call({ name: 'code', arguments: { mode: 'search', query: 'Order' } });
    expect((valid as { result?: unknown }).result).toEqual({
      content: [{ type: 'text', text: 'echo {"query":"Order","limit":20,"include_body":false}' }],
    });
    await peer.close();
  });

  it('accepts a value nested just within the limit and answers it as a type error', async () => {
    const peer = await rawPeer();
    // The message is 4 levels down to the value (message, params, arguments, query), so 60 more fit.
    const reply = await peer.call({ name: 'code', arguments: { mode: 'search', query: deepArray(60) } });
    expect((reply as { result?: { isError?: boolean } }).result?.isError).toBe(true);
    await peer.close();
  });

  it.each([
    ['a string', 'search', 'got string "search"'],
    ['an array', [1, 2], 'got array [1,2]'],
    ['a number', 5, 'got number 5'],
    ['null', null, 'got null'],
  ])(
    'answers arguments that are %s with -32602 naming `params.arguments` and how to fix it',
    async (_, value, got) => {
      const peer = await rawPeer();
      expect(errorOf(await peer.call({ name: 'code', arguments: value }))).toEqual({
        code: -32602,
        message: `Invalid params for tools/call: \`params.arguments\` must be a JSON object, ${got}. Send the tool's fields as one JSON object, e.g. {"mode": "search", "query": "OrderService"}; tools/list gives each tool's inputSchema.`,
      });
      await peer.close();
    },
  );

  it('answers a tool name that is not a string, or missing, with -32602 naming `params.name`', async () => {
    const peer = await rawPeer();
    expect(errorOf(await peer.call({ name: 5, arguments: {} }))).toEqual({
      code: -32602,
      message:
        'Invalid params for tools/call: `params.name` must be a string, got number 5. Name a tool that tools/list returns.',
    });
    expect(errorOf(await peer.call({ arguments: {} }))).toEqual({
      code: -32602,
      message:
        'Invalid params for tools/call: `params.name` is required: a string. Name a tool that tools/list returns.',
    });
    await peer.close();
  });

  it('answers a tools/list cursor of the wrong type with -32602 naming `params.cursor`', async () => {
    const peer = await rawPeer();
    expect(errorOf(await peer.request('tools/list', { cursor: 5 }))).toEqual({
      code: -32602,
      message:
        'Invalid params for tools/list: `params.cursor` must be a string, got number 5. See the MCP specification of `tools/list`.',
    });
    await peer.close();
  });

  it('reaches an SDK client as an McpError with code -32602', async () => {
    const registry = new Registry({ operations: SAMPLE_OPERATIONS, services: undefined });
    const client = await connectClient(registry);
    await expect(
      client.callTool({ name: 'code', arguments: { mode: 'search', query: deepArray(DEPTH) } }),
    ).rejects.toMatchObject({ code: -32602 });
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toContain('code');
    await client.close();
  });
});

describe('the registry on its own', () => {
  it('refuses arguments nested past the limit as an invalid argument and still records the call', async () => {
    const records: CallRecord[] = [];
    const registry = new Registry({
      operations: SAMPLE_OPERATIONS,
      services: undefined,
      audit: { record: (record) => records.push(record) },
    });
    const ops = registry.operations().filter((op) => op.domain === 'code');
    const result = await registry.invoke({
      address: { kind: 'domain', domain: 'code', ops },
      rawArgs: { mode: 'search', query: deepObject(DEPTH) },
    });
    expect([result.isError, result.text]).toEqual([
      true,
      '`query` nests deeper than 64 levels; arguments are flat strings, numbers and booleans.',
    ]);
    expect(records.map((record) => [record.operation, record.status])).toEqual([['code.search', 'invalid']]);
    expect(records[0]?.argumentDigest).toMatch(/^[0-9a-f]{64}$/);
  });
});
