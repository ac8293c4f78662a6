import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA_DOC, renderConfigJsonSchema } from '../../src/render/config-json-schema.js';

const file = path.resolve(import.meta.dirname, '../..', CONFIG_SCHEMA_DOC);

describe('config JSON Schema for editors', () => {
  it(`${CONFIG_SCHEMA_DOC} is the schema generated from configSchema (UPDATE_DOCS=1 regenerates it)`, () => {
    const generated = renderConfigJsonSchema();
    if (process.env.UPDATE_DOCS === '1') writeFileSync(file, generated);
    expect(readFileSync(file, 'utf8')).toBe(generated);
  });

  it('refuses unknown keys at every level and leaves defaulted keys optional', () => {
    const schema = JSON.parse(renderConfigJsonSchema()) as {
      additionalProperties: boolean;
      required?: string[];
      properties: Record<
        string,
        {
          additionalProperties: boolean;
          required?: string[];
          properties: Record<string, { items?: { additionalProperties: boolean; required?: string[] } }>;
        }
      >;
    };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required ?? []).toEqual([]);
    for (const [name, section] of Object.entries(schema.properties)) {
      expect(section.additionalProperties, name).toBe(false);
      expect(section.required ?? [], name).toEqual([]);
    }
    const pattern = schema.properties.contracts?.properties.patterns?.items;
    expect(pattern?.additionalProperties).toBe(false);
    expect(pattern?.required?.sort()).toEqual(['kind', 'name', 'regex']);
  });
});
