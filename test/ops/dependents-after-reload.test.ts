/**
 * `find_dependents` looks imports and declarations up in an index built once and patched by each reload:
 * after files are edited, added and deleted, it answers exactly like a fresh index of the same tree.
 */
import { cpSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectClient, textOf } from '../helpers/mcp.js';
import { EXAMPLE, indexedRegistry } from '../helpers/workspace.js';

const temps: string[] = [];
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const ORDERS = 'services/order-gateway/src/orders';
const TARGETS = [
  'Order',
  'OrderService',
  'order.model',
  './order.model',
  '@nestjs/common',
  'rxjs',
  'AuditTrail',
];

function copyOfExample(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'meshlens-dependents-reload-'));
  temps.push(dir);
  cpSync(EXAMPLE, dir, { recursive: true });
  return dir;
}

/** Every target's answer, the per-call timing removed; `edit` runs after a first round built the index. */
async function answers(
  workspace: string,
  edit?: (reload: (paths: string[]) => Promise<void>) => Promise<void>,
) {
  const { registry, engine } = await indexedRegistry(workspace);
  const client = await connectClient(registry, 'flat');
  try {
    const ask = async () => {
      const out: Record<string, string> = {};
      for (const target of TARGETS) {
        const text = textOf(await client.callTool({ name: 'find_dependents', arguments: { target } }));
        out[target] = text.replace(/\d+(\.\d+)? ms/g, 'N ms');
      }
      return out;
    };
    await ask();
    await edit?.(async (paths) => {
      await engine.reloadPaths(paths.map((p) => path.join(workspace, p)));
      await ask();
    });
    return await ask();
  } finally {
    await client.close();
    await engine.close();
  }
}

function applyEdits(workspace: string): string[] {
  writeFileSync(
    path.join(workspace, ORDERS, 'audit.ts'),
    "import { Order } from './order.model';\nimport { map } from 'rxjs';\nexport class AuditTrail { record(o: Order) { return map(() => o); } }\n",
  );
  writeFileSync(
    path.join(workspace, ORDERS, 'audit-report.ts'),
    "import { AuditTrail } from './audit';\nexport const report = (t: AuditTrail) => t;\n",
  );
  unlinkSync(path.join(workspace, ORDERS, 'checkout.grpc-controller.ts'));
  return [`${ORDERS}/audit.ts`, `${ORDERS}/audit-report.ts`, `${ORDERS}/checkout.grpc-controller.ts`];
}

describe('find_dependents after incremental reloads', () => {
  it('answers exactly like a fresh index of the same tree after additions and a deletion', async () => {
    const patchedWorkspace = copyOfExample();
    const patched = await answers(patchedWorkspace, async (reload) => {
      await reload(applyEdits(patchedWorkspace));
    });
    const freshWorkspace = copyOfExample();
    applyEdits(freshWorkspace);
    const fresh = await answers(freshWorkspace);
    expect(patched).toEqual(fresh);
    // The edits are seen: the new importer of Order, and the new class's own dependent.
    expect(patched.Order).toContain(`${ORDERS}/audit.ts`);
    expect(patched.AuditTrail).toContain(`${ORDERS}/audit-report.ts`);
    expect(patched.Order).not.toContain('checkout.grpc-controller.ts');
  });
});
