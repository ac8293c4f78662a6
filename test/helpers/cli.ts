import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The built CLI; `npm test` builds before running vitest. */
export const CLI = path.resolve(import.meta.dirname, '../../dist/meshlens.js');

/** An environment whose cache, audit and notes files live in a fresh temp folder, never the user's. */
export function tempEnv(extra: Record<string, string> = {}): Record<string, string> {
  const cache = mkdtempSync(path.join(os.tmpdir(), 'meshlens-cache-'));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return {
    ...env,
    MESHLENS_CACHE_DIR: cache,
    MESHLENS_AUDIT_DB: path.join(cache, 'audit.db'),
    MESHLENS_DATA_DIR: path.join(cache, 'data'),
    ...extra,
  };
}

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): CliResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? tempEnv(),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
