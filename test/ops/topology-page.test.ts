/// <reference lib="dom" />
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPageLibraries } from '../../src/ops/graph/visualize.js';
import { renderHtmlGraph } from '../../src/render/html-graph.js';
import type { Topology, TopologyLink, TopologyNode } from '../../src/render/topology.js';
import { readDrawing, readabilityProblems } from '../helpers/topology-geometry.js';
import { connectClient, documentOf } from '../helpers/mcp.js';
import { indexedRegistry } from '../helpers/workspace.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(`topology page tests skipped: no ${CHROMIUM} (Debian: apt-get install -y chromium)`);

/** A bigger mesh than the example: 25 services, a contracts folder, 8 topics, calls of every confidence. */
function generatedTopology(): Topology {
  let seed = 42;
  // A linear congruential generator; its high bits are the random ones.
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((seed / 2 ** 31) * n);
  };
  const names = ['cart', 'checkout', 'payment-gateway', 'ad', 'email', 'recommendation', 'currency'];
  const nodes: TopologyNode[] = [
    ...Array.from({ length: 25 }, (_, i) => ({
      id: `s${i}`,
      kind: 'service' as const,
      label: `services/${names[i % names.length]}-${i}`,
      root: `services/${names[i % names.length]}-${i}`,
      contracts: [
        { kind: 'implements', name: `shop.v1.Svc${i}/Get`, file: 'protos/shop.proto', line: 10 + i },
      ],
      weight: 1,
    })),
    { id: 'c25', kind: 'contracts', label: 'protos', root: 'protos', contracts: [], weight: 3 },
    ...Array.from({ length: 8 }, (_, i) => ({
      id: `t${26 + i}`,
      kind: 'topic' as const,
      label: `events.topic-${i}`,
      broker: 'kafka',
      weight: 2,
    })),
  ];
  const links = new Map<string, TopologyLink>();
  const add = (from: string, to: string, kind: string) => {
    if (from === to) return;
    const confidence = ['exact', 'exact', 'heuristic', 'ambiguous'][random(4)] as string;
    links.set(`${from} ${to} ${kind}`, { from, to, kind, weight: 1 + random(4), confidence });
  };
  for (let i = 0; i < 25; i++) {
    add(`s${i}`, `s${random(25)}`, 'calls_rpc');
    add(`s${i}`, `s${random(25)}`, 'calls_http');
    if (i % 2 === 0) add(`s${i}`, `t${26 + random(8)}`, 'produces');
    add(`t${26 + random(8)}`, `s${i}`, 'consumes');
  }
  for (let i = 0; i < 3; i++) add(`s${random(25)}`, 'c25', 'calls_rpc');
  return {
    workspace: 'generated',
    nodes,
    links: [...links.values()],
    hidden: { services: [], topics: 0, ambiguousEdges: 0 },
  };
}

/** Screenshots are kept in the run's temp folder, and their paths shown in the test output. */
const keptScreenshot = (file: string) => console.warn(`topology page screenshot: ${file}`);

let browser: Browser;
let shopHtml: string;
const screenshots = mkdtempSync(path.join(os.tmpdir(), 'meshlens-topology-page-'));

beforeAll(async () => {
  if (!hasChromium) return;
  const { registry, engine } = await indexedRegistry();
  const client = await connectClient(registry, 'flat');
  shopHtml = await documentOf(
    client,
    await client.callTool({ name: 'visualize_mesh', arguments: { format: 'html' } }),
  );
  await client.close();
  await engine.close();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
});

afterAll(async () => {
  await browser?.close();
});

/** Opens the page (from a file: nothing may be fetched) and waits for its layout; keeps a screenshot. */
async function open(
  html: string,
  name: string,
): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
  });
  const file = path.join(screenshots, `${name}.html`);
  writeFileSync(file, html);
  await page.goto(`file://${file}`);
  await page.waitForSelector('body[data-ready="true"]');
  const shot = path.join(screenshots, `${name}.png`);
  await page.screenshot({ path: shot });
  keptScreenshot(shot);
  return { page, requests, errors };
}

const rowTexts = (page: Page, list: string) =>
  page.$$eval(`#${list} .row`, (rows) => rows.map((r) => r.textContent));

const visibleEdgeKinds = (page: Page) =>
  page.evaluate(() => {
    const cy = (
      window as unknown as {
        meshlensGraph: { edges(s: string): { map<T>(f: (e: { data(k: string): string }) => T): T[] } };
      }
    ).meshlensGraph;
    return cy.edges(':visible').map((e) => `${e.data('kind')}/${e.data('confidence')}`);
  });

describe.skipIf(!hasChromium)('topology page in headless Chromium', () => {
  it('lays out the example workspace with no overlapping node, no edge through a node, no label on a node', async () => {
    const { page, requests, errors } = await open(shopHtml, 'polyglot-shop');
    expect(readabilityProblems(await readDrawing(page))).toEqual([]);
    expect(errors).toEqual([]);
    expect(requests.filter((url) => !url.startsWith('file://'))).toEqual([]);
    // Two inlined libraries and the data: the page stays well under a megabyte.
    expect(Buffer.byteLength(shopHtml)).toBeLessThan(560_000);
    await page.close();
  }, 60_000);

  it('lays out 25 services with many links readably, a proto folder drawn as contracts', async () => {
    const topology = generatedTopology();
    expect(topology.links.length).toBeGreaterThan(80);
    const { page, errors } = await open(renderHtmlGraph(topology, loadPageLibraries()), 'generated-25');
    expect(readabilityProblems(await readDrawing(page))).toEqual([]);
    expect(errors).toEqual([]);
    expect(
      await page.evaluate(() => {
        const cy = (
          window as unknown as { meshlensGraph: { nodes(s: string): { style(k: string): string }[] } }
        ).meshlensGraph;
        return cy.nodes('[kind = "contracts"]').map((n) => n.style('shape'));
      }),
    ).toEqual(['cut-rectangle']);
    expect(await rowTexts(page, 'node-kinds')).toEqual([
      'service (25)',
      'contracts folder (.proto) (1)',
      'topic (8)',
    ]);
    await page.close();
  }, 60_000);

  it('has a legend of link kinds and confidences whose rows filter the links; only uncertain links are dashed', async () => {
    const { page } = await open(shopHtml, 'polyglot-shop-filters');
    expect(await rowTexts(page, 'kinds')).toEqual([
      'gRPC call (5)',
      'HTTP call (5)',
      'produces to topic (5)',
      'consumes from topic (8)',
    ]);
    expect(await rowTexts(page, 'confidences')).toEqual(['exact (solid) (16)', 'heuristic (dashed) (7)']);
    expect(await rowTexts(page, 'node-kinds')).toEqual(['service (7)', 'topic (5)']);
    const styles = await page.evaluate(() => {
      const cy = (
        window as unknown as {
          meshlensGraph: {
            edges(): { map<T>(f: (e: { data(k: string): string; style(k: string): string }) => T): T[] };
          };
        }
      ).meshlensGraph;
      return [...new Set(cy.edges().map((e) => `${e.data('confidence')}:${e.style('line-style')}`))].sort();
    });
    expect(styles).toEqual(['exact:solid', 'heuristic:dashed']);

    await page.click('#kinds .row:nth-child(1) input');
    // Under load the filtered links can show a frame late (failed once on Node 24): wait for them.
    await expect.poll(async () => (await visibleEdgeKinds(page)).length, { timeout: 5000 }).toBe(18);
    const withoutGrpc = await visibleEdgeKinds(page);
    expect(withoutGrpc.filter((k) => k.startsWith('calls_rpc/'))).toEqual([]);
    await page.click('#kinds .row:nth-child(1) input');
    await page.click('#confidences .row:nth-child(2) input');
    await expect.poll(async () => (await visibleEdgeKinds(page)).length, { timeout: 5000 }).toBe(16);
    const exactOnly = await visibleEdgeKinds(page);
    expect(exactOnly.filter((k) => !k.endsWith('/exact'))).toEqual([]);
    await page.close();
  }, 60_000);

  it('search highlights the matching nodes and Enter focuses the first, showing its contracts at path:line', async () => {
    const { page } = await open(shopHtml, 'polyglot-shop-search');
    await page.fill('#search', 'payment');
    const matches = await page.evaluate(() => {
      const cy = (
        window as unknown as {
          meshlensGraph: { nodes(s: string): { map<T>(f: (n: { data(k: string): string }) => T): T[] } };
        }
      ).meshlensGraph;
      return cy.nodes('.match').map((n) => n.data('label'));
    });
    expect(matches).toEqual(['services/payment', 'payments.settled (kafka)']);
    expect(await page.textContent('#search-status')).toBe('2 matches; Enter focuses the first.');
    await page.press('#search', 'Enter');
    expect(await page.textContent('#title')).toBe('services/payment');
    const locations = await page.$$eval('#details code', (codes) => codes.map((c) => c.textContent));
    expect(locations).toEqual([
      'services/payment/events.go:43',
      'proto/payment.proto:11',
      'proto/payment.proto:13',
      'proto/payment.proto:15',
      'proto/payment.proto:17',
      'services/payment/events.go:74',
      'services/payment/http.go:18',
      'services/payment/http.go:21',
    ]);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(screenshots, 'polyglot-shop-focused.png') });
    keptScreenshot(path.join(screenshots, 'polyglot-shop-focused.png'));
    await page.close();
  }, 60_000);
});
