import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, type Dirent } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

// The full benchmark is `npm run bench`; this only proves the generator is deterministic and that the
// harness runs end to end against the built CLI with fully correct answers.
const REPO = path.resolve(import.meta.dirname, '../..');
const GENERATOR = path.join(REPO, 'bench/gen-workspace.mjs');
const HARNESS = path.join(REPO, 'bench/run.mjs');

const scratch = mkdtempSync(path.join(os.tmpdir(), 'meshlens-bench-smoke-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function generate(shape: string, seed: string, name: string): string {
  const out = path.join(scratch, name);
  const result = spawnSync(
    process.execPath,
    [GENERATOR, '--out', out, '--files', '200', '--shape', shape, '--seed', seed],
    {
      encoding: 'utf8',
    },
  );
  expect(result.status, result.stderr).toBe(0);
  return out;
}

/** One hash over every file's relative path and bytes, in sorted order, plus the truth file beside the tree. */
function treeHash(dir: string): string {
  const hash = createHash('sha256');
  const files = (readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
  expect(files.length).toBeGreaterThan(150);
  for (const file of files)
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(dir, file)))
      .update('\0');
  hash.update(readFileSync(`${dir}.truth.json`));
  return hash.digest('hex');
}

describe('bench/gen-workspace.mjs', () => {
  for (const shape of ['small', 'realistic']) {
    test(`${shape}: the same seed writes a byte-identical tree and truth; another seed does not`, () => {
      const a = treeHash(generate(shape, '7', `${shape}-a`));
      const b = treeHash(generate(shape, '7', `${shape}-b`));
      const c = treeHash(generate(shape, '8', `${shape}-c`));
      expect(b).toBe(a);
      expect(c).not.toBe(a);
    });
  }

  test('the truth file lists symbols and contract edges, and lives outside the tree', () => {
    const out = generate('realistic', '3', 'truth');
    const truth = JSON.parse(readFileSync(`${out}.truth.json`, 'utf8')) as {
      files: { path: string }[];
      symbols: unknown[];
      grpc: { kind: string }[];
      topics: { kind: string }[];
      http: { kind: string }[];
    };
    expect(truth.files.length).toBe(200);
    expect(truth.symbols.length).toBeGreaterThan(1000);
    expect(new Set(truth.grpc.map((g) => g.kind))).toEqual(new Set(['implements', 'calls']));
    expect(new Set(truth.topics.map((t) => t.kind))).toEqual(new Set(['produces', 'consumes']));
    expect(new Set(truth.http.map((h) => h.kind))).toEqual(new Set(['route', 'call']));
    expect(truth.files.some((f) => f.path.includes('truth'))).toBe(false);
  });
});

describe('bench/run.mjs', () => {
  test('--help prints the options and exits 0 without running anything', () => {
    const run = spawnSync(process.execPath, [HARNESS, '--help'], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^usage: node bench\/run\.mjs \[options\]/);
    expect(run.stdout).toContain('--no-ctags (keep rg)');
    expect(run.stderr).toBe('');
  });

  test('an unknown option, or an option without its value, exits 2 naming it', () => {
    const unknown = spawnSync(process.execPath, [HARNESS, '--files', '200', '--fast'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe(
      'bench: unknown option --fast; run node bench/run.mjs --help for the options\n',
    );
    const valueless = spawnSync(process.execPath, [HARNESS, '--runs', '--keep'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(valueless.status).toBe(2);
    expect(valueless.stderr).toBe(
      'bench: --runs needs a value; run node bench/run.mjs --help for the options\n',
    );
  });

  test(
    'drives the built server over stdio with 100 % correct answers, then HTTP load on one server and two replicas',
    { timeout: 180_000 },
    () => {
      const results = path.join(scratch, 'results');
      const run = spawnSync(
        process.execPath,
        [
          HARNESS,
          '--files',
          '200',
          '--shape',
          'small',
          '--runs',
          '1',
          '--searches',
          '20',
          '--impacts',
          '10',
          '--reloads',
          '2',
          '--settle-ms',
          '1000',
          '--results',
          results,
          '--ws-dir',
          path.join(scratch, 'ws'),
          '--load-clients',
          '3',
          '--load-calls',
          '16',
        ],
        { encoding: 'utf8', timeout: 170_000 },
      );
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toContain('smart_search p50 (ms)');
      const files = readdirSync(results).sort();
      expect(files).toEqual([
        expect.stringMatching(/^\d{4}-\d{2}-\d{2}-http-load\.json$/),
        expect.stringMatching(/^\d{4}-\d{2}-\d{2}-small-200\.json$/),
      ]);
      const file = files[1];
      const load = JSON.parse(readFileSync(path.join(results, files[0] as string), 'utf8')) as {
        results: {
          setup: string;
          servers: number;
          calls: number;
          errors: number;
          operations: Record<string, { n: number }>;
        }[];
      };
      expect(load.results.map((r) => [r.setup, r.servers, r.calls, r.errors])).toEqual([
        ['single', 1, 48, 0],
        ['replicas', 2, 48, 0],
      ]);
      expect(Object.values(load.results[0]?.operations ?? {}).reduce((n, op) => n + op.n, 0)).toBe(48);
      const report = JSON.parse(readFileSync(path.join(results, file as string), 'utf8')) as {
        correctness: Record<string, { pct: number; total: number }>;
        metrics: Record<string, { median?: number }>;
      };
      for (const key of ['search', 'impact', 'dependents', 'reload']) {
        expect(report.correctness[key]?.total, key).toBeGreaterThan(0);
        expect(report.correctness[key]?.pct, key).toBe(100);
      }
      expect(report.metrics.cold_index_ms?.median).toBeGreaterThan(0);
      expect(report.metrics.rss_peak_mb?.median).toBeGreaterThan(0);
      expect(report.metrics.idle_rss_mb?.median).toBeGreaterThan(0);
    },
  );
});
