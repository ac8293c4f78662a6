import { z } from 'zod';
import { defineOperation, type AnyOperation } from '../../src/core/operation.js';

/** Two modes of one domain with overlapping and foreign fields, to pin validation wording. */
export const sampleSearch = defineOperation({
  domain: 'code',
  mode: 'search',
  flatName: 'sample_search',
  title: 'Sample search',
  description: 'Finds declared names, e.g. "Order". DO NOT USE for text (use grep).',
  args: {
    query: z.string().min(1).describe('A name, e.g. "Order".'),
    limit: z.number().int().min(1).max(100).default(20).describe('Results per page, e.g. 10.'),
    include_body: z.boolean().default(false).describe('Return bodies, e.g. true.'),
  },
  output: z.looseObject({}),
  capabilities: { requiresIndex: false, paged: true },
  run: (args) => ({ data: { echo: args }, markdown: `echo ${JSON.stringify(args)}` }),
});

export const sampleOutline = defineOperation({
  domain: 'code',
  mode: 'outline',
  flatName: 'sample_outline',
  title: 'Sample outline',
  description: 'Outlines a file, e.g. "src/a.ts". DO NOT USE to search (use sample_search).',
  args: {
    path: z.string().min(1).describe('A file, e.g. "src/a.ts".'),
    granularity: z.enum(['symbol', 'file', 'package']).default('symbol').describe('Grouping, e.g. "file".'),
    limit: z.number().int().min(1).max(200).default(50).describe('Rows per page, e.g. 25.'),
  },
  output: z.looseObject({}),
  capabilities: {},
  run: (args) => ({ data: { echo: args }, markdown: `echo ${JSON.stringify(args)}` }),
});

export const sampleWriter = defineOperation({
  domain: 'admin',
  mode: 'touch',
  flatName: 'sample_touch',
  title: 'Sample writer',
  description: 'Writes something, e.g. a marker. DO NOT USE to read (use sample_search).',
  args: {},
  output: z.looseObject({}),
  capabilities: { writes: true, idempotent: true },
  run: () => ({ data: {}, markdown: 'touched' }),
});

export const SAMPLE_OPERATIONS: readonly AnyOperation[] = [sampleSearch, sampleOutline, sampleWriter];
