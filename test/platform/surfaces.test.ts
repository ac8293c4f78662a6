import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Registry } from '../../src/core/registry.js';
import { FORBIDDEN_SCHEMA_KEYS, PROPERTY_NAME_PATTERN } from '../../src/core/schema.js';
import { languageSpec } from '../../src/index/languages/registry.js';
import { OPERATIONS } from '../../src/ops/catalog.js';
import { renderToolsReference } from '../../src/render/tools-reference.js';
import { codeCoverage } from '../../src/index/languages/code-coverage.js';
import { MAX_INSTRUCTIONS_CHARS, SERVER_INSTRUCTIONS } from '../../src/server/instructions.js';
import { fakeIndex } from '../helpers/fake-index.js';
import { connectClient } from '../helpers/mcp.js';
import { SAMPLE_OPERATIONS } from '../helpers/sample-ops.js';
import { DOMAIN_SURFACE_TOOLS } from '../helpers/tool-names.js';

const real = new Registry({
  operations: OPERATIONS,
  services: { index: fakeIndex(), languages: languageSpec },
});
const sample = new Registry({ operations: SAMPLE_OPERATIONS, services: undefined });

/** Every key anywhere in a JSON value, with the path to it. */
function keysDeep(value: unknown, at = '$'): { key: string; at: string }[] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => [
    { key, at },
    ...keysDeep(child, `${at}.${key}`),
  ]);
}

describe('generated MCP surfaces', () => {
  for (const [label, registry] of [
    ['catalogue', real],
    ['sample', sample],
  ] as const) {
    for (const surface of ['domain', 'flat'] as const) {
      it(`${label}/${surface}: every inputSchema is a flat object with nothing a strict client refuses`, async () => {
        const client = await connectClient(registry, surface);
        const { tools } = await client.listTools();
        expect(tools.length).toBeGreaterThan(0);
        for (const tool of tools) {
          const schema = tool.inputSchema as Record<string, unknown>;
          expect(schema.type, tool.name).toBe('object');
          expect(schema.additionalProperties, tool.name).toBe(false);
          const forbidden = keysDeep(schema).filter(({ key }) =>
            (FORBIDDEN_SCHEMA_KEYS as readonly string[]).includes(key),
          );
          expect(forbidden, tool.name).toEqual([]);
          for (const name of Object.keys((schema.properties ?? {}) as object)) {
            expect(name, tool.name).toMatch(PROPERTY_NAME_PATTERN);
          }
          expect(tool.name).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
          expect(tool.description?.length ?? 0).toBeGreaterThan(20);
        }
        await client.close();
      });
    }
  }

  it('the domain surface has one tool per domain with a required mode enum', async () => {
    const client = await connectClient(sample, 'domain');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['code', 'admin']);
    const code = tools[0]?.inputSchema as {
      properties: Record<string, { enum?: string[] }>;
      required: string[];
    };
    expect(code.required).toEqual(['mode']);
    expect(code.properties.mode?.enum).toEqual(['search', 'outline']);
    expect(Object.keys(code.properties).sort()).toEqual([
      'granularity',
      'include_body',
      'limit',
      'mode',
      'path',
      'query',
    ]);
    await client.close();
  });

  it('annotations are truthful: a writing mode beside reading ones gets its own tool', async () => {
    const client = await connectClient(real, 'domain');
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name)).toEqual([...DOMAIN_SURFACE_TOOLS]);
    const git = tools.find((t) => t.name === 'git');
    expect(git?.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      openWorldHint: false,
    });
    const admin = tools.find((t) => t.name === 'admin');
    expect(admin?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect((admin?.inputSchema.properties as { mode: { enum: string[] } }).mode.enum).toEqual(['status']);
    const rescan = tools.find((t) => t.name === 'admin_rescan');
    expect(rescan?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(Object.keys(rescan?.inputSchema.properties ?? {})).toEqual(['path']);
    const memory = tools.find((t) => t.name === 'memory');
    expect(memory?.annotations).toMatchObject({ readOnlyHint: true });
    expect((memory?.inputSchema.properties as { mode: { enum: string[] } }).mode.enum).toEqual([
      'get',
      'list',
      'search',
      'audit',
    ]);
    for (const name of ['memory_put', 'memory_delete']) {
      expect(tools.find((t) => t.name === name)?.annotations, name).toMatchObject({
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      });
    }
    const answer = await client.callTool({ name: 'admin_rescan', arguments: { mode: 'rescan' } });
    expect(answer.isError).toBe(true);
    await client.close();
    const flat = await connectClient(real, 'flat');
    const status = (await flat.listTools()).tools.find((t) => t.name === 'index_status');
    expect(status?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    await flat.close();
  });

  it('the server instructions fit the 2048-character budget and are sent', async () => {
    expect(SERVER_INSTRUCTIONS.length).toBeLessThanOrEqual(MAX_INSTRUCTIONS_CHARS);
    const client = await connectClient(real, 'domain');
    expect(client.getInstructions()).toBe(SERVER_INSTRUCTIONS);
    await client.close();
  });
});

describe('docs/tools.md', () => {
  it('matches the registry (regenerate with `npm run docs:tools`)', () => {
    const file = path.resolve(import.meta.dirname, '../../docs/tools.md');
    const expected = renderToolsReference(real.domains(), codeCoverage());
    if (process.env.UPDATE_DOCS === '1') writeFileSync(file, expected);
    expect(readFileSync(file, 'utf8')).toBe(expected);
  });
});
