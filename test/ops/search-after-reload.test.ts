import { cpSync, mkdtempSync, rmSync, unlinkSync, writeFileSync, appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectClient, textOf } from '../helpers/mcp.js';
import { EXAMPLE, indexedRegistry } from '../helpers/workspace.js';

const temps: string[] = [];
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function copyOfExample(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'meshlens-search-reload-'));
  temps.push(dir);
  cpSync(EXAMPLE, dir, { recursive: true });
  return dir;
}

const QUERIES = ['Order', 'order', 'Invoice', 'PlaceOrder', 'handler', 'Reserve', 'created', 'Probe', 'Zeta'];

/** Every query's Markdown answer, with the per-call timing line removed. */
async function answers(
  workspace: string,
  prepare?: (reload: (paths: string[], query?: boolean) => Promise<void>) => Promise<void>,
) {
  const { registry, engine } = await indexedRegistry(workspace);
  const client = await connectClient(registry, 'flat');
  try {
    const ask = async () => {
      const out: Record<string, string> = {};
      for (const query of QUERIES) {
        const text = textOf(await client.callTool({ name: 'smart_search', arguments: { query, limit: 50 } }));
        out[query] = text.replace(/\d+(\.\d+)? ms/g, 'N ms');
      }
      return out;
    };
    // Build the symbol index first, so the reloads below patch it instead of building a fresh one.
    await ask();
    await prepare?.(async (paths, query = false) => {
      await engine.reloadPaths(paths.map((p) => path.join(workspace, p)));
      // Some reloads are searched right away (the index is patched from the one before), some are not
      // (the next search patches across several reloads at once).
      if (query) await ask();
    });
    return { answers: await ask(), generation: engine.status().generation };
  } finally {
    await client.close();
    await engine.close();
  }
}

describe('smart_search after incremental reloads', () => {
  it('answers exactly like a fresh index of the same tree after edits, additions, renames and deletions', async () => {
    const workspace = copyOfExample();
    const orders = 'services/order-gateway/src/orders';
    const patched = await answers(workspace, async (reload) => {
      appendFileSync(path.join(workspace, orders, 'order.model.ts'), '\nexport class ProbeOrderAudit {}\n');
      writeFileSync(path.join(workspace, orders, 'zeta.ts'), 'export function zetaOrderHandler() {}\n');
      await reload([`${orders}/order.model.ts`, `${orders}/zeta.ts`], true);
      // The same name declared twice in one file, then the file renamed away and one declaration dropped.
      writeFileSync(
        path.join(workspace, orders, 'zeta2.ts'),
        'export function zetaOrderHandler() {}\nexport const ZetaOrder = 1;\n',
      );
      unlinkSync(path.join(workspace, orders, 'zeta.ts'));
      await reload([`${orders}/zeta.ts`, `${orders}/zeta2.ts`]);
      writeFileSync(path.join(workspace, orders, 'zeta2.ts'), 'export const ZetaOrder = 2;\n');
      await reload([`${orders}/zeta2.ts`]);
    });
    const fresh = await answers(workspace);
    expect(patched.answers).toEqual(fresh.answers);
    expect(patched.answers.Probe).toContain('ProbeOrderAudit');
    expect(patched.answers.Zeta).toContain('zeta2.ts');
    expect(patched.answers.Zeta).not.toContain('zetaOrderHandler');
    expect(patched.generation).toBe(4);
  });
});
