/**
 * A small indexed workspace behind a real SDK client, with its notes in a SQLite file of its own or in the
 * PostgreSQL test database: the registry is wired as the CLI wires it, the notes store opened on a clock the
 * test controls.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { silentLogger } from '../../../src/core/logger.js';
import { Registry } from '../../../src/core/registry.js';
import { languageSpec } from '../../../src/index/languages/registry.js';
import { OPERATIONS } from '../../../src/ops/catalog.js';
import type { MeshServices } from '../../../src/ops/services.js';
import { EMPTY_CATALOG, noteKeysOf } from '../../../src/server/catalog.js';
import { createPathJail } from '../../../src/trust/path-jail.js';
import { makeEngine, tempDir, writeFiles } from '../../helpers/engine.js';
import { connectClient, textOf } from '../../helpers/mcp.js';
import { sqliteBackend, type ClosableNotesStore, type NotesBackend } from '../../helpers/notes-backends.js';
import type { SurfaceKind } from '../../../src/server/surface.js';

export const REPO_TS = [
  'export class OrderRepo {',
  '  private readonly rows = new Map<string, string>();',
  '',
  '  save(id: string, row: string): void {',
  '    this.rows.set(id, row);',
  '  }',
  '',
  '  find(id: string): string | undefined {',
  '    return this.rows.get(id);',
  '  }',
  '}',
  '',
].join('\n');

export const PRICES_TS = [
  'export function priceOf(sku: string): number {',
  '  return sku.length * 100;',
  '}',
  '',
].join('\n');

/** A workspace with one root, `app`, holding a repository class, a price function and a legacy file. */
export function notesWorkspace(): string {
  const dir = tempDir('meshlens-notes-ws-');
  writeFiles(dir, {
    'meshlens.toml': '[workspace]\nroots = ["app"]\n',
    'app/order-repo.ts': REPO_TS,
    'app/prices.ts': PRICES_TS,
    'app/legacy.ts': 'export const LEGACY = true;\n',
  });
  return dir;
}

/** A clock that starts at 2026-01-01T00:00:00Z and moves one second on each reading. */
export function steppingClock(start = Date.UTC(2026, 0, 1)): () => Date {
  let tick = 0;
  return () => new Date(start + 1000 * tick++);
}

export interface MemoryClient {
  readonly client: Client;
  readonly store: ClosableNotesStore;
  readonly rescan: () => Promise<unknown>;
  close(): Promise<void>;
}

export interface MemoryClientOptions {
  readonly workspace: string;
  /** `MESHLENS_DATA_DIR`: where the notes file is (SQLite). */
  readonly dataDir: string;
  /** Where the notes are kept; SQLite by default. */
  readonly backend?: NotesBackend;
  /** The tenant the notes are kept for (PostgreSQL). */
  readonly tenant?: string;
  /** `MESHLENS_CACHE_DIR` of the fact cache; none by default. */
  readonly cacheDir?: string;
  readonly now?: () => Date;
  readonly surface?: SurfaceKind;
  /** The MCP client's name (`clientInfo.name`). */
  readonly clientName?: string;
}

/** Indexes the workspace and connects a client to a server whose notes live under `dataDir`. */
export async function openMemoryClient(options: MemoryClientOptions): Promise<MemoryClient> {
  const { engine, loaded } = makeEngine(options.workspace, { cacheDir: options.cacheDir ?? null });
  await engine.indexAll();
  const store = await (options.backend ?? sqliteBackend()).open({
    workspace: loaded.baseDir,
    dataDir: options.dataDir,
    ...(options.tenant ? { tenant: options.tenant } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const registry = new Registry<MeshServices>({
    operations: OPERATIONS,
    services: { index: engine, languages: languageSpec, notes: () => Promise.resolve(store) },
    logger: silentLogger,
    resolvePath: createPathJail({
      roots: loaded.roots,
      workspaceDir: loaded.baseDir,
      mountAliases: loaded.config.workspace.mount_aliases,
    }),
    readiness: () => engine.readiness(),
  });
  const client = await connectClient(registry, options.surface ?? 'flat', {
    structuredOutput: true,
    catalog: { ...EMPTY_CATALOG, noteKeys: noteKeysOf(() => Promise.resolve(store)) },
    ...(options.clientName ? { clientName: options.clientName } : {}),
  });
  return {
    client,
    store,
    rescan: () => engine.rescan({}),
    async close() {
      await client.close();
      await engine.close();
      await store.close();
    },
  };
}

export interface Answer {
  readonly text: string;
  readonly isError: boolean;
  readonly data: Record<string, unknown>;
}

export async function call(on: MemoryClient, name: string, args: Record<string, unknown>): Promise<Answer> {
  const result = await on.client.callTool({ name, arguments: args });
  return {
    text: textOf(result),
    isError: result.isError === true,
    data: (result.structuredContent ?? {}) as Record<string, unknown>,
  };
}
