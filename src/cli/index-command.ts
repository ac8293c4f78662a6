import type { LoadedConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { renderStatus } from '../ops/admin/status.js';
import { LazyIndex } from './lazy-index.js';
import { UsageError } from './operation-commands.js';
import { createProgressBar } from './progress-bar.js';

export interface IndexCommandOptions {
  readonly loaded: LoadedConfig;
  readonly logger: Logger;
  readonly json: boolean;
  readonly write: (text: string) => void;
}

/** `meshlens index`: one full index run (warm from the cache when possible) and its summary. */
export async function indexCommand(options: IndexCommandOptions): Promise<void> {
  if (options.loaded.roots.length === 0) {
    const patterns = options.loaded.config.workspace.roots.map((r) => `\`${r}\``).join(', ');
    throw new UsageError(
      `No root to index: [workspace] roots (${patterns}) match no folder under ${options.loaded.baseDir}. ` +
        'Fix the patterns in meshlens.toml, or run `meshlens init --auto --force` to propose roots from the layout.',
    );
  }
  const index = new LazyIndex(options.loaded, options.logger);
  try {
    const bar = createProgressBar(process.stderr);
    let fingerprint: string | undefined;
    try {
      const engine = await index.start({ watch: false, ...(bar ? { onProgress: bar.update } : {}) });
      fingerprint = engine.fingerprintOf();
    } finally {
      bar?.clear();
    }
    const status = { ...index.status(), ...(fingerprint ? { fingerprint } : {}) };
    for (const warning of options.loaded.warnings) options.logger.warn({}, warning);
    options.write(options.json ? JSON.stringify(status, null, 2) : renderStatus(status));
  } finally {
    await index.close();
  }
}
