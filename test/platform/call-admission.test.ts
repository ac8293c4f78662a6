import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createAdmitter, type LimitsConfig } from '../../src/core/admission.js';
import type { CallRecord } from '../../src/core/call-record.js';
import type { KeyPrincipal } from '../../src/core/principal.js';
import { parseRateSpec, type RateSpec } from '../../src/core/rate-spec.js';
import { Registry } from '../../src/core/registry.js';
import { authInfoOf } from '../../src/server/caller-auth-info.js';
import { createMcpServer } from '../../src/server/mcp-server.js';
import { SqliteKeyStore } from '../../src/store/keys-db.js';
import { removeTemps, tempDir } from '../helpers/engine.js';
import { connectClient, textOf } from '../helpers/mcp.js';
import { sampleSearch } from '../helpers/sample-ops.js';

const rate = (text: string): RateSpec => parseRateSpec(text) as RateSpec;
const T0 = Date.parse('2026-12-01T10:00:00Z');

function setup(limits: LimitsConfig) {
  let now = T0;
  const store = SqliteKeyStore.open({ path: path.join(tempDir(), 'keys.db'), env: {} });
  const records: CallRecord[] = [];
  const registry = new Registry({
    operations: [sampleSearch],
    services: undefined,
    visibility: { roles: { reader: ['*'] }, tenants: {} },
    audit: { record: (r) => records.push(r) },
    admission: createAdmitter({ limits, usage: store }),
    now: () => now,
  });
  return { registry, store, records, advance: (ms: number) => (now += ms) };
}

const search = { name: 'code', arguments: { mode: 'search', query: 'Order' } };

describe('admission in the call pipeline', () => {
  afterAll(() => removeTemps());

  it('refuses a local call over the rate with an MCP tool error naming the wait, then admits after it', async () => {
    const { registry, store, records, advance } = setup({ local: { rate: rate('2/s') }, roles: {} });
    const client = await connectClient(registry);
    expect((await client.callTool(search)).isError).toBeUndefined();
    expect((await client.callTool(search)).isError).toBeUndefined();
    const refused = await client.callTool(search);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe('Rate limit reached for the local server (2/s). Retry after 1 s.');
    expect(records.map((r) => r.status)).toEqual(['ok', 'ok', 'refused']);
    advance(500);
    expect((await client.callTool(search)).isError).toBeUndefined();
    expect(store.usage(undefined)).toEqual([
      { subject: 'local', prefix: null, tenant: null, calls: 3, refusals: 1 },
    ]);
    await client.close();
    store.close();
  });

  it('counts even a call that proves invalid', async () => {
    const { registry, store } = setup({ local: { daily: 1 }, roles: {} });
    const client = await connectClient(registry);
    const invalid = await client.callTool({ name: 'code', arguments: { mode: 'search' } });
    expect(textOf(invalid)).toContain('query');
    const refused = await client.callTool(search);
    expect(textOf(refused)).toBe(
      'Daily quota reached for the local server (1 call per UTC day). Retry after 50400 s, when the day ends.',
    );
    await client.close();
    store.close();
  });

  it("limits a key's calls by its role when the transport hands its principal over", async () => {
    const { registry, store } = setup({
      local: { rate: rate('100/s') },
      roles: { reader: { rate: rate('1/m') } },
    });
    const { record } = store.create({ tenant: 'acme', role: 'reader' });
    const principal: KeyPrincipal = {
      kind: 'key',
      keyId: record.id,
      prefix: record.prefix,
      tenant: 'acme',
      role: 'reader',
    };
    const server = createMcpServer({ registry, surface: 'domain', version: 'test' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // What the HTTP transport will do: attach the authenticated principal to every message of the request.
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, options) =>
      send(message, { ...options, authInfo: authInfoOf(principal, false) });
    await server.connect(serverSide);
    const client = new Client({ name: 'http-like', version: '1.0.0' });
    await client.connect(clientSide);
    expect((await client.callTool(search)).isError).toBeUndefined();
    expect(textOf(await client.callTool(search))).toBe(
      `Rate limit reached for key ${record.prefix} (1/m). Retry after 60 s.`,
    );
    expect(store.usage(undefined)).toEqual([
      { subject: `key:${record.id}`, prefix: record.prefix, tenant: 'acme', calls: 1, refusals: 1 },
    ]);
    await client.close();
    store.close();
  });

  it('does not admit twice a call the transport admitted already', async () => {
    const { registry, store } = setup({ local: { daily: 1 }, roles: {} });
    const principal: KeyPrincipal = {
      kind: 'key',
      keyId: 1,
      prefix: 'ml_00000000',
      tenant: 't',
      role: 'reader',
    };
    for (let i = 0; i < 3; i++) {
      const result = await registry.invoke({
        address: { kind: 'operation', op: sampleSearch, label: 'sample_search' },
        rawArgs: { query: 'Order' },
        principal,
        admitted: true,
      });
      expect(result.isError).toBe(false);
    }
    expect(store.usage(undefined)).toEqual([]);
    store.close();
  });
});
