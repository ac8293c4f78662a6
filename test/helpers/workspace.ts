import path from 'node:path';
import { docsSettingsOf } from '../../src/cli/compose.js';
import { loadConfig } from '../../src/core/config.js';
import { silentLogger } from '../../src/core/logger.js';
import { createPathJail } from '../../src/trust/path-jail.js';
import { Registry } from '../../src/core/registry.js';
import { IndexEngine } from '../../src/index/engine.js';
import { languageSpec } from '../../src/index/languages/registry.js';
import { parseDeclarations } from '../../src/index/parse/declarations.js';
import { OPERATIONS } from '../../src/ops/catalog.js';
import type { MeshServices } from '../../src/ops/services.js';

export const EXAMPLE = path.resolve(import.meta.dirname, '../../examples/polyglot-shop');

/** Indexes a workspace in-process (no cache, no workers) and returns a registry over it with every operation. */
export async function indexedRegistry(
  workspace: string = EXAMPLE,
): Promise<{ registry: Registry<MeshServices>; engine: IndexEngine }> {
  const loaded = loadConfig({ cwd: workspace, workspaceDir: workspace, env: {} });
  const engine = new IndexEngine({ loaded, logger: silentLogger, threads: 0 });
  await engine.indexAll();
  const registry = new Registry<MeshServices>({
    operations: OPERATIONS,
    services: { index: engine, languages: languageSpec, docs: docsSettingsOf(loaded), parseDeclarations },
    resolvePath: createPathJail({
      roots: loaded.roots,
      workspaceDir: loaded.baseDir,
      mountAliases: loaded.config.workspace.mount_aliases,
    }),
    readiness: () => engine.readiness(),
  });
  return { registry, engine };
}
