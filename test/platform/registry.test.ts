import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CallRecord } from '../../src/core/call-record.js';
import { MAX_OUTPUT_BYTES, byteLength, openFenceAt } from '../../src/core/budget.js';
import { defineOperation } from '../../src/core/operation.js';
import { Registry } from '../../src/core/registry.js';
import { connectClient, textOf } from '../helpers/mcp.js';
import { SAMPLE_OPERATIONS, sampleSearch } from '../helpers/sample-ops.js';

const huge = defineOperation({
  domain: 'docs',
  mode: 'search',
  flatName: 'huge',
  title: 'Huge answer',
  description: 'Returns too much, e.g. for the cap. DO NOT USE (use nothing).',
  args: { query: z.string().describe('Anything, e.g. "x".') },
  output: z.looseObject({}),
  capabilities: {},
  truncationHint: (args) => `Ask for less than "${args.query}"\nwith a narrower query.`,
  run: () => {
    const block = `\`\`\`ts\n${'const x = "é";\n'.repeat(400)}\`\`\`\n`;
    // Ends inside an open fence so the cut must close it.
    return { data: {}, markdown: `# Big\n\n${block.repeat(20)}\`\`\`ts\n${'let y = 1;\n'.repeat(5000)}` };
  },
});

const slow = defineOperation({
  domain: 'graph',
  mode: 'visualize',
  flatName: 'slow',
  title: 'Slow',
  description: 'Takes a while and reports progress, e.g. for tests. DO NOT USE (use nothing).',
  args: {},
  output: z.looseObject({}),
  capabilities: {},
  async run(_args, ctx) {
    for (let i = 1; i <= 3; i++) {
      ctx.progress(i, 3, `step ${i}`);
      ctx.progress(i, 3, 'repeated values are dropped');
    }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, 50);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        observed.aborted = true;
        reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
      });
    });
    return { data: { done: true }, markdown: 'done' };
  },
});
const observed = { aborted: false };

const indexed = defineOperation({
  domain: 'contracts',
  mode: 'impact',
  flatName: 'indexed',
  title: 'Needs the index',
  description: 'Reads the index, e.g. for the gate. DO NOT USE (use nothing).',
  args: {},
  output: z.looseObject({}),
  capabilities: { requiresIndex: true },
  run: () => ({ data: {}, markdown: 'ran' }),
});

describe('the registry around every call', () => {
  it('cuts text at the 48 KiB cap on a line, closes the open fence and appends the hint', async () => {
    const registry = new Registry({ operations: [huge], services: undefined });
    const client = await connectClient(registry);
    const text = textOf(
      await client.callTool({ name: 'docs', arguments: { mode: 'search', query: 'everything' } }),
    );
    expect(byteLength(text)).toBeLessThanOrEqual(MAX_OUTPUT_BYTES);
    expect(byteLength(text)).toBeGreaterThan(MAX_OUTPUT_BYTES - 2048);
    expect(openFenceAt(text)).toBeUndefined();
    expect(text).toContain(
      '> Output truncated at the 48 KiB cap. Ask for less than "everything" with a narrower query.',
    );
    expect(text).not.toContain('\uFFFD');
    await client.close();
  });

  it('sends progress only for a progressToken, increasing, and reports elapsed_ms in JSON', async () => {
    const registry = new Registry({ operations: [slow], services: undefined });
    const client = await connectClient(registry);
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const result = await client.callTool({ name: 'graph', arguments: { mode: 'visualize' } }, undefined, {
      onprogress: (p) => seen.push(p),
    });
    expect(textOf(result)).toBe('done');
    expect(seen.map((p) => [p.progress, p.total, p.message])).toEqual([
      [1, 3, 'step 1'],
      [2, 3, 'step 2'],
      [3, 3, 'step 3'],
    ]);
    const json = (
      await registry.invoke({ address: { kind: 'operation', op: slow, label: 'slow' }, rawArgs: {} })
    ).json;
    expect(json.done).toBe(true);
    expect(typeof json.elapsed_ms).toBe('number');
    await client.close();
  });

  it('passes cancellation to the operation', async () => {
    const registry = new Registry({ operations: [slow], services: undefined });
    const controller = new AbortController();
    observed.aborted = false;
    const pending = registry.invoke({
      address: { kind: 'operation', op: slow, label: 'slow' },
      rawArgs: {},
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 5);
    const result = await pending;
    expect(observed.aborted).toBe(true);
    expect(result).toMatchObject({ isError: true, text: 'The call was cancelled.' });
  });

  it('answers "still indexing" for index readers before the first snapshot', async () => {
    let ready = false;
    const registry = new Registry({
      operations: [indexed],
      services: undefined,
      readiness: () => (ready ? undefined : 'Still indexing (12 of 40 files); no snapshot yet.'),
    });
    const address = { kind: 'operation' as const, op: indexed, label: 'indexed' };
    expect(await registry.invoke({ address, rawArgs: {} })).toMatchObject({
      isError: true,
      text: 'Still indexing (12 of 40 files); no snapshot yet.',
    });
    ready = true;
    expect((await registry.invoke({ address, rawArgs: {} })).text).toBe('ran');
  });

  it('waits for the first index within the bound, reporting progress to a token and logs otherwise', async () => {
    const run: { progress?: { done: number; total: number } } = {};
    let ready = false;
    const registry = new Registry({
      operations: [indexed],
      services: undefined,
      readiness: () => (ready ? undefined : 'Still indexing; no snapshot yet.'),
      indexProgress: () => run.progress,
      firstCallWaitMs: 10_000,
    });
    const address = { kind: 'operation' as const, op: indexed, label: 'indexed' };
    const sent: [number, number | undefined, string | undefined][] = [];
    const logs: string[] = [];
    const withToken = registry.invoke({
      address,
      rawArgs: {},
      requestMeta: { progressToken: 'p1' },
      sendProgress: (_token, value, total, message) => sent.push([value, total, message]),
    });
    const withoutToken = registry.invoke({ address, rawArgs: {}, sendLog: (m) => logs.push(m) });
    await new Promise((r) => setTimeout(r, 120));
    run.progress = { done: 7, total: 40 };
    await new Promise((r) => setTimeout(r, 120));
    ready = true;
    expect((await withToken).text).toBe('ran');
    expect((await withoutToken).text).toBe('ran');
    expect(sent).toEqual([
      [0, undefined, 'Waiting for the first index to start.'],
      [7, 40, 'Waiting for the first index: 7 of 40 files.'],
    ]);
    expect(logs).toEqual([
      'Waiting for the first index to start.',
      'Waiting for the first index: 7 of 40 files.',
    ]);
  });

  it('past the bound answers "still indexing"; a cancelled wait is a cancellation', async () => {
    const registry = new Registry({
      operations: [indexed],
      services: undefined,
      readiness: () => 'Still indexing (3 of 9 files); no snapshot yet.',
      firstCallWaitMs: 150,
    });
    const address = { kind: 'operation' as const, op: indexed, label: 'indexed' };
    const started = performance.now();
    expect(await registry.invoke({ address, rawArgs: {} })).toMatchObject({
      isError: true,
      text: 'Still indexing (3 of 9 files); no snapshot yet.',
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    const controller = new AbortController();
    const pending = registry.invoke({ address, rawArgs: {}, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect(await pending).toMatchObject({ isError: true, text: 'The call was cancelled.' });
  });

  it('writes exactly one audit record per call, including invalid and refused ones', async () => {
    const records: CallRecord[] = [];
    const registry = new Registry({
      operations: SAMPLE_OPERATIONS,
      services: undefined,
      audit: { record: (r) => records.push(r) },
      governance: {
        evaluate: (op) =>
          op.mode === 'outline'
            ? {
                kind: 'refuse',
                refusal: {
                  status: 'GOVERNANCE_BLOCKED',
                  policy: 'STOP_RULE',
                  required_steps: ['ask the owner'],
                  message_to_user: 'Owned by the platform team.',
                  agent_next_action: 'STOP_AND_REPORT_TO_USER',
                },
              }
            : { kind: 'allow' },
      },
    });
    const client = await connectClient(registry);
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await client.callTool({
      name: 'code',
      arguments: { mode: 'search', query: 'A', _meta: { traceparent } },
    });
    await client.callTool({ name: 'code', arguments: { mode: 'search', nope: 1 } });
    await client.callTool({ name: 'code', arguments: { mode: 'nope' } });
    const refused = await client.callTool({ name: 'code', arguments: { mode: 'outline', path: 'a.ts' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('"agent_next_action": "STOP_AND_REPORT_TO_USER"');
    expect(records.map((r) => [r.operation, r.status])).toEqual([
      ['code.search', 'ok'],
      ['code.search', 'invalid'],
      ['code.?', 'invalid'],
      ['code.outline', 'refused'],
    ]);
    expect(records[0]?.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(records[0]?.argumentDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(records.map((r) => r.caller)).toEqual(['local', 'local', 'local', 'local']);
    const key = { kind: 'key', keyId: 7, prefix: 'ml_ab12cd34', tenant: 'acme', role: 'reader' } as const;
    await registry.invoke({
      address: { kind: 'operation', op: SAMPLE_OPERATIONS[0]!, label: 'x' },
      rawArgs: {},
      principal: key,
    });
    expect(records[4]?.caller).toBe('key ml_ab12cd34 acme/reader');
    await client.close();
  });

  it('never lists nor runs an operation of a disabled domain', async () => {
    const registry = new Registry({
      operations: SAMPLE_OPERATIONS,
      services: undefined,
      disabledDomains: ['code'],
    });
    for (const surface of ['domain', 'flat'] as const) {
      const client = await connectClient(registry, surface);
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(surface === 'domain' ? ['admin'] : ['sample_touch']);
      const name = surface === 'domain' ? 'code' : sampleSearch.flatName;
      const call = client.callTool({ name, arguments: { mode: 'search', query: 'x' } });
      await expect(call).rejects.toBeInstanceOf(McpError);
      await expect(call).rejects.toMatchObject({ code: -32602 });
      await client.close();
    }
  });
});
