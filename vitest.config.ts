import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Golden case folders hold extractor inputs, which may be named like tests.
    exclude: ['**/node_modules/**', 'test/golden/*/*/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: more workers only add contention to the spawned-server tests.
    maxWorkers: 2,
    // Every `serve` a test spawns runs in-process, independent of the others; the daemon tests clear it.
    env: { MESHLENS_NO_DAEMON: '1' },
  },
});
