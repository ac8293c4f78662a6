import { describe, expect, it } from 'vitest';
import { callTool, withShopAndLab, type IndexedClient } from '../helpers/indexed-client.js';

const ws = withShopAndLab();

const files = (on: IndexedClient, args: Record<string, unknown>) => callTool(on, 'find_files', args);

const listed = (data: Record<string, unknown>) =>
  (data.results as { path: string; match: string }[]).map((r) => `${r.match} ${r.path}`);

describe('find_files', () => {
  it('ranks exact file names, then name prefixes, then substrings of the path', async () => {
    const answer = await files(ws.shop, { query: 'order.service' });
    expect(listed(answer.data)).toEqual([
      'exact services/order-gateway/src/orders/order.service.ts',
      'prefix services/order-gateway/src/orders/order.service.spec.ts',
    ]);
    expect(listed((await files(ws.shop, { query: 'payment/s' })).data)).toEqual([
      // Equally good matches: the shorter path first.
      'substring services/payment/store.go',
      'substring services/payment/server.go',
      'substring services/payment/server_test.go',
    ]);
  });

  it('matches letters in order (fzf-style) without matching letters scattered over the path', async () => {
    const answer = await files(ws.shop, { query: 'ordsvc' });
    expect(listed(answer.data)).toEqual([
      'fuzzy services/order-gateway/src/orders/order.service.ts',
      'fuzzy services/order-gateway/src/orders/order.service.spec.ts',
    ]);
    expect(answer.data.by_match).toEqual({ exact: 0, prefix: 0, substring: 0, fuzzy: 2 });
  });

  it('filters by language, and refuses a language no file has with the ones present', async () => {
    expect(listed((await files(ws.shop, { query: 'store', language: 'go' })).data)).toEqual([
      'exact services/payment/store.go',
    ]);
    expect(listed((await files(ws.shop, { language: 'proto' })).data)).toEqual([
      'listed proto/checkout.proto',
      'listed proto/inventory.proto',
      'listed proto/payment.proto',
    ]);
    expect(await files(ws.shop, { query: 'x', language: 'golang' })).toMatchObject({
      isError: true,
      text:
        'No indexed file is in language `golang`. Languages in this workspace: `typescript` (11), `kotlin` (7), `go` (6), ' +
        '`java` (6), `python` (6), `rust` (6), `csharp` (5), `markdown` (5), `proto` (3), `spring` (2), `maven` (1), `yaml` (1).',
    });
  });

  it('pages every file with next_offset, null on the last page', async () => {
    const seen: string[] = [];
    let offset: number | null = 0;
    const offsets: (number | null)[] = [];
    while (offset !== null) {
      const answer = await files(ws.shop, { limit: 25, offset });
      expect(answer.data.total_files).toBe(59);
      seen.push(...(answer.data.results as { path: string }[]).map((r) => r.path));
      offset = answer.data.next_offset as number | null;
      offsets.push(offset);
    }
    expect(offsets).toEqual([25, 50, null]);
    expect(new Set(seen).size).toBe(59);
    expect(seen.slice(0, 2)).toEqual(['README.md', 'deploy/docker-compose.yml']);
    const past = await files(ws.shop, { limit: 25, offset: 60 });
    expect(past.text).toContain(
      'No files at `offset: 60`: there are 59 in total. Request `offset: 34` for the last ones.',
    );
  });

  it('puts generated files after hand-written ones, and names matching files that are not indexed', async () => {
    expect(listed((await files(ws.lab, { query: 'orders' })).data)).toEqual([
      'exact app/src/domain/orders.ts',
      'exact app/gen/orders.ts',
    ]);
    const minified = await files(ws.lab, { query: 'app.min' });
    expect(minified.data.total_files).toBe(0);
    expect(minified.data.not_indexed).toEqual([{ path: 'app/static/app.min.js', reason: 'long_line' }]);
    expect(minified.text).toContain('Exactly 0 indexed files match `app.min`.');
    expect(minified.text).toContain(
      '> 1 file(s) match but are not indexed: `app/static/app.min.js` (long line).',
    );
  });
});
