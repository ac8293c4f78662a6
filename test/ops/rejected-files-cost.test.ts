import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectClient, textOf } from '../helpers/mcp.js';
import { indexedRegistry } from '../helpers/workspace.js';

const temps: string[] = [];
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const HUGE_BYTES = 200 * 1024 * 1024;

/** Writes `text` into the middle of a file without changing its size. */
function plant(file: string, text: string): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, text, HUGE_BYTES / 2);
  } finally {
    closeSync(fd);
  }
}

describe('a file rejected for its size', () => {
  it('is never read again by a query: what it holds after its rejection changes no answer', async () => {
    const ws = mkdtempSync(path.join(os.tmpdir(), 'meshlens-rejected-cost-'));
    temps.push(ws);
    mkdirSync(path.join(ws, 'svc'));
    writeFileSync(path.join(ws, 'svc', 'orders.ts'), 'export function placeOrder() {}\n');
    // A minified bundle: rejected for its content, small enough that a query still looks inside it.
    const bundle = `var a=${'1+'.repeat(700)}1;function placeOrderMin(){return a}\n`;
    writeFileSync(path.join(ws, 'svc', 'bundle.min.js'), bundle);
    // 200 MB without writing 200 MB: a sparse file of zeros.
    const huge = path.join(ws, 'svc', 'huge.ts');
    writeFileSync(huge, '');
    truncateSync(huge, HUGE_BYTES);

    const { registry, engine } = await indexedRegistry(ws);
    const client = await connectClient(registry, 'flat');
    try {
      expect(engine.status().rejected.map((r) => [r.path, r.reason, r.size])).toEqual([
        ['svc/bundle.min.js', 'long_line', bundle.length],
        ['svc/huge.ts', 'oversized', HUGE_BYTES],
      ]);
      // Had a query read the rejected file, it would now find the name in it.
      plant(huge, 'export function placeOrderHidden() {}\n');
      const answer = textOf(
        await client.callTool({ name: 'smart_search', arguments: { query: 'placeOrder' } }),
      );
      expect(answer).toContain(
        '\n> 1 file(s) in scope contain the query but are not indexed (minified, oversized, binary or ' +
          'unparsable); read them directly:\n' +
          `> - \`svc/bundle.min.js\` (long_line, ${bundle.length} B)\n` +
          '\n> 1 file(s) in scope were not searched (too large, or a path the system cannot open); the query ' +
          'may be in them:\n' +
          `> - \`svc/huge.ts\` (oversized, ${HUGE_BYTES} B)\n`,
      );
      const elsewhere = textOf(
        await client.callTool({ name: 'smart_search', arguments: { query: 'placeOrderHidden' } }),
      );
      expect(elsewhere).not.toContain('contain the query but are not indexed');
      expect(elsewhere).toContain(`> - \`svc/huge.ts\` (oversized, ${HUGE_BYTES} B)\n`);
    } finally {
      await client.close();
      await engine.close();
    }
  });
});
