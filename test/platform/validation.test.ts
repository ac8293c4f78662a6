import { describe, expect, it } from 'vitest';
import { Registry } from '../../src/core/registry.js';
import { connectClient, textOf } from '../helpers/mcp.js';
import { SAMPLE_OPERATIONS } from '../helpers/sample-ops.js';

const registry = new Registry({ operations: SAMPLE_OPERATIONS, services: undefined });

async function callDomain(args: Record<string, unknown>) {
  const client = await connectClient(registry, 'domain');
  const result = await client.callTool({ name: 'code', arguments: args });
  await client.close();
  return { isError: result.isError === true, text: textOf(result) };
}

describe('argument validation on the domain surface', () => {
  it('accepts a valid call and applies defaults', async () => {
    const result = await callDomain({ mode: 'search', query: 'Order' });
    expect(result).toEqual({
      isError: false,
      text: 'echo {"query":"Order","limit":20,"include_body":false}',
    });
  });

  it('names an unknown field, suggests the nearest and lists the accepted ones', async () => {
    expect(await callDomain({ mode: 'search', qurey: 'Order' })).toEqual({
      isError: true,
      text: '`code` mode `search` has no field `qurey`. Did you mean `query`? Accepted fields: `query`, `limit`, `include_body`.',
    });
  });

  it('refuses a field of another mode, naming that mode', async () => {
    expect(await callDomain({ mode: 'search', query: 'Order', granularity: 'file' })).toEqual({
      isError: true,
      text: '`code` mode `search` does not accept `granularity` (it belongs to mode `outline`). Accepted fields: `query`, `limit`, `include_body`.',
    });
  });

  it('names the mode and the missing required field', async () => {
    expect(await callDomain({ mode: 'search' })).toEqual({
      isError: true,
      text: '`code` mode `search` requires `query` (string): A name, e.g. "Order".',
    });
  });

  it('says what type a field needs', async () => {
    expect(await callDomain({ mode: 'search', query: 'Order', limit: 'ten' })).toEqual({
      isError: true,
      text: '`code` mode `search`: `limit` must be an integer, got string "ten".',
    });
    expect(await callDomain({ mode: 'search', query: 'Order', include_body: 'yes' })).toEqual({
      isError: true,
      text: '`code` mode `search`: `include_body` must be a boolean, got string "yes".',
    });
  });

  it('refuses a number out of range with the range and the default', async () => {
    expect(await callDomain({ mode: 'search', query: 'Order', limit: 500 })).toEqual({
      isError: true,
      text: '`code` mode `search`: `limit` must be between 1 and 100 (default 20), got 500.',
    });
    expect(await callDomain({ mode: 'search', query: 'Order', limit: 0 })).toEqual({
      isError: true,
      text: '`code` mode `search`: `limit` must be between 1 and 100 (default 20), got 0.',
    });
  });

  it('checks enum values explicitly instead of falling back to a default', async () => {
    expect(await callDomain({ mode: 'outline', path: 'a.ts', granularity: 'module' })).toEqual({
      isError: true,
      text: '`code` mode `outline`: `granularity` must be one of `symbol`, `file`, `package`, got "module".',
    });
  });

  it('requires a mode and suggests a misspelt one', async () => {
    expect(await callDomain({ query: 'Order' })).toEqual({
      isError: true,
      text: '`code` requires `mode`, one of `search`, `outline`.',
    });
    expect(await callDomain({ mode: 'serch', query: 'Order' })).toEqual({
      isError: true,
      text: '`code` has no mode "serch". Did you mean `search`? Modes: `search`, `outline`.',
    });
  });

  it('refuses arguments that are not an object', async () => {
    const result = await registry.invoke({
      address: {
        kind: 'domain',
        domain: 'code',
        ops: registry.operations().filter((o) => o.domain === 'code'),
      },
      rawArgs: ['search'],
    });
    expect(result.text).toBe('Arguments must be a JSON object, got array.');
  });

  it('accepts _meta in the arguments and in the request without showing it anywhere', async () => {
    const client = await connectClient(registry, 'domain');
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const inArgs = await client.callTool({
      name: 'code',
      arguments: { mode: 'search', query: 'A', _meta: { traceparent } },
    });
    expect(textOf(inArgs)).toBe('echo {"query":"A","limit":20,"include_body":false}');
    const inParams = await client.callTool({
      name: 'code',
      arguments: { mode: 'search', query: 'A' },
      _meta: { traceparent },
    });
    expect(inParams.isError).toBeFalsy();
    const tools = await client.listTools();
    expect(JSON.stringify(tools)).not.toContain('_meta');
    await client.close();
  });
});

describe('argument validation on the flat surface', () => {
  it('words errors with the flat tool name', async () => {
    const client = await connectClient(registry, 'flat');
    const unknown = await client.callTool({ name: 'sample_search', arguments: { qurey: 'x' } });
    expect(textOf(unknown)).toBe(
      '`sample_search` has no field `qurey`. Did you mean `query`? Accepted fields: `query`, `limit`, `include_body`.',
    );
    const mode = await client.callTool({ name: 'sample_search', arguments: { query: 'x', mode: 'search' } });
    expect(textOf(mode)).toBe(
      '`sample_search` has no field `mode`. Accepted fields: `query`, `limit`, `include_body`.',
    );
    const range = await client.callTool({ name: 'sample_outline', arguments: { path: 'a', limit: 201 } });
    expect(textOf(range)).toBe('`sample_outline`: `limit` must be between 1 and 200 (default 50), got 201.');
    await client.close();
  });
});
