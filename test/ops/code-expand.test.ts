import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { STALE_NOTE } from '../../src/ops/shared/indexed-text.js';
import { LAB_PASSWORD, LONG_LINES } from '../helpers/code-lab.js';
import { callTool, withShopAndLab, type IndexedClient } from '../helpers/indexed-client.js';

const ws = withShopAndLab();

const expand = (on: IndexedClient, args: Record<string, unknown>) => callTool(on, 'expand_symbol', args);

const SERVER = 'services/payment/server.go';

describe('expand_symbol', () => {
  it('returns one declaration whole, by the path:name shorthand', async () => {
    const answer = await expand(ws.shop, { symbol: `${SERVER}:RefundPayment` });
    expect(answer.data).toMatchObject({
      path: SERVER,
      kind: 'method',
      qualified_name: 'server.RefundPayment',
      start_line: 34,
      end_line: 46,
      shown_start_line: 34,
      shown_end_line: 46,
      offset: 0,
      next_offset: null,
      truncated: false,
    });
    const text = answer.data.text as string;
    expect(text.split('\n')).toHaveLength(13);
    expect(text.split('\n')[0]).toBe(
      'func (s *server) RefundPayment(ctx context.Context, req *paymentv1.RefundPaymentRequest) (*paymentv1.RefundPaymentResponse, error) {',
    );
    expect(text.split('\n').at(-1)).toBe('}');
    expect(
      answer.text.startsWith(`### method \`server.RefundPayment\` L34–46 — \`${SERVER}\`\n\`\`\`go\n`),
    ).toBe(true);
  });

  it('finds the same declaration by qualified name, by other separators, by line and by path:line', async () => {
    const by = async (args: Record<string, unknown>) => (await expand(ws.shop, args)).data.qualified_name;
    expect(await by({ path: SERVER, name: 'server.RefundPayment' })).toBe('server.RefundPayment');
    expect(await by({ path: SERVER, name: 'server::refundpayment' })).toBe('server.RefundPayment');
    expect(await by({ path: SERVER, line: 40 })).toBe('server.RefundPayment');
    expect(await by({ symbol: `${SERVER}:40` })).toBe('server.RefundPayment');
    // The innermost declaration spanning the line: the method, not its class.
    expect(await by({ path: 'services/order-gateway/src/orders/order.service.ts', line: 40 })).toBe(
      'OrderService.createOrder',
    );
    expect(await by({ path: 'proto/payment.proto', name: 'PaymentService/RefundPayment' })).toBe(
      'shop.payment.v1.PaymentService/RefundPayment',
    );
  });

  it('finds a name declared once in the workspace without a path, and lists namesakes with their symbols', async () => {
    expect((await expand(ws.shop, { name: 'newSettlementStore' })).data).toMatchObject({
      path: 'services/payment/store.go',
      qualified_name: 'newSettlementStore',
      start_line: 36,
    });
    const namesakes = await expand(ws.shop, { name: 'RefundPayment' });
    expect(namesakes.isError).toBe(true);
    expect(namesakes.text).toContain('`services/payment/server.go:server.RefundPayment` (method, L34)');
  });

  it('lists the candidates when a name is ambiguous, and picks one by kind or line', async () => {
    const rust = 'services/inventory/src/stock.rs';
    expect(await expand(ws.shop, { path: rust, name: 'StockBook' })).toMatchObject({
      isError: true,
      text:
        '`StockBook` names 2 declarations in `services/inventory/src/stock.rs`: struct `StockBook` L12–15; impl `StockBook` L22–70. ' +
        'Pass `line` (or a qualified name, or `kind`) to pick one.',
    });
    expect((await expand(ws.shop, { path: rust, name: 'StockBook', kind: 'struct' })).data.start_line).toBe(
      12,
    );
    expect((await expand(ws.shop, { path: rust, name: 'StockBook', line: 30 })).data.kind).toBe('impl');
  });

  it('names the closest declarations for an unknown name and refuses an incomplete address', async () => {
    expect(await expand(ws.shop, { path: 'services/inventory/src/stock.rs', name: 'reserv' })).toMatchObject({
      isError: true,
      text:
        'No declaration named `reserv` in `services/inventory/src/stock.rs`. Closest: method `StockBook::reserve` L32–46; ' +
        'struct `Inner` L17–20; method `StockBook::release` L48–61; method `StockBook::level` L63–65; ' +
        'method `StockBook::seeded` L23–30. `code outline` lists them all.',
    });
    expect(await expand(ws.shop, { path: SERVER })).toMatchObject({
      isError: true,
      text: '`path` names a file: add `name` (e.g. "createOrder") or `line` to pick a declaration in it.',
    });
    expect(await expand(ws.shop, { symbol: `${SERVER}:x`, path: SERVER })).toMatchObject({
      isError: true,
      text: 'Give either `symbol` ("<path>:<name>") or `path` with `name` or `line`, not both.',
    });
    expect(await expand(ws.shop, {})).toMatchObject({
      isError: true,
      text: 'Name a declaration: `symbol` ("<path>:<name>", e.g. "services/payment/server.go:ProcessPayment") or `path` with `name` or `line`.',
    });
    expect(await expand(ws.shop, { path: SERVER, line: 3 })).toMatchObject({ isError: true });
    expect((await expand(ws.shop, { path: SERVER, line: 3 })).text).toMatch(
      /^No declaration spans line 3 of `services\/payment\/server.go`\./,
    );
  });

  it('masks secrets in the body', async () => {
    const answer = await expand(ws.lab, { symbol: 'app/config.ts:databaseUrl' });
    expect(answer.data.text).toBe(
      'export function databaseUrl(): string {\n  const url = "postgres://shop:[REDACTED_SECRET]@db:5432/shop";\n  return url;\n}',
    );
    expect(JSON.stringify(answer)).not.toContain(LAB_PASSWORD.probe);
  });

  it('pages a body larger than the page budget, with a note and next_offset null at the end', async () => {
    const pages: { from: number; to: number; next: number | null }[] = [];
    let offset: number | null = 0;
    let joined: string[] = [];
    while (offset !== null) {
      const answer = await expand(ws.lab, { symbol: 'app/long.ts:longBody', offset });
      const next = answer.data.next_offset as number | null;
      pages.push({
        from: answer.data.shown_start_line as number,
        to: answer.data.shown_end_line as number,
        next,
      });
      joined = [...joined, ...(answer.data.text as string).split('\n')];
      if (next !== null)
        expect(answer.text).toContain(
          `Showing L${answer.data.shown_start_line}–${answer.data.shown_end_line} of L1–${LONG_LINES}: the rest did not fit the page budget. More: \`offset: ${next}\`.`,
        );
      offset = next;
    }
    expect(pages.length).toBeGreaterThan(2);
    expect(pages[0]?.from).toBe(1);
    expect(pages.at(-1)).toMatchObject({ to: LONG_LINES, next: null });
    expect(joined).toHaveLength(LONG_LINES);
    expect(joined[LONG_LINES - 2]).toBe('  return total;');
  });

  it('says so when the file changed after it was indexed', async () => {
    appendFileSync(path.join(ws.lab.workspace as string, 'app', 'config.ts'), '\nexport const later = 1;\n');
    const body = await expand(ws.lab, { symbol: 'app/config.ts:databaseUrl' });
    expect(body.data.stale).toBe(true);
    expect(body.text).toContain(`> ${STALE_NOTE}`);
    const outline = await callTool(ws.lab, 'outline_file', { path: 'app/config.ts' });
    expect(outline.data.stale).toBe(true);
    expect(outline.text).toContain(`> ${STALE_NOTE}`);
  });
});
