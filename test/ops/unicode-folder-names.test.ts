import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectClient, textOf } from '../helpers/mcp.js';
import { indexedRegistry } from '../helpers/workspace.js';

const temps: string[] = [];
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const CAFE_NFC = 'caf\u00e9';
const CAFE_NFD = 'cafe\u0301';

describe('a folder whose name is stored in NFD', () => {
  it('is a root, a scope and a rescan path in either spelling', async () => {
    const ws = mkdtempSync(path.join(os.tmpdir(), 'meshlens-nfd-'));
    temps.push(ws);
    // As macOS tools and some archives write it: `é` as `e` + U+0301.
    mkdirSync(path.join(ws, 'services', CAFE_NFD, 'src'), { recursive: true });
    writeFileSync(path.join(ws, 'services', CAFE_NFD, 'src', 'menu.ts'), 'export function brewCoffee() {}\n');
    // The config names it as a keyboard types it.
    writeFileSync(path.join(ws, 'meshlens.toml'), `[workspace]\nroots = ["services/${CAFE_NFC}"]\n`);
    const onDisk = readdirSync(path.join(ws, 'services'));
    // Where names are compared byte for byte (Linux), the disk holds the NFD spelling only.
    expect(onDisk.map((name) => name.normalize('NFC'))).toEqual([CAFE_NFC]);

    const { registry, engine } = await indexedRegistry(ws);
    const client = await connectClient(registry, 'flat');
    try {
      expect(engine.status().files).toBe(1);
      for (const cafe of [CAFE_NFC, CAFE_NFD]) {
        for (const scope of [`services/${cafe}`, `services/${cafe}/src/menu.ts`]) {
          const result = await client.callTool({
            name: 'smart_search',
            arguments: { query: 'brewCoffee', scope },
          });
          expect(result.isError, `${scope}: ${textOf(result)}`).toBeFalsy();
          expect(textOf(result)).toContain('function `brewCoffee` L1');
        }
        const rescan = await client.callTool({
          name: 'rescan',
          arguments: { path: `services/${cafe}/src/menu.ts` },
        });
        expect(rescan.isError, textOf(rescan)).toBeFalsy();
        expect(engine.status().files).toBe(1);
      }
    } finally {
      await client.close();
      await engine.close();
    }
  });
});
