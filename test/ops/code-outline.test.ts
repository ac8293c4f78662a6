import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeLab, LAB_TOKEN, MANY } from '../helpers/code-lab.js';
import { removeTemps } from '../helpers/engine.js';
import { callTool, closeIndexed, openIndexed, type IndexedClient } from '../helpers/indexed-client.js';

let shop: IndexedClient;
let imports: IndexedClient;
let lab: IndexedClient;

beforeAll(async () => {
  shop = await openIndexed();
  imports = await openIndexed(path.resolve(import.meta.dirname, '../fixtures/imports'));
  lab = await openIndexed(codeLab());
}, 120_000);
afterAll(async () => {
  await closeIndexed(shop, imports, lab);
  removeTemps();
});

const outline = (on: IndexedClient, args: Record<string, unknown>) => callTool(on, 'outline_file', args);

/** Declarations as `<indent>kind qualified start-end`. */
const rows = (data: Record<string, unknown>): string[] =>
  (
    data.declarations as {
      depth: number;
      kind: string;
      qualified_name: string;
      start_line: number;
      end_line: number;
    }[]
  ).map((d) => `${'  '.repeat(d.depth)}${d.kind} ${d.qualified_name} ${d.start_line}-${d.end_line}`);

const EXPECTED: Record<string, string[]> = {
  'services/order-gateway/src/orders/order.model.ts': [
    'enum OrderStatus 3-9',
    '  enum_member OrderStatus.PendingPayment 4-4',
    '  enum_member OrderStatus.Paid 5-5',
    '  enum_member OrderStatus.StockReserved 6-6',
    '  enum_member OrderStatus.Shipped 7-7',
    '  enum_member OrderStatus.Cancelled 8-8',
    'interface LineItem 11-15',
    'interface Address 17-23',
    'interface CreateOrderInput 25-30',
    'interface Order 32-41',
    'interface ShipmentView 43-48',
    'function orderTotal 50-55',
  ],
  'services/payment/store.go': [
    'struct payment 12-18',
    '  method payment.toSettlement 20-27',
    'struct settlementStore 30-34',
    '  method settlementStore.authorize 40-52',
    '  method settlementStore.get 54-59',
    '  method settlementStore.settle 61-63',
    '  method settlementStore.refund 65-68',
    '  method settlementStore.transition 70-83',
    '  method settlementStore.settledSince 85-96',
    'function newSettlementStore 36-38',
  ],
  'services/billing/src/main/java/shop/billing/InvoiceController.java': [
    'class InvoiceController 9-25',
    '  field InvoiceController.invoices 13-13',
    '  method InvoiceController.InvoiceController 15-17',
    '  method InvoiceController.byOrder 19-24',
  ],
  'services/notification/src/main/kotlin/shop/notification/NotificationController.kt': [
    'class NotificationView 9-9',
    'class NotificationController 11-23',
    '  method NotificationController.forUser 15-22',
  ],
  'services/accounting/PaymentLookup.cs': [
    'class PaymentView 6-6',
    'class PaymentLookup 9-31',
    '  method PaymentLookup.PaymentLookup 14-19',
    '  method PaymentLookup.GetAsync 21-30',
  ],
  'services/shipping/shipping/cancellations.py': ['function cancel_shipment 18-27'],
  'services/inventory/src/grpc.rs': [
    'type StockLevelStream 15-15',
    'struct InventoryApi 17-19',
    'impl InventoryApi 21-25',
    '  method InventoryApi::new 22-24',
    'impl InventoryApi 28-59',
    '  method InventoryApi::reserve_stock 29-37',
    '  method InventoryApi::release_stock 39-44',
    '  type InventoryApi::WatchStockLevelsStream 46-46',
    '  method InventoryApi::watch_stock_levels 48-58',
  ],
  'proto/checkout.proto': [
    'grpc_service shop.checkout.v1.CheckoutService 13-19',
    '  grpc_method shop.checkout.v1.CheckoutService/CreateOrder 15-15',
    '  grpc_method shop.checkout.v1.CheckoutService/GetOrder 16-16',
    '  grpc_method shop.checkout.v1.CheckoutService/WatchOrderStatus 18-18',
    'proto_enum shop.checkout.v1.OrderStatus 21-28',
    'proto_message shop.checkout.v1.LineItem 30-34',
    'proto_message shop.checkout.v1.Address 36-42',
    'proto_message shop.checkout.v1.CreateOrderRequest 44-49',
    'proto_message shop.checkout.v1.CreateOrderResponse 51-54',
    'proto_message shop.checkout.v1.GetOrderRequest 56-58',
    'proto_message shop.checkout.v1.Order 60-67',
    'proto_message shop.checkout.v1.WatchOrderStatusRequest 69-71',
    'proto_message shop.checkout.v1.OrderStatusUpdate 73-77',
  ],
  'docs/architecture.md': [
    'heading Polyglot Shop Architecture 1-55',
    '  heading Polyglot Shop Architecture > Services 6-16',
    '  heading Polyglot Shop Architecture > The order flow 18-31',
    '  heading Polyglot Shop Architecture > Topics 33-44',
    '  heading Polyglot Shop Architecture > Compensation 46-50',
    '  heading Polyglot Shop Architecture > Configuration 52-55',
  ],
};

describe('outline_file', () => {
  it.each(Object.keys(EXPECTED))('outlines %s: kinds, qualified names, spans and nesting', async (file) => {
    const answer = await outline(shop, { path: file });
    expect(answer.isError).toBe(false);
    expect(rows(answer.data)).toEqual(EXPECTED[file]);
    expect(answer.data.next_offset).toBeNull();
  });

  it('shows signatures and decorators without bodies, and imports with the files they resolve to', async () => {
    const answer = await outline(shop, { path: 'services/order-gateway/src/orders/order.service.ts' });
    expect(answer.text).toContain(
      '- class `OrderService` L19–95: `@Injectable() class OrderService implements OnModuleInit`\n' +
        '  - method `OrderService.constructor` L25–29: `constructor(@Inject(PAYMENT_PACKAGE) private readonly paymentClient: ClientGrpc, ' +
        '@Inject(KAFKA_PRODUCER) private readonly producer: Producer, private readonly …`\n' +
        '  - method `OrderService.onModuleInit` L31–33: `onModuleInit(): void`\n' +
        '  - method `OrderService.createOrder` L35–57: `async createOrder(input: CreateOrderInput): Promise<Order>`',
    );
    expect(answer.text).toContain(
      '- L7 `../grpc/payment.client`: PAYMENT_PACKAGE, PaymentServiceClient, PaymentStatus → `services/order-gateway/src/grpc/payment.client.ts`\n' +
        '- L8 `../kafka.provider`: KAFKA_PRODUCER → `services/order-gateway/src/kafka.provider.ts`',
    );
    expect(answer.text).not.toContain('randomUUID();');
    expect(answer.data.imports).toHaveLength(9);
  });

  it('resolves imports in Python, Go, Java, Kotlin and TypeScript (aliases and workspace packages)', async () => {
    const resolved = async (file: string) =>
      ((await outline(imports, { path: file })).data.imports as { line: number; resolved: string[] }[])
        .filter((i) => i.resolved.length > 0)
        .map((i) => `L${i.line} ${i.resolved.join(' ')}`);
    expect(await resolved('py/shipping/handlers.py')).toEqual([
      'L3 py/shipping/models.py',
      'L4 py/shipping/rates.py',
      'L6 py/shipping/util/dates.py',
    ]);
    expect(await resolved('gosvc/main.go')).toEqual(['L7 gosvc/internal/store/']);
    expect(await resolved('jvm/src/main/kotlin/com/shop/billing/Notifier.kt')).toEqual([
      'L3 jvm/src/main/java/com/shop/billing/model/Invoice.java',
      'L4 jvm/src/main/kotlin/com/shop/billing/util/Format.kt',
    ]);
    expect(await resolved('web/src/main.ts')).toEqual([
      'L4 web/src/orders/order.service.ts',
      'L5 web/src/orders/index.ts',
      'L6 web/lib/helper.ts',
      'L7 web/src/app/settings.ts',
      'L9 packages/contracts/src/index.ts',
      'L10 packages/contracts/src/testing.ts',
      'L11 packages/utils/src/strings.ts',
      'L12 packages/schemas/',
      'L13 web/config/app.ts',
      'L14 web/src/app/env.ts',
    ]);
  });

  it('accepts a root-relative path when one root holds it, and says which roots when several do', async () => {
    expect((await outline(shop, { path: 'server.go' })).data.path).toBe('services/payment/server.go');
    expect(await outline(shop, { path: 'src/main/resources/application.yml' })).toMatchObject({
      isError: true,
      text:
        '`path` "src/main/resources/application.yml" names a file in 2 roots: ' +
        '`services/billing/src/main/resources/application.yml`, `services/notification/src/main/resources/application.yml`. ' +
        'Pass one of these workspace-relative paths.',
    });
  });

  it('names the closest indexed paths for an unknown one, and says why a file is not indexed', async () => {
    expect(await outline(shop, { path: 'services/payment/servr.go' })).toMatchObject({
      isError: true,
      text:
        'No indexed file at `path` "services/payment/servr.go" (paths are workspace-relative, e.g. as answers show them). ' +
        'Closest indexed paths: `services/payment/server.go`. `code files` finds files by part of their path.',
    });
    expect(await outline(lab, { path: 'app/static/app.min.js' })).toMatchObject({
      isError: true,
      text: '`app/static/app.min.js` is not indexed: it was rejected (long line: line 1 is 3,009 bytes (limit 1,024)). Read it directly if you need it.',
    });
  });

  it('refuses a path no root can hold, absolute or climbing out, as outside the roots', async () => {
    for (const spelling of ['/srv/elsewhere/server.go', '../elsewhere/server.go']) {
      const answer = await outline(shop, { path: spelling });
      expect(answer.isError).toBe(true);
      expect(answer.text.startsWith('`path` must be inside the workspace roots (')).toBe(true);
      expect(
        answer.text.endsWith(
          `); "${spelling}" is outside them. Use a workspace-relative path, as answers show them.`,
        ),
      ).toBe(true);
    }
  });

  it('says a file without declarations has none, and why', async () => {
    const answer = await outline(shop, { path: 'services/billing/src/main/resources/application.yml' });
    expect(answer.data.total_declarations).toBe(0);
    expect(answer.text).toContain(
      'No declarations: meshlens does not extract declarations from this kind of file.',
    );
  });

  it('pages a large outline within the page budget, with next_offset null on the last page', async () => {
    const offsets: (number | null)[] = [];
    let offset: number | null = 0;
    const seen: string[] = [];
    while (offset !== null) {
      const answer = await outline(lab, { path: 'app/many.ts', offset });
      expect(answer.data.total_declarations).toBe(MANY);
      seen.push(...rows(answer.data));
      offset = answer.data.next_offset as number | null;
      offsets.push(offset);
      if (offset !== null) expect(answer.text).toContain(`More: \`offset: ${offset}\`.`);
    }
    expect(seen).toEqual(
      Array.from({ length: MANY }, (_, i) => `function handler${i} ${3 * i + 1}-${3 * i + 3}`),
    );
    expect(offsets.length).toBeGreaterThan(2);
    expect(offsets.at(-1)).toBeNull();
  });

  it('masks a secret held in a signature', async () => {
    const answer = await outline(lab, { path: 'app/config.ts' });
    expect(answer.text).toContain('- const `GITHUB_TOKEN` L1: `const GITHUB_TOKEN = "[REDACTED_SECRET]"`');
    expect((answer.data.declarations as { signature: string }[])[0]?.signature).toBe(
      'const GITHUB_TOKEN = "[REDACTED_SECRET]"',
    );
    expect(JSON.stringify(answer)).not.toContain(LAB_TOKEN.probe);
  });
});
