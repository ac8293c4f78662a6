import { ConfigError } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import type { ServeArgs } from './serve-args.js';
import { serveConfigLoader } from './serve-config.js';
import { serveStdio } from './serve.js';

/**
 * Runs `serve` as the full CLI would; resolves with the exit status (2 for a config error). The config
 * loader and the server are imported together, so that their files are read in one go rather than the
 * server's after the config is loaded.
 */
export async function runServe(args: ServeArgs): Promise<number> {
  const logger = createLogger();
  try {
    const load = serveConfigLoader(args);
    if (args.http) {
      // Loaded only here: the stdio boot never reads the HTTP server's code.
      const { serveHttpCommand } = await import('./serve-http.js');
      const refusal = await serveHttpCommand(args.http, {
        reload: load,
        logger,
        surface: args.surface,
        structuredOutput: args.structuredOutput,
        watch: args.watch,
      });
      if (refusal === undefined) return 0;
      process.stderr.write(`meshlens: ${refusal}\n`);
      return 2;
    }
    const loaded = load();
    await serveStdio({
      loaded,
      reload: load,
      logger,
      surface: args.surface,
      structuredOutput: args.structuredOutput,
      watch: args.watch,
    });
    return 0;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`meshlens: ${error.message}\n`);
      return 2;
    }
    logger.error({ err: error }, 'command failed');
    process.stderr.write(`meshlens: ${(error as Error).message}\n`);
    return 1;
  }
}
