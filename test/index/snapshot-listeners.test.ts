/**
 * A server warms each snapshot as it is installed: the engine tells its listeners of the first snapshot and
 * of every reload's, and a listener that stopped hears no more.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { silentLogger } from '../../src/core/logger.js';
import { IndexEngine } from '../../src/index/engine.js';
import type { SnapshotHolder } from '../../src/index/snapshot-holder.js';
import { EXAMPLE } from '../helpers/workspace.js';

const temps: string[] = [];
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('snapshot listeners', () => {
  it('hear the first snapshot and each reload, until they stop', async () => {
    const workspace = mkdtempSync(path.join(os.tmpdir(), 'meshlens-snapshot-listeners-'));
    temps.push(workspace);
    cpSync(EXAMPLE, workspace, { recursive: true });
    const loaded = loadConfig({ cwd: workspace, workspaceDir: workspace, env: {} });
    const engine = new IndexEngine({ loaded, logger: silentLogger, threads: 0 });
    const heard: SnapshotHolder[] = [];
    const stop = engine.onSnapshot((snapshot) => heard.push(snapshot));
    try {
      await engine.indexAll();
      expect(heard).toEqual([engine.snapshot()]);
      const file = path.join(workspace, 'services/order-gateway/src/orders/probe.ts');
      writeFileSync(file, 'export const probe = 1;\n');
      await engine.reloadPaths([file]);
      expect(heard).toHaveLength(2);
      expect(heard[1]).toBe(engine.snapshot());
      expect(heard[1]?.generation).toBeGreaterThan(heard[0]?.generation ?? 0);
      stop();
      writeFileSync(file, 'export const probe = 2;\n');
      await engine.reloadPaths([file]);
      expect(heard).toHaveLength(2);
    } finally {
      await engine.close();
    }
  });
});
