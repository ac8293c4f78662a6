import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type LoadedConfig } from '../../src/core/config.js';
import { silentLogger } from '../../src/core/logger.js';
import { IndexEngine } from '../../src/index/engine.js';
import { FactCache, factKey } from '../../src/store/fact-cache.js';

const temps: string[] = [];

/** A fresh canonical temp folder, removed by `removeTemps`. */
export function tempDir(prefix = 'meshlens-engine-'): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  temps.push(dir);
  return dir;
}

export function removeTemps(): void {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes files ('/' paths → content) in the given order, creating folders as needed. */
export function writeFiles(
  dir: string,
  files: Readonly<Record<string, string>> | readonly (readonly [string, string])[],
): void {
  const entries = Array.isArray(files) ? files : Object.entries(files);
  for (const [rel, content] of entries as [string, string][]) {
    const target = path.join(dir, ...rel.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}

export const git = (cwd: string, ...args: string[]): string =>
  execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args],
    {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );

/** `git` without blocking the event loop: a watcher in this process must see the events as they happen. */
export const gitAsync = (cwd: string, ...args: string[]): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args],
      { cwd, encoding: 'utf8' },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
  });

export interface EngineSetup {
  readonly engine: IndexEngine;
  readonly loaded: LoadedConfig;
  /** The `MESHLENS_CACHE_DIR` of this engine's fact cache, when it has one. */
  readonly cacheDir: string | undefined;
  /** The cache as opened (after the first run). */
  cache(): FactCache | undefined;
}

export interface EngineSetupOptions {
  readonly threads?: number;
  /** How long an idle parse worker stays; default the engine's. */
  readonly parseWorkerIdleMs?: number;
  readonly parseInProcessMaxFiles?: number;
  /** A cache folder to use; `null` for no persistent cache; default a fresh one. */
  readonly cacheDir?: string | null;
}

/** An engine over `workspaceDir` wired as the CLI wires it (config, fact cache, cache key), with a temp cache. */
export function makeEngine(workspaceDir: string, options: EngineSetupOptions = {}): EngineSetup {
  const loaded = loadConfig({ cwd: workspaceDir, workspaceDir, env: {} });
  const cacheDir = options.cacheDir === null ? undefined : (options.cacheDir ?? tempDir('meshlens-cache-'));
  let opened: FactCache | undefined;
  const engine = new IndexEngine({
    loaded,
    logger: silentLogger,
    threads: options.threads ?? 0,
    ...(options.parseWorkerIdleMs !== undefined ? { parseWorkerIdleMs: options.parseWorkerIdleMs } : {}),
    ...(options.parseInProcessMaxFiles !== undefined
      ? { parseInProcessMaxFiles: options.parseInProcessMaxFiles }
      : {}),
    ...(cacheDir
      ? {
          factKey,
          openStore: () => {
            opened = FactCache.open({
              workspacePath: loaded.baseDir,
              env: { MESHLENS_CACHE_DIR: cacheDir },
              maxSizeMb: loaded.config.cache.max_size_mb,
              logger: silentLogger,
            });
            return opened;
          },
        }
      : {}),
  });
  return { engine, loaded, cacheDir, cache: () => opened };
}

/** Indexes a fresh engine over `workspaceDir` (no cache) and returns its fingerprint. */
export async function coldFingerprint(workspaceDir: string, threads = 0): Promise<string> {
  const { engine } = makeEngine(workspaceDir, { threads, cacheDir: null });
  try {
    await engine.indexAll();
    return engine.fingerprintOf() as string;
  } finally {
    await engine.close();
  }
}

/** Polls `predicate` until it holds; fails with `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await predicate()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A small deterministic PRNG (mulberry32), so shuffles and generated trees are the same on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = seededRandom(seed);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/** A small polyglot workspace: services in five languages, protos, docs, deploy files and a config. */
export function polyglotFiles(): [string, string][] {
  const files: [string, string][] = [
    [
      'meshlens.toml',
      '[workspace]\nname = "shop"\nroots = ["proto", "services/*", "docs", "deploy"]\n\n[docs]\npaths = ["docs"]\n',
    ],
    [
      'proto/orders/v1/orders.proto',
      'syntax = "proto3";\npackage orders.v1;\n\nservice OrderService {\n  rpc CreateOrder (CreateOrderRequest) returns (Order);\n  rpc GetOrder (GetOrderRequest) returns (Order);\n}\n\nmessage CreateOrderRequest { string sku = 1; int32 qty = 2; }\nmessage GetOrderRequest { string id = 1; }\nmessage Order { string id = 1; string sku = 2; }\n',
    ],
    ['services/orders/package.json', '{ "name": "orders", "version": "1.0.0" }\n'],
    [
      'services/orders/src/orders.controller.ts',
      "import { Controller } from '@nestjs/common';\nimport { GrpcMethod } from '@nestjs/microservices';\nimport { OrderRepo } from './order.repo';\n\n@Controller()\nexport class OrdersController {\n  constructor(private readonly repo: OrderRepo) {}\n\n  @GrpcMethod('OrderService', 'CreateOrder')\n  async createOrder(req: { sku: string; qty: number }) {\n    return this.repo.save(req);\n  }\n}\n",
    ],
    [
      'services/orders/src/order.repo.ts',
      'export class OrderRepo {\n  private readonly rows = new Map<string, unknown>();\n  save(row: { sku: string }) {\n    this.rows.set(row.sku, row);\n    return row;\n  }\n}\n',
    ],
    ['services/billing/pom.xml', '<project><artifactId>billing</artifactId></project>\n'],
    [
      'services/billing/src/main/java/shop/billing/InvoiceService.java',
      'package shop.billing;\n\nimport java.util.List;\n\npublic class InvoiceService {\n  public List<String> invoices(String customer) {\n    return List.of(customer);\n  }\n}\n',
    ],
    ['services/shipping/pyproject.toml', '[project]\nname = "shipping"\n'],
    [
      'services/shipping/shipping/handlers.py',
      'from kafka import KafkaConsumer\n\n\nclass ShipmentHandler:\n    def handle(self, event):\n        return {"id": event["id"], "status": "shipped"}\n\n\ndef consumer():\n    return KafkaConsumer("orders.created")\n',
    ],
    ['services/inventory/go.mod', 'module example.com/inventory\n\ngo 1.22\n'],
    [
      'services/inventory/stock.go',
      'package inventory\n\n// Stock counts items per SKU.\ntype Stock struct {\n\tItems map[string]int\n}\n\nfunc (s *Stock) Reserve(sku string, qty int) bool {\n\tif s.Items[sku] < qty {\n\t\treturn false\n\t}\n\ts.Items[sku] -= qty\n\treturn true\n}\n',
    ],
    [
      'services/payment/src/lib.rs',
      'pub struct Payment {\n    pub amount: u64,\n}\n\nimpl Payment {\n    pub fn new(amount: u64) -> Self {\n        Payment { amount }\n    }\n}\n',
    ],
    ['services/payment/Cargo.toml', '[package]\nname = "payment"\nversion = "0.1.0"\n'],
    [
      'docs/adr/0001-outbox.md',
      '# ADR 0001: Transactional outbox\n\n## Context\n\nOrders publish events after commit.\n\n## Decision\n\nUse an outbox table and a relay.\n',
    ],
    ['docs/runbook.md', '# Runbook\n\n## Dead letter queue\n\nReplay with the dlq tool.\n'],
    [
      'deploy/orders.yaml',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: orders\nspec:\n  replicas: 2\n',
    ],
  ];
  return files;
}
