import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAB_PASSWORD, LAB_TOKEN } from '../helpers/code-lab.js';
import { callTool, withShopAndLab, type IndexedClient } from '../helpers/indexed-client.js';

const ws = withShopAndLab();

const grep = (on: IndexedClient, args: Record<string, unknown>) => callTool(on, 'grep_code', args);

type Row = { path: string; line: number; column: number; text: string; before?: string[]; after?: string[] };
const places = (data: Record<string, unknown>) =>
  (data.results as Row[]).map((r) => `${r.path}:${r.line}:${r.column}`);

/** `rg --column -n -i 'orders\.created' README.md docs proto services` in the example: the same lines and columns. */
const ORDERS_CREATED = [
  'README.md:43:17',
  'README.md:44:17',
  'README.md:50:4',
  'README.md:81:65',
  'docs/adr/0001-use-kafka-for-order-events.md:15:2',
  'docs/adr/0001-use-kafka-for-order-events.md:18:34',
  'docs/adr/0001-use-kafka-for-order-events.md:27:10',
  'docs/architecture.md:21:64',
  'docs/architecture.md:22:22',
  'docs/architecture.md:26:35',
  'docs/architecture.md:37:4',
  'docs/runbooks/stock-reservation-stuck.md:13:34',
  'proto/checkout.proto:14:54',
  'services/accounting/InvoiceConsumer.cs:46:94',
  'services/billing/src/main/resources/application.yml:26:13',
  'services/order-gateway/src/orders/order.service.ts:54:40',
  'services/payment/events.go:15:26',
  'services/payment/main.go:2:4',
];

describe('grep_code', () => {
  it('lists every matching line of the indexed files, in path order, with its column', async () => {
    const answer = await grep(ws.shop, { pattern: 'orders\\.created' });
    expect(answer.data).toMatchObject({
      total_matches: 18,
      total_files: 10,
      total_is_partial: false,
      case_insensitive: true,
      offset: 0,
      next_offset: null,
    });
    expect(places(answer.data)).toEqual(ORDERS_CREATED);
    expect((answer.data.results as Row[])[16]?.text).toBe('\tordersCreatedTopic   = "orders.created"');
    expect(answer.text).toContain(
      '### `services/payment/events.go` (1 matching line(s))\n```text\n15:\tordersCreatedTopic   = "orders.created"\n```',
    );
  });

  it('pages by matching line with next_offset, null on the last page', async () => {
    const seen: string[] = [];
    const offsets: (number | null)[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const answer = await grep(ws.shop, { pattern: 'orders\\.created', limit: 5, offset });
      seen.push(...places(answer.data));
      offset = answer.data.next_offset as number | null;
      offsets.push(offset);
    }
    expect(offsets).toEqual([5, 10, 15, null]);
    expect(seen).toEqual(ORDERS_CREATED);
  });

  it('uses smart case unless told, and matches fixed strings as written', async () => {
    expect((await grep(ws.shop, { pattern: 'ordersCreatedTopic' })).data.total_matches).toBe(2);
    expect((await grep(ws.shop, { pattern: 'orderscreatedtopic' })).data.total_matches).toBe(2);
    expect((await grep(ws.shop, { pattern: 'OrdersCreatedTopic' })).data.total_matches).toBe(0);
    expect(
      (await grep(ws.shop, { pattern: 'OrdersCreatedTopic', case_insensitive: true })).data.total_matches,
    ).toBe(2);
    expect(
      (await grep(ws.shop, { pattern: 'orders.created', case_insensitive: false })).data.total_matches,
    ).toBe(18);
    const fixed = await grep(ws.shop, { pattern: "topic: 'orders.created', messages", fixed_strings: true });
    expect(places(fixed.data)).toEqual(['services/order-gateway/src/orders/order.service.ts:54:32']);
    expect(await grep(ws.shop, { pattern: 'send({' })).toMatchObject({ isError: true });
    expect((await grep(ws.shop, { pattern: 'send({' })).text).toMatch(
      /^`pattern` is not a valid JavaScript regular expression \(Invalid regular expression: .*\)\. Escape special characters, or pass `fixed_strings: true` to search for the text as written\.$/,
    );
    expect((await grep(ws.shop, { pattern: 'send({', fixed_strings: true })).data.total_matches).toBe(1);
  });

  it('narrows by folder, glob, excluding glob and language', async () => {
    const files = async (args: Record<string, unknown>) =>
      [...new Set((await grep(ws.shop, { pattern: 'orders\\.created', ...args })).data.results as Row[])].map(
        (r) => r.path,
      );
    expect(await files({ path: 'services/payment' })).toEqual([
      'services/payment/events.go',
      'services/payment/main.go',
    ]);
    expect(await files({ path: '*.go' })).toEqual(['services/payment/events.go', 'services/payment/main.go']);
    expect(await files({ path: 'docs/**/*.md', limit: 3 })).toEqual([
      'docs/adr/0001-use-kafka-for-order-events.md',
      'docs/adr/0001-use-kafka-for-order-events.md',
      'docs/adr/0001-use-kafka-for-order-events.md',
    ]);
    expect((await grep(ws.shop, { pattern: 'orders\\.created', path: '!**/*.md' })).data.total_matches).toBe(
      6,
    );
    expect(await files({ language: 'spring' })).toEqual([
      'services/billing/src/main/resources/application.yml',
    ]);
    expect(await grep(ws.shop, { pattern: 'x', path: 'services/paymnt' })).toMatchObject({
      isError: true,
      text: '`path` "services/paymnt" matches no indexed file. Give a workspace-relative folder or file, or a glob such as "**/*.go".',
    });
  });

  it('shows context lines ripgrep-style and caps the lines listed per file', async () => {
    const answer = await grep(ws.shop, { pattern: 'orders\\.created', path: 'docs/adr', context: 1 });
    expect(answer.text).toContain(
      '```text\n14-Order progress is carried by Kafka topics, one per business fact, named `<entity>.<past-tense verb>`:\n' +
        '15:`orders.created`, `payments.settled`, `stock.reserved`, `invoices.issued`, `orders.cancelled`.\n16-\n' +
        '17-- The only synchronous step at checkout is `PaymentService.ProcessPayment` (authorisation); capture\n' +
        '18:  happens when payment consumes `orders.created`.\n' +
        '19-- Events are keyed by order id, so all events of an order stay in one partition and in order.\n--\n26-',
    );
    expect((answer.data.results as Row[])[0]).toMatchObject({
      line: 15,
      before: [
        'Order progress is carried by Kafka topics, one per business fact, named `<entity>.<past-tense verb>`:',
      ],
      after: [''],
    });
    const capped = await grep(ws.shop, { pattern: 'orders\\.created', max_per_file: 1 });
    expect(capped.data.total_matches).toBe(18);
    expect(places(capped.data)).toHaveLength(10);
    expect(capped.text).toContain('### `docs/architecture.md` (4 matching line(s), 1 listed)');
    expect(capped.text).toContain(
      '3 file(s) have more matching lines than `max_per_file`; their first ones are listed.',
    );
  });

  it('never matches or shows a masked secret', async () => {
    for (const probe of [LAB_TOKEN.probe, LAB_PASSWORD.probe]) {
      const answer = await grep(ws.lab, { pattern: probe, fixed_strings: true });
      expect(answer.data.total_matches).toBe(0);
      expect(answer.text).toContain('Exactly 0 lines match in the');
    }
    const named = await grep(ws.lab, { pattern: 'GITHUB_TOKEN|postgres://' });
    expect((named.data.results as Row[]).map((r) => `${r.line}:${r.text}`)).toEqual([
      '1:export const GITHUB_TOKEN = "[REDACTED_SECRET]";',
      '4:  const url = "postgres://shop:[REDACTED_SECRET]@db:5432/shop";',
    ]);
    // The marker is in the masked text only: the filters built from the raw text must not rule it out.
    expect(places((await grep(ws.lab, { pattern: 'REDACTED_SECRET' })).data)).toEqual([
      'app/config.ts:1:31',
      'app/config.ts:4:33',
    ]);
    expect(JSON.stringify(named)).not.toContain(LAB_TOKEN.probe);
  });

  it('stops counting a pattern that matches everywhere once it has 2,000 lines and the page, and says so', async () => {
    const answer = await grep(ws.lab, { pattern: 'tick', limit: 10 });
    expect(answer.data).toMatchObject({ total_matches: 2000, total_is_partial: true, next_offset: 10 });
    expect(answer.text).toContain('_at least 2000 matching line(s) in at least 1 file(s)');
    expect(answer.text).toContain(
      'The search stopped once it had counted 2000 matching lines and filled this page',
    );
  });

  it('sees a file changed by a reload (its filter is patched)', async () => {
    expect((await grep(ws.lab, { pattern: 'zebracorn' })).data.total_matches).toBe(0);
    const notes = path.join(ws.lab.workspace as string, 'app', 'notes.md');
    appendFileSync(notes, '\nA zebracorn appears.\n');
    await ws.lab.engine.reloadPaths([notes]);
    expect(places((await grep(ws.lab, { pattern: 'zebracorn' })).data)).toEqual(['app/notes.md:5:3']);
  });
});
