import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { build } from 'esbuild';
import { afterAll, describe, expect, test } from 'vitest';
import type { FileFacts } from '../../src/index/facts.js';
import { cacheRoot } from '../../src/store/cache-paths.js';
import { type CachedOutcome, FactCache, factKey } from '../../src/store/fact-cache.js';
import { inspectCache } from '../../src/store/fact-cache-db.js';
import { cacheDirFor, removeCacheDir, workspaceIdOf } from '../../src/store/fact-cache-folder.js';

// Every cache and workspace lives under one temp folder: the user's ~/.cache is never touched.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'meshlens-fact-cache-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
let serial = 0;

/** A fresh workspace folder and an environment whose cache root is a fresh temp folder. */
function setup(): { workspacePath: string; env: Record<string, string> } {
  const base = path.join(scratch, `case-${++serial}`);
  const workspacePath = path.join(base, 'workspace');
  fs.mkdirSync(workspacePath, { recursive: true });
  return { workspacePath, env: { MESHLENS_CACHE_DIR: path.join(base, 'cache') } };
}

function recordingLogger(): { warn(obj: object, msg: string): void; messages: string[] } {
  const messages: string[] = [];
  return { messages, warn: (_obj, msg) => void messages.push(msg) };
}

const keyOf = (relPath: string, contentHash = 'h1'): string =>
  factKey({ extractionVersion: 'x1', root: 'svc', relPath, contentHash, configFingerprint: 'cfg' });

/** Facts of about `bytes` bytes of incompressible text, so that sizes on disk are predictable. */
function factsOf(name: string, bytes = 64): FileFacts {
  return {
    language: 'typescript',
    package: 'shop.checkout',
    symbols: [
      {
        id: 0,
        kind: 'class',
        name,
        qualifiedName: `shop.${name}`,
        signature: `export class ${name}`,
        startLine: 1,
        endLine: 40,
        docstring: randomBytes(Math.ceil((bytes * 3) / 4)).toString('base64'),
        decorators: ['@Injectable()'],
        exported: true,
      },
      {
        id: 1,
        kind: 'method',
        name: 'run',
        qualifiedName: `shop.${name}.run`,
        startLine: 3,
        endLine: 9,
        parent: 0,
      },
    ],
    imports: [{ source: '@shop/contracts', names: ['Order'], line: 1 }],
    contracts: [
      {
        kind: 'topic_producer',
        topic: 'orders.created',
        symbol: 1,
        line: 5,
        confidence: 'exact',
        via: 'kafkajs send',
      },
    ],
  };
}

const entry = (relPath: string, bytes?: number): { key: string; outcome: CachedOutcome } => ({
  key: keyOf(relPath),
  outcome: { kind: 'parsed', facts: factsOf(relPath.replace(/\W/g, '_'), bytes) },
});

describe('locations and keys', () => {
  test('cache root precedence: MESHLENS_CACHE_DIR, then XDG_CACHE_HOME, then ~/.cache', () => {
    expect(cacheRoot({ MESHLENS_CACHE_DIR: '/a/b', XDG_CACHE_HOME: '/x' })).toBe(path.resolve('/a/b'));
    expect(cacheRoot({ XDG_CACHE_HOME: '/x', HOME: '/home/u' })).toBe(path.join('/x', 'meshlens'));
    expect(cacheRoot({ XDG_CACHE_HOME: 'relative', HOME: '/home/u' })).toBe(
      path.join('/home/u', '.cache', 'meshlens'),
    );
    expect(cacheRoot({ HOME: '/home/u' })).toBe(path.join('/home/u', '.cache', 'meshlens'));
  });

  test('workspace id is 16 hex chars of SHA-256 of the canonical path', () => {
    expect(workspaceIdOf('/repo/shop')).toMatch(/^[0-9a-f]{16}$/);
    expect(workspaceIdOf('/repo/shop')).not.toBe(workspaceIdOf('/repo/shop2'));
    const { workspacePath, env } = setup();
    const link = `${workspacePath}-link`;
    fs.symlinkSync(workspacePath, link);
    expect(cacheDirFor(link, env)).toBe(cacheDirFor(workspacePath, env));
  });

  test('factKey changes with every part and is stable', () => {
    const parts = {
      extractionVersion: 'x1',
      root: 'svc',
      relPath: 'a.ts',
      contentHash: 'h',
      configFingerprint: 'c',
    };
    const base = factKey(parts);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(factKey({ ...parts })).toBe(base);
    for (const field of Object.keys(parts) as (keyof typeof parts)[]) {
      expect(factKey({ ...parts, [field]: `${parts[field]}'` })).not.toBe(base);
    }
    // Framing: moving a character from one field to the next must change the key.
    expect(factKey({ ...parts, root: 'sv', relPath: 'ca.ts' })).not.toBe(factKey(parts));
  });
});

describe('FactCache', () => {
  test('round trip of facts and outcome kinds; hits and misses counted; survives reopen', () => {
    const { workspacePath, env } = setup();
    const cache = FactCache.open({ workspacePath, env });
    expect(cache.disabled).toBe(false);
    expect(cache.warning).toBeUndefined();
    const parsed = entry('src/orders.ts', 2000);
    const tiny: CachedOutcome = {
      kind: 'no-grammar',
      facts: { language: 'yaml', symbols: [], imports: [], contracts: [] },
    };
    cache.putMany([parsed, { key: keyOf('deploy.yaml'), outcome: tiny }]);

    const missing = keyOf('src/unknown.ts');
    const got = cache.getMany([parsed.key, keyOf('deploy.yaml'), missing]);
    expect(got.get(parsed.key)).toEqual(parsed.outcome);
    expect(got.get(keyOf('deploy.yaml'))).toEqual(tiny);
    expect(got.has(missing)).toBe(false);
    expect(cache.stats()).toMatchObject({ entries: 2, hits: 2, misses: 1, errors: 0 });
    cache.close();

    const again = FactCache.open({ workspacePath, env });
    expect(again.getMany([parsed.key]).get(parsed.key)).toEqual(parsed.outcome);
    expect(again.stats()).toMatchObject({ entries: 2, hits: 1, misses: 0 });
    // A changed content hash is a different key: a miss, not stale facts.
    expect(again.getMany([keyOf('src/orders.ts', 'h2')]).size).toBe(0);
    again.close();
    expect(fs.readFileSync(path.join(cacheDirFor(workspacePath, env), 'workspace_path'), 'utf8')).toBe(
      fs.realpathSync(workspacePath),
    );
  });

  test('a lookup of most entries (read in one pass) returns exactly the requested ones that exist', () => {
    const { workspacePath, env } = setup();
    const cache = FactCache.open({ workspacePath, env });
    const stored = Array.from({ length: 2_000 }, (_, i) => entry(`src/f${i}.ts`));
    cache.putMany(stored);
    const requested = stored.slice(0, 1_500).map((e) => e.key);
    const unknown = Array.from({ length: 10 }, (_, i) => keyOf(`src/unknown${i}.ts`));
    const got = cache.getMany([...requested, ...unknown]);
    expect([...got.keys()].sort()).toEqual([...requested].sort());
    expect(got.get(stored[7]!.key)).toEqual(stored[7]!.outcome);
    expect(cache.stats()).toMatchObject({ hits: 1_500, misses: 10 });
    cache.close();
  });

  test('a warm start of 150,000 files reads them all in one call', () => {
    const { workspacePath, env } = setup();
    const cache = FactCache.open({ workspacePath, env });
    const tiny: CachedOutcome = {
      kind: 'no-grammar',
      facts: { language: 'yaml', symbols: [], imports: [], contracts: [] },
    };
    const keys = Array.from({ length: 150_000 }, (_, i) => keyOf(`deploy/${i}.yaml`));
    cache.putMany(keys.map((key) => ({ key, outcome: tiny })));
    // More keys than a spread call can pass as arguments: recording their recency must not overflow.
    expect(cache.getMany(keys).size).toBe(150_000);
    expect(cache.stats()).toMatchObject({ entries: 150_000, hits: 150_000, misses: 0, errors: 0 });
    cache.close();
  }, 60_000);

  test.skipIf(process.platform === 'win32')('folders are 0700, database files 0600', () => {
    const { workspacePath, env } = setup();
    const cache = FactCache.open({ workspacePath, env });
    cache.putMany([entry('a.ts')]);
    const mode = (file: string): number => fs.statSync(file).mode & 0o777;
    const dir = cacheDirFor(workspacePath, env);
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.dirname(dir))).toBe(0o700);
    for (const suffix of ['', '-wal', '-shm']) expect(mode(`${cache.path}${suffix}`)).toBe(0o600);
    expect(mode(path.join(dir, 'workspace_path'))).toBe(0o600);
    cache.close();
  });

  test('a corrupt database is reported, rebuilt and works', () => {
    const { workspacePath, env } = setup();
    const first = FactCache.open({ workspacePath, env });
    first.putMany([entry('a.ts')]);
    first.close();
    fs.writeFileSync(first.path, randomBytes(64 * 1024));

    const logger = recordingLogger();
    const cache = FactCache.open({ workspacePath, env, logger });
    expect(cache.disabled).toBe(false);
    expect(cache.warning).toMatch(/corrupt.*rebuilt/);
    expect(logger.messages.some((message) => message.includes('corrupt'))).toBe(true);
    expect(cache.getMany([keyOf('a.ts')]).size).toBe(0);
    cache.putMany([entry('b.ts')]);
    expect(cache.getMany([keyOf('b.ts')]).size).toBe(1);
    expect(cache.stats().errors).toBe(0);
    cache.close();
    expect(inspectCache(cache.path)).toEqual({ ok: true, entries: 1 });
  });

  test('damage found while running disables the cache at once and the next open rebuilds it', () => {
    const { workspacePath, env } = setup();
    const entries = Array.from({ length: 300 }, (_, i) => entry(`f${i}.ts`, 1500));
    const first = FactCache.open({ workspacePath, env });
    first.putMany(entries);
    first.close();
    // Overwrite data pages near the end but keep the header and schema intact, so open() succeeds.
    const size = fs.statSync(first.path).size;
    const fd = fs.openSync(first.path, 'r+');
    fs.writeSync(fd, Buffer.alloc(10 * 8192, 0xab), 0, 10 * 8192, size - 12 * 8192);
    fs.closeSync(fd);
    expect(inspectCache(first.path).ok).toBe(false);

    const logger = recordingLogger();
    const damaged = FactCache.open({ workspacePath, env, logger });
    expect(() => damaged.getMany(entries.map((e) => e.key))).not.toThrow();
    expect(damaged.disabled).toBe(true);
    expect(damaged.stats().errors).toBeGreaterThan(0);
    expect(() => damaged.putMany([entry('late.ts')])).not.toThrow();
    damaged.close();

    const rebuilt = FactCache.open({ workspacePath, env });
    expect(rebuilt.warning).toMatch(/corrupt/);
    rebuilt.putMany([entry('x.ts')]);
    expect(rebuilt.getMany([keyOf('x.ts')]).size).toBe(1);
    rebuilt.close();
    expect(inspectCache(rebuilt.path)).toEqual({ ok: true, entries: 1 });
  });

  test('an unopenable location gives a disabled cache that never throws', () => {
    const { workspacePath } = setup();
    const notADir = path.join(scratch, `file-${++serial}`);
    fs.writeFileSync(notADir, 'x');
    const logger = recordingLogger();
    const cache = FactCache.open({ workspacePath, env: { MESHLENS_CACHE_DIR: notADir }, logger });
    expect(cache.disabled).toBe(true);
    expect(cache.warning).toMatch(/disabled/);
    expect(logger.messages).toHaveLength(1);
    cache.putMany([entry('a.ts')]);
    expect(cache.getMany([keyOf('a.ts')]).size).toBe(0);
    expect(cache.enforceQuota()).toBe(0);
    expect(cache.stats()).toMatchObject({ entries: 0, hits: 0, misses: 1 });
    cache.close();
  });

  test('a database path that cannot be opened is not deleted: disabled instead', () => {
    const { workspacePath, env } = setup();
    // A folder where the file should be: not corruption, so nothing may be removed.
    fs.mkdirSync(path.join(cacheDirFor(workspacePath, env), 'facts.db'), { recursive: true });
    const cache = FactCache.open({ workspacePath, env });
    expect(cache.disabled).toBe(true);
    expect(fs.statSync(cache.path).isDirectory()).toBe(true);
  });

  test('a cache written by another schema version starts over', () => {
    const { workspacePath, env } = setup();
    const first = FactCache.open({ workspacePath, env });
    first.putMany([entry('a.ts')]);
    first.close();
    const raw = new Database(first.path);
    raw.prepare("UPDATE meta SET value = 999 WHERE key = 'schema_version'").run();
    raw.close();
    const cache = FactCache.open({ workspacePath, env });
    expect(cache.stats().entries).toBe(0);
    cache.putMany([entry('b.ts')]);
    expect(cache.getMany([keyOf('b.ts')]).size).toBe(1);
    cache.close();
  });

  test('quota: size stays under it, recently used entries survive, old ones go', () => {
    const { workspacePath, env } = setup();
    const quota = 1024 * 1024;
    const cache = FactCache.open({ workspacePath, env, maxSizeMb: 1 });
    const hot = Array.from({ length: 20 }, (_, i) => entry(`hot/${i}.ts`, 2000));
    cache.putMany(hot);
    const runs = 30;
    let evicted = 0;
    for (let run = 0; run < runs; run++) {
      expect(cache.getMany(hot.map((e) => e.key)).size).toBe(hot.length);
      cache.putMany(Array.from({ length: 60 }, (_, i) => entry(`run${run}/${i}.ts`, 2000)));
      evicted += cache.enforceQuota();
      expect(cache.stats().bytes).toBeLessThanOrEqual(quota);
    }
    const stats = cache.stats();
    expect(evicted).toBeGreaterThan(runs * 60 - 600);
    expect(stats).toMatchObject({ evicted, errors: 0 });
    expect(stats.entries).toBeGreaterThan(100);
    const oldest = Array.from({ length: 60 }, (_, i) => keyOf(`run0/${i}.ts`));
    const newest = Array.from({ length: 60 }, (_, i) => keyOf(`run${runs - 1}/${i}.ts`));
    expect(cache.getMany(oldest).size).toBe(0);
    expect(cache.getMany(newest).size).toBe(60);
    expect(cache.getMany(hot.map((e) => e.key)).size).toBe(hot.length);
    cache.close();
    expect(fs.statSync(cache.path).size).toBeLessThanOrEqual(quota);
  });

  test('being slightly over the quota evicts only the excess, oldest first', () => {
    const { workspacePath, env } = setup();
    const first = FactCache.open({ workspacePath, env, maxSizeMb: 100 });
    const all = Array.from({ length: 400 }, (_, i) => entry(`f${i}.ts`, 2000));
    for (let i = 0; i < all.length; i += 50) first.putMany(all.slice(i, i + 50));
    first.close();
    const size = fs.statSync(first.path).size;

    // 3 % over the quota: eviction must go down to 80 % of it, not wipe the cache.
    const cache = FactCache.open({ workspacePath, env, maxSizeMb: (size * 0.97) / (1024 * 1024) });
    const { entries, evicted, bytes } = cache.stats();
    expect(evicted).toBeGreaterThan(0);
    expect(entries + evicted).toBe(all.length);
    expect(entries).toBeGreaterThan(all.length * 0.7);
    expect(bytes).toBeLessThanOrEqual(size * 0.97);
    expect(cache.getMany(all.slice(0, evicted).map((e) => e.key)).size).toBe(0);
    expect(cache.getMany(all.slice(evicted).map((e) => e.key)).size).toBe(entries);
    expect(cache.enforceQuota()).toBe(0);
    cache.close();
  });

  test('two instances on one file interleave reads and writes', () => {
    const { workspacePath, env } = setup();
    const a = FactCache.open({ workspacePath, env });
    const b = FactCache.open({ workspacePath, env });
    expect(b.path).toBe(a.path);
    for (let round = 0; round < 20; round++) {
      a.putMany([entry(`a${round}.ts`)]);
      b.putMany([entry(`b${round}.ts`)]);
      expect(b.getMany([keyOf(`a${round}.ts`)]).size).toBe(1);
      expect(a.getMany([keyOf(`b${round}.ts`)]).size).toBe(1);
    }
    expect(a.stats().errors + b.stats().errors).toBe(0);
    a.close();
    b.close();
  });

  test('two processes writing the same cache concurrently neither throw nor lose entries', async () => {
    const { workspacePath, env } = setup();
    const bundle = await bundleForWorkers();
    const driver = path.join(path.dirname(bundle), 'driver.mjs');
    fs.writeFileSync(
      driver,
      `import { FactCache, factKey } from ${JSON.stringify(pathToFileURL(bundle).href)};
const { workspacePath, env, name } = JSON.parse(process.argv[2]);
const cache = FactCache.open({ workspacePath, env });
const keys = [];
for (let round = 0; round < 40; round++) {
  const entries = [];
  for (let i = 0; i < 25; i++) {
    const key = factKey({ extractionVersion: 'x1', root: name, relPath: round + '/' + i, contentHash: 'h', configFingerprint: 'c' });
    keys.push(key);
    entries.push({ key, outcome: { kind: 'parsed', facts: { language: 'go', symbols: [], imports: [], contracts: [{ kind: 'saga', name: 'x'.repeat(500), line: i, via: name }] } } });
  }
  cache.putMany(entries);
  if (cache.getMany(keys).size !== keys.length) throw new Error('lost an entry');
  cache.enforceQuota();
}
const stats = cache.stats();
cache.close();
process.send(stats);
`,
    );
    const run = (name: string): Promise<{ errors: number }> =>
      new Promise((resolve, reject) => {
        const child = fork(driver, [JSON.stringify({ workspacePath, env, name })], { stdio: 'inherit' });
        child.once('message', (stats) => resolve(stats as { errors: number }));
        child.once('error', reject);
        child.once('exit', (code) =>
          code === 0 ? undefined : reject(new Error(`${name} exited with ${code}`)),
        );
      });
    const results = await Promise.all([run('one'), run('two')]);
    for (const result of results) expect(result).toMatchObject({ errors: 0 });
    const cache = FactCache.open({ workspacePath, env });
    expect(cache.stats().entries).toBe(2 * 40 * 25);
    cache.close();
  });
});

describe('doctor helpers', () => {
  test('inspectCache reports entries, a missing file and garbage', () => {
    const { workspacePath, env } = setup();
    const cache = FactCache.open({ workspacePath, env });
    cache.putMany([entry('a.ts'), entry('b.ts')]);
    expect(inspectCache(cache.path)).toEqual({ ok: true, entries: 2 });
    cache.close();
    expect(inspectCache(path.join(scratch, 'nope.db'))).toMatchObject({ ok: false });
    const garbage = path.join(scratch, `garbage-${++serial}.db`);
    fs.writeFileSync(garbage, randomBytes(8192));
    expect(inspectCache(garbage)).toMatchObject({ ok: false, reason: expect.any(String) });
  });

  test('removeCacheDir removes only this workspace folder', () => {
    const { workspacePath, env } = setup();
    const other = path.join(path.dirname(workspacePath), 'other');
    fs.mkdirSync(other);
    FactCache.open({ workspacePath, env }).close();
    FactCache.open({ workspacePath: other, env }).close();
    expect(removeCacheDir(workspacePath, env)).toEqual({
      path: cacheDirFor(workspacePath, env),
      removed: true,
    });
    expect(fs.existsSync(cacheDirFor(workspacePath, env))).toBe(false);
    expect(fs.existsSync(cacheDirFor(other, env))).toBe(true);
    expect(removeCacheDir(workspacePath, env).removed).toBe(false);
  });
});

/**
 * A plain `node` child cannot load TypeScript, so the module is bundled to a temp folder; better-sqlite3 stays
 * external with its absolute path, since a bare import would not resolve from there.
 */
async function bundleForWorkers(): Promise<string> {
  const outfile = path.join(scratch, 'bundle', 'fact-cache.mjs');
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  await build({
    entryPoints: [path.resolve(import.meta.dirname, '../../src/store/fact-cache.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile,
    logLevel: 'silent',
    plugins: [
      {
        name: 'external-sqlite',
        setup: (pluginBuild) =>
          void pluginBuild.onResolve({ filter: /^better-sqlite3$/ }, () => ({
            path: sqlite,
            external: true,
          })),
      },
    ],
  });
  return outfile;
}
