/**
 * `contracts impact --diff` on real git repositories holding a copy of examples/polyglot-shop: the copy is
 * committed, then edited in the working tree, and the answer lists the changes (wire-breaking first), what
 * they reach across services through the call graph and the contract graph, and the tests worth running.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexEngine } from '../../src/index/engine.js';
import { removeTemps, tempDir, writeFiles } from '../helpers/engine.js';
import { git } from '../helpers/git.js';
import { connectClient, textOf } from '../helpers/mcp.js';
import { EXAMPLE, indexedRegistry } from '../helpers/workspace.js';

interface Shop {
  readonly workspace: string;
  readonly engine: IndexEngine;
  readonly client: Client;
}

const shops: Shop[] = [];

/** Replaces one exact piece of a workspace file, failing loudly when the example no longer holds it. */
function edit(workspace: string, relative: string, from: string, to: string): void {
  const file = path.join(workspace, ...relative.split('/'));
  const text = readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${relative} no longer contains ${JSON.stringify(from)}`);
  writeFileSync(file, text.replace(from, to));
}

/** A committed copy of the example, edited by `change` in the working tree, indexed, with a client. */
async function shop(change: (workspace: string) => void, repository = true): Promise<Shop> {
  const workspace = tempDir('meshlens-impact-diff-');
  cpSync(EXAMPLE, workspace, { recursive: true });
  if (repository) {
    git(workspace, 'init', '-q', '-b', 'main');
    git(workspace, 'add', '-A');
    git(workspace, 'commit', '-q', '-m', 'base');
  }
  change(workspace);
  const indexed = await indexedRegistry(workspace);
  const client = await connectClient(indexed.registry, 'flat', { structuredOutput: true });
  const made = { workspace, engine: indexed.engine, client };
  shops.push(made);
  return made;
}

afterAll(async () => {
  for (const { client, engine } of shops) {
    await client.close();
    await engine.close();
  }
  removeTemps();
});

async function impact(client: Client, args: Record<string, unknown>) {
  const result = await client.callTool({ name: 'analyze_impact', arguments: args });
  return {
    text: textOf(result),
    isError: result.isError === true,
    data: result.structuredContent as Record<string, unknown>,
  };
}

/** The table rows, without their running number. */
const rows = (text: string): string[] =>
  text
    .split('\n')
    .filter((line) => /^\| \d+ \| \d+ \|/.test(line))
    .map((line) => line.replace(/^\| \d+ \| /, '| '));

const MONEY = 'wire-breaking type_changed `shop.payment.v1.Money.units`';
const REFUND = 'changed `server.RefundPayment`';

describe('contracts impact --diff: a proto field type and a Go handler edited', () => {
  let edited: Shop;
  beforeAll(async () => {
    edited = await shop((ws) => {
      edit(ws, 'proto/payment.proto', '  int64 units = 2;', '  string units = 2;');
      edit(
        ws,
        'services/payment/server.go',
        '\tp = s.store.refund(p.PaymentID)\n',
        '\tp = s.store.refund(p.PaymentID)\n\tif p.Status != paymentv1.PaymentStatus_PAYMENT_STATUS_REFUNDED {\n\t\treturn nil, status.Error(codes.Internal, "refund not recorded")\n\t}\n',
      );
    });
  }, 60_000);

  it('lists the breaking change first, then one table of what both changes reach, and the tests to run', async () => {
    const { text, isError, data } = await impact(edited.client, { diff: 'HEAD' });
    expect(isError).toBe(false);
    expect(text).toContain('## Impact of the working tree against `HEAD`');
    expect(text).toMatch(
      /\*\*Diff impact\*\* against `HEAD` \([0-9a-f]{7}\): 2 file\(s\) changed; declarations 1 changed, 0 added, 0 removed; 0 contract change\(s\); 1 wire-breaking change\(s\)\.\n- BREAKING `proto\/payment\.proto:31`: type_changed `shop\.payment\.v1\.Money\.units` — field `units = 2`: incompatible type change `int64` → `string`\n- Impact per service: Accounting 1 \(1 cross-service\), billing 2 \(2 cross-service\), order-gateway 1 \(1 cross-service\), payment 5\.\n- Tests worth running: payment 1\./,
    );
    expect(text).toContain(
      [
        '| breaking | type_changed | `shop.payment.v1.Money.units` | `proto/payment.proto:31` |',
        '| declaration | changed | `method server.RefundPayment` | `services/payment/server.go:34` |',
      ].join('\n'),
    );
    expect(rows(text)).toEqual([
      `| 0 | same service | payment | \`server.RefundPayment\` | \`services/payment/server.go:34\` | exact | target | ${REFUND} |`,
      `| 1 | same service | payment | \`handler main\` | \`services/payment/main.go:38\` | exact | rpc PaymentService | ${MONEY} |`,
      `| 1 | same service | payment | \`handler server\` | \`services/payment/server.go:15\` | exact | rpc PaymentService | ${MONEY} |`,
      `| 1 | same service | payment | \`handler server.ProcessPayment\` | \`services/payment/server.go:20\` | exact | rpc PaymentService.ProcessPayment | ${MONEY} |`,
      `| 1 | same service | payment | \`handler server.StreamSettlements\` | \`services/payment/server.go:51\` | exact | rpc PaymentService.StreamSettlements | ${MONEY} |`,
      `| 1 | cross-service | Accounting | \`client SettlementReconciler.ReconcileAsync\` | \`services/accounting/SettlementReconciler.cs:45\` | exact | rpc PaymentService.StreamSettlements | ${MONEY} |`,
      `| 1 | cross-service | billing | \`InvoicingSaga.compensate\` | \`services/billing/src/main/java/shop/billing/InvoicingSaga.java:78\` | exact | rpc shop.payment.v1.PaymentService/RefundPayment | ${REFUND} |`,
      `| 1 | cross-service | order-gateway | \`client OrderService.createOrder\` | \`services/order-gateway/src/orders/order.service.ts:39\` | exact | rpc PaymentService.ProcessPayment | ${MONEY} |`,
      `| 2 | cross-service | billing | \`InvoicingSaga.onOrderCreated\` | \`services/billing/src/main/java/shop/billing/InvoicingSaga.java:66\` | exact | call | ${REFUND} |`,
    ]);
    expect(text).toContain(
      '### Tests worth running\n\n- **payment**: `TestRefundReleasesStockFirst` (`services/payment/server_test.go:44`)\n',
    );
    expect(data.failing).toBe(true);
    expect(data.total_rows).toBe(9);
    expect(data.tests).toEqual([
      {
        service: 'payment',
        path: 'services/payment/server_test.go',
        line: 44,
        test: 'TestRefundReleasesStockFirst',
        location: 'services/payment/server_test.go:44',
        distance: 1,
      },
    ]);
  });

  it('is one of `target`, `symbol` and `diff`, and takes no walk settings', async () => {
    const both = await impact(edited.client, { diff: 'HEAD', target: 'orders.created' });
    expect(both.isError).toBe(true);
    expect(both.text).toContain(
      'Give one of `target` (a contract), `symbol` (a declaration) or `diff` (a git revision), not `target` and `diff`.',
    );
    const depth = await impact(edited.client, { diff: 'HEAD', depth: 3 });
    expect(depth.text).toContain('`depth` does not apply to `diff`');
  });

  it('a revision that is not a commit, or that reads as an option, is refused with the fix', async () => {
    const missing = await impact(edited.client, { diff: 'no-such-branch' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain(
      '`diff`: "no-such-branch" is not a commit in this repository (the repository holding `deploy`, `docs`, `proto`, `services/accounting`',
    );
    expect(missing.text).toContain(
      'Name a branch, tag or commit SHA of it, e.g. "HEAD" for uncommitted work or "main".',
    );
    const option = await impact(edited.client, { diff: '--output=x' });
    expect(option.text).toContain(
      '`diff` must not start with "-" (git would read it as an option), got "--output=x".',
    );
  });
});

describe('contracts impact --diff: removals still used', () => {
  it('a renamed route its callers still call and a removed method still called fail the check', async () => {
    const { client } = await shop((ws) => {
      edit(ws, 'services/payment/http.go', '"GET /payments/{id}"', '"GET /v2/payments/{id}"');
      const store = path.join(ws, 'services/payment/store.go');
      writeFileSync(
        store,
        readFileSync(store, 'utf8').replace(/func \(s \*settlementStore\) settledSince[\s\S]*?\n}\n/, ''),
      );
    });
    const { text, data } = await impact(client, { diff: 'HEAD' });
    const renamed = 'renamed serves route GET /payments/{id} → GET /v2/payments/{id}';
    expect(text).toContain(
      [
        `- STILL USED: ${renamed}, by 1 place(s)`,
        '- STILL USED: `settlementStore.settledSince` (removed from `services/payment/store.go`), by 1 place(s)',
      ].join('\n'),
    );
    expect(text).toContain(
      [
        '| contract | renamed | `serves route GET /payments/{id} → GET /v2/payments/{id}` | `services/payment/http.go:21` |',
        '| declaration | changed | `function registerRoutes` | `services/payment/http.go:17` |',
        '| declaration | removed | `method settlementStore.settledSince` | `services/payment/store.go:85` |',
      ].join('\n'),
    );
    expect(rows(text)).toEqual([
      '| 0 | same service | payment | `registerRoutes` | `services/payment/http.go:17` | exact | target | changed `registerRoutes` |',
      '| 1 | same service | payment | `main` | `services/payment/main.go:54` | exact | call | changed `registerRoutes` |',
      '| 1 | same service | payment | `server.StreamSettlements` | `services/payment/server.go:49` | heuristic | call settledSince (bound to nothing) | removed `settlementStore.settledSince` |',
      `| 1 | cross-service | Accounting | \`client PaymentLookup.GetAsync\` | \`services/accounting/PaymentLookup.cs:23\` | heuristic | route GET /payments/{id} (now matches no route) | ${renamed} |`,
    ]);
    expect(data.failing).toBe(true);
  });
});

describe('contracts impact --diff: a removed function', () => {
  it('is still used by a bare call left naming it, not by a same-named method of something else', async () => {
    const ws = tempDir('meshlens-impact-diff-removed-');
    const UTIL = (body: string) => `${body}export function keep(): number {\n  return 1;\n}\n`;
    writeFiles(ws, {
      'meshlens.toml': '[workspace]\nroots = ["orders"]\n',
      'orders/src/util.ts': UTIL('export function closeAll(): void {\n  return;\n}\n\n'),
      'orders/src/use.ts':
        "import { closeAll } from './util';\n\ndeclare const conn: { closeAll(): void };\n\nexport function shutdown(): void {\n  closeAll();\n  conn.closeAll();\n}\n",
    });
    git(ws, 'init', '-q', '-b', 'main');
    git(ws, 'add', '-A');
    git(ws, 'commit', '-q', '-m', 'base');
    writeFiles(ws, { 'orders/src/util.ts': UTIL('') });
    const indexed = await indexedRegistry(ws);
    const client = await connectClient(indexed.registry, 'flat', { structuredOutput: true });
    shops.push({ workspace: ws, engine: indexed.engine, client });
    const { text, data } = await impact(client, { diff: 'HEAD' });
    expect(text).toContain('- STILL USED: `closeAll` (removed from `orders/src/util.ts`), by 1 place(s)\n');
    expect(text).toContain('| declaration | removed | `function closeAll` | `orders/src/util.ts:1` |');
    expect(rows(text)).toEqual([
      '| 1 | same service | orders | `shutdown` | `orders/src/use.ts:6` | heuristic | call closeAll (bound to nothing) | removed `closeAll` |',
    ]);
    expect(data.failing).toBe(true);
  });
});

describe('contracts impact --diff: a schema file deleted', () => {
  it('every RPC it declared is a breaking removal, with the code still calling them', async () => {
    const { client } = await shop((ws) => rmSync(path.join(ws, 'proto/inventory.proto')));
    const { text, data } = await impact(client, { diff: 'HEAD' });
    const rpc = (m: string) => `shop.inventory.v1.InventoryService/${m}`;
    const why = (m: string) => `wire-breaking rpc_removed \`${rpc(m)}\``;
    const via = (m: string) => `rpc ${rpc(m)} (no longer declared)`;
    expect(text).toContain(
      [
        `- BREAKING \`proto/inventory.proto\`: rpc_removed \`${rpc('ReserveStock')}\` — the schema file declaring it is deleted`,
        `- BREAKING \`proto/inventory.proto\`: rpc_removed \`${rpc('ReleaseStock')}\` — the schema file declaring it is deleted`,
        `- BREAKING \`proto/inventory.proto\`: rpc_removed \`${rpc('WatchStockLevels')}\` — the schema file declaring it is deleted`,
        `- STILL USED: ${why('ReserveStock')}, by 2 place(s)`,
        `- STILL USED: ${why('ReleaseStock')}, by 3 place(s)`,
        `- STILL USED: ${why('WatchStockLevels')}, by 2 place(s)`,
      ].join('\n'),
    );
    expect(rows(text)).toEqual([
      `| 1 | cross-service | inventory | \`handler InventoryApi::reserve_stock\` | \`services/inventory/src/grpc.rs:29\` | heuristic | ${via('ReserveStock')} | ${why('ReserveStock')} |`,
      `| 1 | cross-service | inventory | \`handler InventoryApi::release_stock\` | \`services/inventory/src/grpc.rs:39\` | heuristic | ${via('ReleaseStock')} | ${why('ReleaseStock')} |`,
      `| 1 | cross-service | inventory | \`handler InventoryApi::watch_stock_levels\` | \`services/inventory/src/grpc.rs:48\` | heuristic | ${via('WatchStockLevels')} | ${why('WatchStockLevels')} |`,
      `| 1 | cross-service | inventory | \`handler main\` | \`services/inventory/src/main.rs:39\` | heuristic | ${via('ReserveStock')} | ${why('ReserveStock')}; ${why('ReleaseStock')}; ${why('WatchStockLevels')} |`,
      `| 1 | cross-service | payment | \`client server.RefundPayment\` | \`services/payment/server.go:41\` | heuristic | ${via('ReleaseStock')} | ${why('ReleaseStock')} |`,
    ]);
    expect(text).toContain('8 place(s) in test files left out of the table.');
    expect(data.failing).toBe(true);
  });
});

describe('contracts impact --diff: a schema package renamed', () => {
  it('reaches the code still calling and serving the RPCs by their old names', async () => {
    const { client } = await shop((ws) =>
      edit(ws, 'proto/inventory.proto', 'package shop.inventory.v1;', 'package shop.inventory.v2;'),
    );
    const { text, data } = await impact(client, { diff: 'HEAD' });
    const why = 'wire-breaking package_changed `shop.inventory.v2`';
    expect(text).toContain(
      '- BREAKING `proto/inventory.proto`: package_changed `shop.inventory.v2` — package changed `shop.inventory.v1` → `shop.inventory.v2`: every fully-qualified name changes (gRPC method paths, `Any` type URLs)\n',
    );
    expect(rows(text)).toEqual([
      `| 1 | same service | inventory | \`handler InventoryApi::reserve_stock\` | \`services/inventory/src/grpc.rs:29\` | exact | rpc InventoryService.ReserveStock | ${why} |`,
      `| 1 | same service | inventory | \`handler InventoryApi::release_stock\` | \`services/inventory/src/grpc.rs:39\` | exact | rpc InventoryService.ReleaseStock | ${why} |`,
      `| 1 | same service | inventory | \`handler InventoryApi::watch_stock_levels\` | \`services/inventory/src/grpc.rs:48\` | exact | rpc InventoryService.WatchStockLevels | ${why} |`,
      `| 1 | same service | inventory | \`handler main\` | \`services/inventory/src/main.rs:39\` | exact | rpc InventoryService | ${why} |`,
      `| 1 | cross-service | payment | \`client server.RefundPayment\` | \`services/payment/server.go:41\` | exact | rpc InventoryService.ReleaseStock | ${why} |`,
    ]);
    expect(data.failing).toBe(true);
  });
});

describe('contracts impact --diff: nothing to compare', () => {
  it('a clean working tree is an authoritative zero', async () => {
    const { client } = await shop(() => undefined);
    const { text, isError, data } = await impact(client, { diff: 'HEAD' });
    expect(isError).toBe(false);
    expect(text).toMatch(
      /No changes between the working tree and `HEAD` \([0-9a-f]{7}\) in the indexed roots \(`deploy`, `docs`, `proto`, .*\): exactly 0 declarations or contracts touched\. This is authoritative\./,
    );
    expect(data.failing).toBe(false);
    expect(data.total_rows).toBe(0);
  });

  it('a workspace in no git repository says so', async () => {
    const { client } = await shop(() => undefined, false);
    const { text, isError } = await impact(client, { diff: 'HEAD' });
    expect(isError).toBe(true);
    expect(text).toContain(
      'No root of the workspace is inside a git repository: `diff` compares the working tree with a git revision, so there is nothing to compare. Use `target` or `symbol` to name what changes instead.',
    );
  });
});

describe('contracts impact --diff: roots in several repositories, and in none', () => {
  const PRODUCER = (topic: string) =>
    `import { Kafka } from 'kafkajs';\n\nconst producer = new Kafka({ brokers: [] }).producer();\n\nexport async function publishOrder(id: string): Promise<void> {\n  await producer.send({ topic: '${topic}', messages: [{ key: id, value: id }] });\n}\n`;
  const CONSUMER =
    "import { Kafka } from 'kafkajs';\n\nconst consumer = new Kafka({ brokers: [] }).consumer({ groupId: 'billing' });\n\nexport async function listen(): Promise<void> {\n  await consumer.subscribe({ topic: 'orders.created' });\n}\n";

  it('each repository is compared with its own HEAD; a topic renamed while consumed is still used', async () => {
    const ws = tempDir('meshlens-impact-diff-repos-');
    writeFiles(ws, {
      'meshlens.toml': '[workspace]\nroots = ["orders", "billing", "scratch"]\n',
      'orders/src/publish.ts': PRODUCER('orders.created'),
      'billing/src/listen.ts': CONSUMER,
      'scratch/notes.ts': 'export const note = 1;\n',
    });
    for (const repo of ['orders', 'billing']) {
      git(path.join(ws, repo), 'init', '-q', '-b', 'main');
      git(path.join(ws, repo), 'add', '-A');
      git(path.join(ws, repo), 'commit', '-q', '-m', 'base');
    }
    // Staged, and an untracked file beside it: both are part of the working tree compared.
    writeFiles(ws, {
      'orders/src/publish.ts': PRODUCER('orders.placed'),
      'orders/src/audit.ts': 'export function auditOrder(id: string): string {\n  return id;\n}\n',
    });
    git(path.join(ws, 'orders'), 'add', 'src/publish.ts');
    const indexed = await indexedRegistry(ws);
    const client = await connectClient(indexed.registry, 'flat', { structuredOutput: true });
    shops.push({ workspace: ws, engine: indexed.engine, client });
    const { text, data } = await impact(client, { diff: 'HEAD' });
    const renamed = 'renamed produces topic orders.created → orders.placed';
    expect(text).toMatch(
      /\*\*Diff impact\*\* against `HEAD` \([0-9a-f]{7}\) for billing, `HEAD` \([0-9a-f]{7}\) for orders: 2 file\(s\) changed; declarations 1 changed, 1 added, 0 removed; 1 contract change\(s\); 0 wire-breaking change\(s\)\./,
    );
    expect(text).toContain(`- STILL USED: ${renamed}, by 1 place(s)\n`);
    expect(text).toContain(
      [
        '| contract | renamed | `produces topic orders.created → orders.placed` | `orders/src/publish.ts:6` |',
        '| declaration | added | `function auditOrder` | `orders/src/audit.ts:1` |',
        '| declaration | changed | `function publishOrder` | `orders/src/publish.ts:5` |',
      ].join('\n'),
    );
    expect(rows(text)).toEqual([
      '| 0 | same service | orders | `publishOrder` | `orders/src/publish.ts:5` | exact | target | changed `publishOrder` |',
      `| 1 | cross-service | billing | \`consumer listen\` | \`billing/src/listen.ts:6\` | exact | topic orders.created | ${renamed} |`,
    ]);
    expect(text).toContain('Roots in no git repository, not compared: `scratch`.');
    expect(data.not_in_git).toEqual(['scratch']);
    expect(data.failing).toBe(true);

    // An edit the index has not seen yet is said so, not silently answered from the old facts.
    writeFiles(ws, { 'orders/src/publish.ts': `${PRODUCER('orders.placed')}// later\n` });
    const stale = await impact(client, { diff: 'HEAD' });
    expect(stale.text).toContain(
      '`orders/src/publish.ts`: the index has not caught up with the last edit of this file, so its declarations and contracts are those indexed; ask again once it has (admin rescan).',
    );
  });
});
