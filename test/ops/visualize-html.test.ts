/// <reference lib="dom" />
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexEngine } from '../../src/index/engine.js';
import { connectClient, documentOf } from '../helpers/mcp.js';
import { indexedRegistry } from '../helpers/workspace.js';

const CHROMIUM = '/usr/bin/chromium';
const EVIL = '<img src=x onerror=alert(1)>';

function openapi(route: string): string {
  return `openapi: 3.0.3\ninfo:\n  title: t\n  version: '1'\npaths:\n  ${route}:\n    get:\n      responses:\n        '200':\n          description: ok\n`;
}

let workspace: string;
let engine: IndexEngine;
let html: string;

beforeAll(async () => {
  workspace = mkdtempSync(path.join(os.tmpdir(), 'meshlens-html-'));
  for (const [dir, route] of [
    [EVIL, '/evil'],
    ['billing', '/invoices/{id}'],
  ] as const) {
    mkdirSync(path.join(workspace, 'services', dir), { recursive: true });
    writeFileSync(path.join(workspace, 'services', dir, 'openapi.yaml'), openapi(route));
  }
  writeFileSync(
    path.join(workspace, 'meshlens.toml'),
    '[workspace]\nname = "html-test"\nroots = ["services/*"]\n',
  );
  const indexed = await indexedRegistry(workspace);
  engine = indexed.engine;
  const client = await connectClient(indexed.registry, 'flat');
  html = await documentOf(
    client,
    await client.callTool({ name: 'visualize_mesh', arguments: { format: 'html' } }),
  );
  await client.close();
});

afterAll(async () => {
  await engine?.close();
});

describe('visualize_mesh html', () => {
  it('is one self-contained page: no external script or stylesheet', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+href=/i);
    expect(html).not.toContain(EVIL);
  });

  it.skipIf(!existsSync(CHROMIUM))(
    'renders in headless Chromium with every service, and a hostile name stays text',
    async () => {
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
        ],
      });
      try {
        const page = await browser.newPage();
        const dialogs: string[] = [];
        page.on('dialog', (dialog) => {
          dialogs.push(dialog.message());
          void dialog.dismiss();
        });
        const requests: string[] = [];
        page.on('request', (request) => requests.push(request.url()));
        const file = path.join(workspace, 'graph.html');
        writeFileSync(file, html);
        await page.goto(`file://${file}`);
        await page.waitForFunction(
          () => (window as unknown as { meshlensGraph?: unknown }).meshlensGraph !== undefined,
        );
        const labels = await page.evaluate(() => {
          const cy = (
            window as unknown as {
              meshlensGraph: {
                nodes(selector: string): { map(f: (n: { data(k: string): string }) => string): string[] };
              };
            }
          ).meshlensGraph;
          return cy.nodes('[kind = "service"]').map((n) => n.data('label'));
        });
        expect(labels.sort()).toEqual([`services/${EVIL}`, 'services/billing'].sort());
        // Clicking the hostile node shows its name in the panel as plain text.
        await page.evaluate((label) => {
          const cy = (
            window as unknown as {
              meshlensGraph: {
                nodes(selector: string): {
                  filter(f: (n: { data(k: string): string }) => boolean): { emit(e: string): void };
                };
              };
            }
          ).meshlensGraph;
          cy.nodes('node')
            .filter((n) => n.data('label') === label)
            .emit('tap');
        }, `services/${EVIL}`);
        expect(await page.textContent('#title')).toBe(`services/${EVIL}`);
        expect(await page.evaluate(() => document.querySelectorAll('img').length)).toBe(0);
        await page.waitForTimeout(200);
        expect(dialogs).toEqual([]);
        expect(requests.filter((url) => !url.startsWith('file://'))).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
