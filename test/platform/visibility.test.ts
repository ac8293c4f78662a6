import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/config.js';
import { DOMAINS, operationKey, type AnyOperation } from '../../src/core/operation.js';
import { OPERATIONS } from '../../src/ops/catalog.js';
import type { KeyPrincipal } from '../../src/core/principal.js';
import { Registry } from '../../src/core/registry.js';
import type { VisibilitySection } from '../../src/core/visibility.js';
import type { SurfaceKind } from '../../src/server/surface.js';
import { connectClient } from '../helpers/mcp.js';
import { keyOf, TIERED_OPERATIONS } from '../helpers/tiered-ops.js';

/** The one table every test below reads: roles, and a tenant whose readers see something else. */
const TABLE: VisibilitySection = {
  roles: {
    reader: ['code', 'docs.search', 'contracts.impact'],
    planner: ['contracts.impact', 'contracts.grpc', 'code.*'],
    writer: ['memory.*', 'code.search'],
    admin: ['*'],
  },
  tenants: { acme: { reader: ['docs'] } },
};

const ALL = TIERED_OPERATIONS.map(operationKey);

/** Every caller the table distinguishes, with exactly what it must see. */
const CALLERS: readonly { label: string; key?: KeyPrincipal; sees: readonly string[] }[] = [
  { label: 'the local principal (stdio)', sees: ALL },
  {
    label: 'reader',
    key: keyOf('t1', 'reader'),
    sees: ['code.search', 'code.outline', 'contracts.impact', 'docs.search'],
  },
  { label: 'reader of tenant acme', key: keyOf('acme', 'reader'), sees: ['docs.search', 'docs.read'] },
  {
    label: 'planner',
    key: keyOf('t1', 'planner'),
    sees: ['code.search', 'code.outline', 'contracts.impact', 'contracts.grpc'],
  },
  { label: 'writer', key: keyOf('t1', 'writer'), sees: ['code.search', 'memory.get', 'memory.put'] },
  { label: 'admin', key: keyOf('t1', 'admin'), sees: ALL },
  { label: 'admin of tenant acme (no override for admin)', key: keyOf('acme', 'admin'), sees: ALL },
  { label: 'a role listed nowhere', key: keyOf('t1', 'guest'), sees: [] },
  { label: 'a role named like an object property', key: keyOf('constructor', 'toString'), sees: [] },
];

const registryOf = (operations: readonly AnyOperation[], visibility: VisibilitySection = TABLE) =>
  new Registry({ operations, services: undefined, visibility });

/** The operations a tool list offers: domain tools by their mode enum, the others by their name. */
function listedOperations(tools: readonly { name: string; inputSchema: unknown }[], surface: SurfaceKind) {
  return tools.flatMap((tool) => {
    if (surface === 'domain' && (DOMAINS as readonly string[]).includes(tool.name)) {
      const schema = tool.inputSchema as { properties: { mode: { enum: string[] } } };
      return schema.properties.mode.enum.map((mode) => `${tool.name}.${mode}`);
    }
    const op = TIERED_OPERATIONS.find((o) =>
      surface === 'flat' ? o.flatName === tool.name : `${o.domain}_${o.mode}` === tool.name,
    );
    return op ? [operationKey(op)] : [`?${tool.name}`];
  });
}

/** The call of an operation as its surface addresses it. */
function callOf(op: AnyOperation, surface: SurfaceKind) {
  if (surface === 'flat') return { name: op.flatName, arguments: {} };
  if (op.capabilities.writes) return { name: `${op.domain}_${op.mode}`, arguments: {} };
  return { name: op.domain, arguments: { mode: op.mode } };
}

/** What a call comes back with, a result or a protocol error, as bytes to compare. */
const outcome = (client: Client, call: { name: string; arguments: Record<string, unknown> }) =>
  client.callTool(call).then(
    (result) => JSON.stringify({ result }),
    (error: { code: number; message: string }) =>
      JSON.stringify({ code: error.code, message: error.message }),
  );

describe('visibility tiers: tools/list and calls agree, for every caller, operation and surface', () => {
  for (const surface of ['domain', 'flat'] as const) {
    for (const caller of CALLERS) {
      it(`${surface} surface, ${caller.label}`, async () => {
        const client = await connectClient(registryOf(TIERED_OPERATIONS), surface, { key: caller.key });
        const listed = listedOperations((await client.listTools()).tools, surface);
        expect(listed).toEqual(caller.sees);
        // What the caller may not see must behave as on a server that does not have it at all.
        const only = TIERED_OPERATIONS.filter((op) => caller.sees.includes(operationKey(op)));
        const without = await connectClient(new Registry({ operations: only, services: undefined }), surface);
        for (const op of TIERED_OPERATIONS) {
          const call = callOf(op, surface);
          const got = await outcome(client, call);
          if (caller.sees.includes(operationKey(op))) {
            expect(got, operationKey(op)).toBe(
              JSON.stringify({
                result: { content: [{ type: 'text', text: `reached ${operationKey(op)}` }] },
              }),
            );
          } else {
            expect(got, operationKey(op)).toBe(await outcome(without, call));
          }
        }
        await Promise.all([client.close(), without.close()]);
      });
    }
  }
});

describe('a hidden tool or mode is refused exactly like an unknown one', () => {
  const writer = keyOf('t1', 'writer');

  it('a hidden mode of a visible domain tool: the same tool error as a mode that does not exist', async () => {
    const client = await connectClient(registryOf(TIERED_OPERATIONS), 'domain', { key: writer });
    const hidden = await outcome(client, { name: 'code', arguments: { mode: 'outline' } });
    const unknown = await outcome(client, { name: 'code', arguments: { mode: 'xyzzyzz' } });
    expect(hidden).toBe(
      JSON.stringify({
        result: {
          content: [{ type: 'text', text: '`code` has no mode "outline". Modes: `search`.' }],
          isError: true,
        },
      }),
    );
    expect(hidden.replace('"outline\\"', '"xyzzyzz\\"')).toBe(unknown);
    // Its fields are not named as another mode's either.
    const foreign = await client.callTool({
      name: 'code',
      arguments: { mode: 'search', granularity: 'file' },
    });
    expect(JSON.stringify(foreign)).not.toContain('outline');
    await client.close();
  });

  it('a hidden tool: the same protocol error as a tool that does not exist, on both surfaces', async () => {
    for (const [surface, hiddenName, tools] of [
      ['domain', 'docs', 'code, memory, memory_put'],
      ['flat', 'read_docs', 'search_code, get_memory, put_memory'],
    ] as const) {
      const client = await connectClient(registryOf(TIERED_OPERATIONS), surface, { key: writer });
      const hidden = await outcome(client, { name: hiddenName, arguments: { mode: 'read' } });
      const unknown = await outcome(client, { name: 'xyzzyzz', arguments: { mode: 'read' } });
      expect(hidden).toBe(
        JSON.stringify({
          code: -32602,
          message: `MCP error -32602: MCP error -32602: Unknown tool: ${hiddenName}. Tools: ${tools}`,
        }),
      );
      expect(hidden.replace(hiddenName, 'xyzzyzz')).toBe(unknown);
      await client.close();
    }
  });
});

describe('the registry holds the tiers for any way in, not only the MCP server', () => {
  it('a key calling the whole registry is narrowed to its view; the local principal is not', async () => {
    const registry = registryOf(TIERED_OPERATIONS);
    const code = TIERED_OPERATIONS.filter((op) => op.domain === 'code');
    const outline = TIERED_OPERATIONS.find((op) => operationKey(op) === 'code.outline') as AnyOperation;
    const writer = keyOf('t1', 'writer');
    const viaDomain = (principal?: KeyPrincipal) =>
      registry.invoke({
        address: { kind: 'domain', domain: 'code', ops: code },
        rawArgs: { mode: 'outline' },
        ...(principal ? { principal } : {}),
      });
    expect((await viaDomain(writer)).text).toBe('`code` has no mode "outline". Modes: `search`.');
    expect((await viaDomain()).text).toBe('reached code.outline');
    const direct = await registry.invoke({
      address: { kind: 'operation', op: outline, label: 'outline_code' },
      rawArgs: {},
      principal: writer,
    });
    expect([direct.isError, direct.text]).toEqual([true, 'Unknown tool: outline_code.']);
  });
});

describe('prompts, resources and completions follow the caller’s tier', () => {
  const names = async (client: Client) => ({
    prompts: (await client.listPrompts()).prompts.map((p) => p.name),
    templates: (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate),
  });
  const catalog = {
    services: () => [],
    contracts: () => ['orders.created'],
    documents: () => [],
    noteKeys: () => Promise.resolve(['deploy/payments']),
    revisions: () => Promise.resolve([]),
  };

  it('offers a prompt or template only when every operation it uses is visible', async () => {
    const registry = registryOf(TIERED_OPERATIONS);
    const local = await connectClient(registry, 'domain');
    expect(await names(local)).toEqual({
      prompts: ['review_diff_impact', 'change_contract_safely'],
      templates: [
        'meshlens://contracts/{target}',
        'meshlens://impact/{target}',
        'meshlens://docs/{+path}',
        'meshlens://notes/{+key}',
      ],
    });
    const planner = await connectClient(registry, 'domain', { key: keyOf('t1', 'planner') });
    expect(await names(planner)).toEqual({
      prompts: ['change_contract_safely'],
      templates: ['meshlens://contracts/{target}', 'meshlens://impact/{target}'],
    });
    const writer = await connectClient(registry, 'domain', { key: keyOf('t1', 'writer') });
    expect(await names(writer)).toEqual({
      prompts: [],
      templates: ['meshlens://contracts/{target}', 'meshlens://notes/{+key}'],
    });
    await Promise.all([local.close(), planner.close(), writer.close()]);
  });

  it('a hidden prompt, resource or completion answers as one that does not exist', async () => {
    const reader = await connectClient(registryOf(TIERED_OPERATIONS), 'domain', {
      key: keyOf('t1', 'reader'),
      catalog,
    });
    const error = (promise: Promise<unknown>) =>
      promise.then(
        () => 'answered',
        (e: Error) => e.message,
      );
    expect(
      await error(reader.getPrompt({ name: 'change_contract_safely', arguments: { target: 'x' } })),
    ).toBe('MCP error -32602: MCP error -32602: Unknown prompt: change_contract_safely. Prompts: .');
    expect(await error(reader.readResource({ uri: 'meshlens://notes/deploy/payments' }))).toBe(
      'MCP error -32002: MCP error -32002: No resource meshlens://notes/deploy/payments. resources/list and resources/templates/list give what exists.',
    );
    const complete = (uri: string, name: string) =>
      reader.complete({ ref: { type: 'ref/resource', uri }, argument: { name, value: '' } });
    expect((await complete('meshlens://notes/{+key}', 'key')).completion.values).toEqual([]);
    expect((await complete('meshlens://impact/{target}', 'target')).completion.values).toEqual([
      'orders.created',
    ]);
    // A visible resource is read through the caller's view, as the caller.
    expect(
      (await reader.readResource({ uri: 'meshlens://impact/orders.created' })).contents.map((c) =>
        'text' in c ? c.text : c.blob,
      ),
    ).toEqual(['reached contracts.impact']);
    await reader.close();
  });
});

describe('server instructions', () => {
  it('name no tool to a session created for a key, whose tier may hide any of them', async () => {
    const key = keyOf('t1', 'reader');
    const client = await connectClient(registryOf(TIERED_OPERATIONS), 'domain', { key, principal: key });
    const text = client.getInstructions() ?? '';
    expect(text).toContain('tools/list');
    const named = OPERATIONS.flatMap((op) => [op.flatName, `${op.domain} ${op.mode}`]).filter((name) =>
      text.includes(name),
    );
    expect(named).toEqual([]);
    const local = await connectClient(registryOf(TIERED_OPERATIONS), 'domain');
    expect(local.getInstructions()).toContain('contracts impact (analyze_impact)');
    await Promise.all([client.close(), local.close()]);
  });
});

describe('the table, checked against the operations', () => {
  it('names every unknown domain, mode or malformed rule with the valid names', () => {
    const build = () =>
      registryOf(TIERED_OPERATIONS, {
        roles: { reader: ['codes', 'code.serch', 'docs.*', '*'] },
        tenants: { acme: { writer: ['memory.get.x', 'memroy'] } },
      });
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(
      [
        'Invalid config:',
        '  - [server.visibility.roles] reader: unknown domain `codes` — did you mean `code`? (domains: code, contracts, docs, admin, memory)',
        '  - [server.visibility.roles] reader: unknown mode `code.serch` — did you mean `code.search`? (modes of code: search, outline)',
        '  - [server.visibility.tenants.acme] writer: `memory.get.x` is not a rule: write `*`, a domain (`code` or `code.*`) or one mode (`code.search`)',
        '  - [server.visibility.tenants.acme] writer: unknown domain `memroy` — did you mean `memory`? (domains: code, contracts, docs, admin, memory)',
      ].join('\n'),
    );
  });

  it('a mode of a disabled domain is still a valid rule: the domain may be enabled again', () => {
    const registry = new Registry({
      operations: TIERED_OPERATIONS,
      services: undefined,
      disabledDomains: ['docs'],
      visibility: { roles: { reader: ['docs.read', 'code.search'] }, tenants: {} },
    });
    expect(registry.viewFor(keyOf('t1', 'reader')).operations().map(operationKey)).toEqual(['code.search']);
  });
});
