/**
 * `meshlens doctor` checks of what meshlens keeps on disk (the fact cache, other caches of this workspace,
 * the audit log) and of the index itself. Only these may change anything, and only with `--fix`: the
 * cache of this workspace and stale caches whose marker names this workspace. Never another project's cache,
 * never the audit log.
 */
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { LoadedConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { languageOf, languageSpec } from '../index/languages/registry.js';
import type { RejectReason } from '../index/reader.js';
import type { Snapshot } from '../index/snapshot.js';
import { verifyAuditLog } from '../store/audit-log.js';
import { cacheRoot } from '../store/cache-paths.js';
import { inspectCache } from '../store/fact-cache-db.js';
import {
  cacheDirFor,
  canonicalWorkspacePath,
  removeCacheDir,
  workspaceIdOf,
} from '../store/fact-cache-folder.js';
import { check, type DoctorCheck } from './doctor-checks.js';
import { LazyIndex } from './lazy-index.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The fact cache's database file inside its folder (fact-cache.ts keeps the name private). */
const CACHE_DB_FILE = 'facts.db';
/** The marker each cache folder holds: the canonical path of the workspace it belongs to. */
const MARKER_FILE = 'workspace_path';
/** How many rejected paths the index check names. */
const REJECTED_SHOWN = 10;
/** Rejections that mean something went wrong, as opposed to the guard leaving out what it should. */
const TROUBLE: ReadonlySet<RejectReason> = new Set(['unreadable', 'parse_failed', 'parse_timeout']);

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export interface CacheCheckResult {
  readonly check: DoctorCheck;
  /** The cache is damaged and was left alone: the index run must not open it (opening it would rebuild it). */
  readonly leaveAlone: boolean;
}

export function cacheCheck(loaded: LoadedConfig, fix: boolean, env: Env): CacheCheckResult {
  if (!loaded.config.cache.enabled)
    return { check: check('cache', 'ok', 'disabled in [cache]'), leaveAlone: false };
  const dir = cacheDirFor(loaded.baseDir, env);
  const dbPath = path.join(dir, CACHE_DB_FILE);
  if (!existsSync(dbPath)) return { check: check('cache', 'ok', `no cache yet (${dir})`), leaveAlone: false };
  const inspected = inspectCache(dbPath);
  if (inspected.ok)
    return {
      check: check('cache', 'ok', `${inspected.entries} cached file(s) in ${dbPath}`),
      leaveAlone: false,
    };
  if (!fix) {
    return {
      check: check(
        'cache',
        'error',
        `${dbPath} is corrupt (${inspected.reason}); \`meshlens doctor --fix\` removes it and re-indexes`,
      ),
      leaveAlone: true,
    };
  }
  try {
    const removed = removeCacheDir(loaded.baseDir, env);
    return {
      check: check(
        'cache',
        'ok',
        `was corrupt (${inspected.reason}); removed ${removed.path} and re-indexed`,
        true,
      ),
      leaveAlone: false,
    };
  } catch (error) {
    return {
      check: check(
        'cache',
        'error',
        `${dbPath} is corrupt and could not be removed: ${errorText(error)}`,
        false,
      ),
      leaveAlone: true,
    };
  }
}

/**
 * Cache folders whose marker names this workspace but whose id is not this workspace's (left by an earlier
 * id scheme or path spelling). A folder whose marker names another path belongs to another project and is
 * never touched, nor is a folder without a readable marker.
 */
export function orphanedCacheCheck(loaded: LoadedConfig, fix: boolean, env: Env): DoctorCheck {
  const workspace = canonicalWorkspacePath(loaded.baseDir);
  const ownId = workspaceIdOf(workspace);
  const parent = path.join(cacheRoot(env), 'workspaces');
  let names: string[];
  try {
    names = readdirSync(parent, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return check('orphaned caches', 'ok', 'no cache folder yet');
  }
  const stale = names.filter((name) => {
    if (name === ownId) return false;
    try {
      return readFileSync(path.join(parent, name, MARKER_FILE), 'utf8') === workspace;
    } catch {
      return false;
    }
  });
  if (stale.length === 0) return check('orphaned caches', 'ok', 'no stale cache folder of this workspace');
  if (!fix) {
    return check(
      'orphaned caches',
      'warn',
      `${stale.length} stale cache folder(s) of this workspace in ${parent}: ${stale.join(', ')}; \`meshlens doctor --fix\` removes them`,
    );
  }
  const failed: string[] = [];
  for (const name of stale) {
    try {
      rmSync(path.join(parent, name), { recursive: true, force: true });
    } catch (error) {
      failed.push(`${name} (${errorText(error)})`);
    }
  }
  if (failed.length > 0)
    return check('orphaned caches', 'warn', `could not remove: ${failed.join(', ')}`, false);
  return check(
    'orphaned caches',
    'ok',
    `removed ${stale.length} stale cache folder(s) of this workspace: ${stale.join(', ')}`,
    true,
  );
}

export function auditCheck(dbPath: string, fix: boolean): DoctorCheck {
  if (!existsSync(dbPath)) return check('audit log', 'ok', `no audit log yet (${dbPath})`);
  const result = verifyAuditLog(dbPath);
  if (result.ok) return check('audit log', 'ok', `${result.rows} row(s), hash chain intact (${dbPath})`);
  const where = result.firstBrokenRow > 0 ? ` at row ${result.firstBrokenRow}` : '';
  // The log is evidence: repairing it would hide what happened, so --fix leaves it as it is.
  return check(
    'audit log',
    'error',
    `hash chain broken${where}: ${result.reason} (${dbPath}); --fix never touches the audit log — move it aside to start a new one`,
    ...(fix ? [false] : []),
  );
}

export interface IndexCheckResult {
  readonly check: DoctorCheck;
  readonly snapshot: Snapshot | undefined;
}

const sourceLike = (relativePath: string): boolean => {
  const spec = languageSpec(languageOf(relativePath));
  return spec !== undefined && spec.prose !== true;
};

/** One index run, like `meshlens index`: files indexed, rejections by reason, the first rejected source files. */
export async function indexCheck(
  loaded: LoadedConfig,
  logger: Logger,
  withoutCache: boolean,
): Promise<IndexCheckResult> {
  // A damaged cache left alone must not be opened: opening it rebuilds it, which is --fix's decision.
  const forIndex: LoadedConfig = withoutCache
    ? { ...loaded, config: { ...loaded.config, cache: { ...loaded.config.cache, enabled: false } } }
    : loaded;
  const index = new LazyIndex(forIndex, logger);
  try {
    await index.start({ watch: false });
    const status = index.status();
    const snapshot = index.snapshot();
    const byReason = new Map<string, number>();
    for (const rejected of status.rejected)
      byReason.set(rejected.reason, (byReason.get(rejected.reason) ?? 0) + 1);
    const reasons = [...byReason].sort(([a], [b]) => (a < b ? -1 : 1)).map(([reason, n]) => `${reason} ${n}`);
    const shown = status.rejected
      .filter((r) => sourceLike(r.path))
      .slice(0, REJECTED_SHOWN)
      .map((r) => `${r.root === '.' ? '' : `${r.root}/`}${r.path} (${r.reason})`);
    let message = `${status.files} file(s) indexed in ${status.roots.length} root(s)`;
    if (status.noGrammar > 0) message += ` (${status.noGrammar} without a grammar)`;
    message +=
      status.rejected.length > 0
        ? `; ${status.rejected.length} rejected: ${reasons.join(', ')}`
        : '; none rejected';
    if (shown.length > 0) message += `; first rejected source files: ${shown.join(', ')}`;
    if (withoutCache) message += ' (indexed without the damaged cache)';
    const troubled = status.rejected.some((r) => TROUBLE.has(r.reason) && sourceLike(r.path));
    const severity = status.files === 0 || troubled ? 'warn' : 'ok';
    if (status.files === 0)
      message = `no file indexed — check [workspace] roots (relative to ${loaded.baseDir}); ${message}`;
    return { check: check('index health', severity, message), snapshot };
  } catch (error) {
    return {
      check: check('index health', 'error', `indexing failed: ${errorText(error)}`),
      snapshot: undefined,
    };
  } finally {
    await index.close().catch(() => undefined);
  }
}
