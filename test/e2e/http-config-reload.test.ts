import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { tempEnv } from '../helpers/cli.js';
import { removeTemps, tempDir, waitFor, writeFiles } from '../helpers/engine.js';
import { httpClient, startHttpServe, stopHttpServe } from '../helpers/http-serve.js';

afterEach(removeTemps);

const config = (extra: string) => `[workspace]\nroots = ["api"]\n\n${extra}\n`;

/** A client that keeps the tool-list changes and log messages it is sent. */
async function listening(url: string) {
  const client: Client = await httpClient(url, 'http-config-reload');
  const heard = { changes: 0, logs: [] as string[] };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.changes++);
  client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (n) => void heard.logs.push(String(n.params.data)),
  );
  return { client, heard };
}

describe('a config file changed while serving over HTTP (built CLI)', () => {
  it('tells every session: tools/list_changed, and the restart notice, over their GET streams', async () => {
    const ws = tempDir('meshlens-http-config-reload-');
    writeFiles(ws, { 'meshlens.toml': config(''), 'api/main.go': 'package main\n\nfunc main() {}\n' });
    const env = tempEnv();
    const serve = await startHttpServe(['--workspace', ws], env);
    const sessions = [await listening(serve.url), await listening(serve.url)];
    try {
      // The SDK client opens its GET stream after `initialized`; a tools/list round trip gives it time.
      for (const { client } of sessions) await client.listTools();
      writeFileSync(
        path.join(ws, 'meshlens.toml'),
        config('[tools]\ndisabled_domains = ["docs", "graph"]\n\n[docs]\nstop_words = ["the"]'),
      );
      await waitFor(
        'tools/list_changed in both sessions',
        () => sessions.every((s) => s.heard.changes > 0),
        10_000,
      );
      for (const { client } of sessions) {
        expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('docs');
      }
      await waitFor(
        'the restart notice in both sessions',
        () => sessions.every((s) => s.heard.logs.some((l) => l.includes('docs.stop_words'))),
        10_000,
      );
    } finally {
      for (const { client } of sessions) await client.close();
      expect(await stopHttpServe(serve)).toBe(0);
      rmSync(env.MESHLENS_CACHE_DIR as string, { recursive: true, force: true });
    }
  }, 60_000);
});
