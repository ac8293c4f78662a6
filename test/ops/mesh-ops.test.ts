import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldsOf } from '../../src/core/schema.js';
import type { IndexEngine } from '../../src/index/engine.js';
import { OPERATIONS } from '../../src/ops/catalog.js';
import { mermaidLabel } from '../../src/render/mermaid.js';
import { connectClient, textOf } from '../helpers/mcp.js';
import { EXAMPLE, indexedRegistry } from '../helpers/workspace.js';

let client: Client;
let engine: IndexEngine;

beforeAll(async () => {
  const indexed = await indexedRegistry();
  engine = indexed.engine;
  client = await connectClient(indexed.registry, 'flat');
});
afterAll(async () => {
  await client.close();
  await engine.close();
});

async function call(
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
  const result = await client.callTool({ name, arguments: args });
  return { text: textOf(result), isError: result.isError === true };
}

describe('smart_search', () => {
  it('ranks exact names first, says how many files declare the name exactly, and strips bodies', async () => {
    const { text } = await call('smart_search', { query: 'Order' });
    expect(text).toContain(
      '_12 file(s) declare a matching name. 2 declare `Order` exactly (listed first); the others contain it._',
    );
    const headings = [...text.matchAll(/^### \[(\d+)\] `([^`]+)`/gm)].map((m) => m[2]);
    expect(headings.slice(0, 2)).toEqual([
      'proto/checkout.proto',
      'services/order-gateway/src/orders/order.model.ts',
    ]);
    expect(text).toContain('Bodies are stripped; pass `include_body: true` to read them.');
  });

  it('keeps snippet lines in original-file coordinates and shows bodies on request', async () => {
    const stripped = (
      await call('smart_search', {
        query: 'createOrder',
        scope: 'services/order-gateway/src/orders/order.service.ts',
      })
    ).text;
    expect(stripped).toMatch(
      /### \[1\] `services\/order-gateway\/src\/orders\/order.service.ts` \(L\d+-L\d+\)/,
    );
    expect(stripped).toMatch(/line\(s\) stripped/);
    const full = (
      await call('smart_search', {
        query: 'createOrder',
        scope: 'services/order-gateway',
        include_body: true,
      })
    ).text;
    expect(full).not.toMatch(/line\(s\) stripped/);
  });

  it('answers zero plainly, and the full-text fallback masks secrets', async () => {
    const zero = await call('smart_search', { query: 's3cr3t' });
    expect(zero.text).toContain('Exactly 0 declarations whose name contains `s3cr3t` in the indexed roots');
    const fuzzy = await call('smart_search', { query: 'datasource', fuzzy: true });
    expect(fuzzy.text).toContain('services/billing/src/main/resources/application.yml');
    const secret = await call('smart_search', { query: 'password:', fuzzy: true });
    expect(secret.text).toContain('password: [REDACTED_SECRET]');
    expect(secret.text).not.toContain('s3cr3t-demo-only');
  });

  it('pages by files with an exact follow-up', async () => {
    const first = await call('smart_search', { query: 'Order', limit: 4 });
    expect(first.text).toContain('Showing 1–4 of 12 files. More: `offset: 4`.');
    const last = await call('smart_search', { query: 'Order', limit: 4, offset: 8 });
    expect(last.text).toContain('Showing 9–12 of 12 files. This is the last page.');
  });
});

describe('find_dependents', () => {
  it('counts implementing or calling any method as depending on the service', async () => {
    const { text } = await call('find_dependents', { target: 'PaymentService' });
    expect(text).toContain('12 dependent(s) in 5 file(s).');
    expect(text).toContain(
      '`server.RefundPayment` — `services/payment/server.go:34` via implements shop.payment.v1.PaymentService/RefundPayment',
    );
    expect(text).toContain(
      '`InvoicingSaga.compensate` — `services/billing/src/main/java/shop/billing/InvoicingSaga.java:78` via calls_rpc shop.payment.v1.PaymentService/RefundPayment',
    );
  });

  it('groups dependents of a contract by root and refuses an unknown granularity', async () => {
    const { text } = await call('find_dependents', { target: 'orders.created', granularity: 'package' });
    expect(text).toContain('3 package(s) in 3 file(s).');
    const bad = await call('find_dependents', { target: 'x', granularity: 'module' });
    expect(bad).toEqual({
      isError: true,
      text: '`find_dependents`: `granularity` must be one of `symbol`, `file`, `package`, got "module".',
    });
    const short = await call('find_dependents', { target: 'ab' });
    expect(short.text).toContain('the substring fallback needs 3+ characters');
  });
});

describe('search_docs', () => {
  it('applies aliases and filters prompt injection out of indexed docs', async () => {
    const dlq = await call('search_docs', { query: 'dlq' });
    expect(dlq.text).toContain(
      '### [1] Dead-letter-queue handling — `docs/adr/0001-use-kafka-for-order-events.md`',
    );
    const injected = await call('search_docs', { query: 'partner notes', max_sections: 5 });
    expect(injected.text).toContain('docs/integrations/carrier-webhooks.md');
    expect(injected.text.toLowerCase()).not.toContain('ignore all previous instructions');
    expect(injected.text).not.toContain('<|im_start|>');
    expect(injected.text).toContain('[FILTERED]');
  });
});

describe('visualize_mesh', () => {
  it('folds the graph per service, and refuses an unknown zoom target naming the fix', async () => {
    const { text } = await call('visualize_mesh', {});
    expect(text).toContain('```mermaid\nflowchart LR');
    expect(text).toContain('_7 services, 5 topics, 23 links._');
    const json = JSON.parse((await call('visualize_mesh', { format: 'json' })).text) as {
      nodes: unknown[];
      links: unknown[];
    };
    expect(json.nodes.length).toBe(12);
    const unknown = await call('visualize_mesh', { service: 'nope' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(
      /^No service named "nope" in the indexed roots\. .*Call without `service` to see the whole topology\.$/,
    );
    const zoom = await call('visualize_mesh', { service: 'payment' });
    expect(zoom.text).toContain('around `services/payment`');
  });

  it('escapes names against Mermaid injection', () => {
    expect(mermaidLabel('a"] --> evil["x')).toBe('a#34;#93; --#62; evil#91;#34;x');
    expect(mermaidLabel('<img src=x onerror=alert(1)>')).toBe('#60;img src=x onerror=alert#40;1#41;#62;');
  });
});

describe('path arguments stay inside the roots on every operation that takes one', () => {
  const outside = mkdtempSync(path.join(os.tmpdir(), 'meshlens-outside-'));
  writeFileSync(path.join(outside, 'secret.proto'), 'syntax = "proto3";\n');
  const link = path.join(EXAMPLE, 'services', 'payment', 'escape-link');
  beforeAll(() => {
    try {
      symlinkSync(outside, link);
    } catch {
      // Left over from an interrupted run.
    }
    mkdirSync(path.join(outside, 'x'), { recursive: true });
  });
  afterAll(async () => {
    const { rmSync } = await import('node:fs');
    rmSync(link, { force: true });
  });

  const attempts = [
    '../../../etc',
    '/etc/passwd',
    'services/payment/escape-link/secret.proto',
    `${EXAMPLE}/services/payment-secret`,
    path.dirname(EXAMPLE),
  ];
  for (const op of OPERATIONS.filter((o) => (o.pathFields ?? []).length > 0)) {
    for (const field of op.pathFields ?? []) {
      it(`${op.flatName} refuses escapes through \`${field}\``, async () => {
        const base = Object.fromEntries(
          fieldsOf(op)
            .filter((f) => f.required)
            .map((f) => [f.name, 'x']),
        );
        for (const attempt of attempts) {
          const value = field === 'proto' && !attempt.endsWith('.proto') ? `${attempt}/a.proto` : attempt;
          const result = await call(op.flatName, { ...base, [field]: value });
          expect(result.isError, `${op.flatName} ${field}=${value}`).toBe(true);
          expect(result.text).toContain(`\`${field}\` must be inside the workspace roots`);
          expect(result.text).not.toContain(outside);
        }
      });
    }
  }
});
