import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI, tempEnv } from '../helpers/cli.js';

const EXAMPLE = path.resolve(import.meta.dirname, '../../examples/polyglot-shop');
const PROBE = path.resolve(import.meta.dirname, '../fixtures/boot-probe/probe.mjs');

/** What `serve` loaded and compiled before its first byte on stdout (the `initialize` answer). */
function bootPath(): Promise<{ loaded: string[]; compiled: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', PROBE, CLI, 'serve', '--no-watch', '--workspace', EXAMPLE],
      {
        env: tempEnv(),
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const line = /BOOT-PROBE (.*)/.exec(stderr)?.[1];
      if (line) {
        child.kill();
        resolve(JSON.parse(line) as { loaded: string[]; compiled: number });
      }
    });
    child.on('exit', () => reject(new Error(`serve exited before answering: ${stderr}`)));
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'boot-path', version: '1' } } })}\n`,
    );
  });
}

/** The `src/…` files a bundled module was built from, read from its source map. */
function sourcesOf(url: string): string[] {
  const file = fileURLToPath(url);
  const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
  return map.sources.map((s) => s.replace(/^(\.\.\/)+/, '')).filter((s) => s.startsWith('src/'));
}

describe('what serve does before answering initialize (built CLI)', () => {
  it('loads no operation, index or rendering code, and zod compiles no parser', async () => {
    const { loaded, compiled } = await bootPath();
    const ours = loaded.filter((url) => url.startsWith('file:') && url.includes('/dist/'));
    const sources = ours.flatMap(sourcesOf);
    expect(sources).toContain('src/server/mcp-server.ts');
    // Path display for the resource list, and the table of test-file conventions it names test paths by.
    expect(sources.filter((s) => /^src\/(ops|index|render|store|trust)\//.test(s))).toEqual([
      'src/ops/shared/workspace-paths.ts',
      'src/ops/shared/test-files.ts',
    ]);
    expect(sources).not.toContain('src/cli/main.ts');
    expect(compiled).toBe(0);
    const bytes = ours.reduce((sum, url) => sum + readFileSync(fileURLToPath(url)).length, 0);
    // 561 KB: the zod runtime (~300 KB) and the SDK are most of it; the config schema grew with the team
    // server's settings (store, daemon, tenants). The operations were another ~250 KB and zod's compilers
    // ~90 KB: either coming back would fail here.
    expect(bytes).toBeLessThan(570_000);
  }, 30_000);
});
