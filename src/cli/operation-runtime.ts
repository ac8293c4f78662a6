import type { LoadedConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type { AnyOperation } from '../core/operation.js';
import type { InvocationResult, Registry } from '../core/registry.js';
import { validateCall, type CallAddress } from '../core/validation.js';
import { asLine, type CliIo } from './cli-io.js';
import { composeRegistry } from './compose.js';
import { LazyIndex } from './lazy-index.js';
import { UsageError } from './operation-commands.js';
import { createProgressBar } from './progress-bar.js';

/**
 * What answers an operation command: a registry and index built for the one call in this process, or a
 * workspace daemon's, loaded already. The command line, the config checks and the printing are the same
 * for both (main.ts), so that their output is the same.
 */
export interface OperationRuntime {
  /** The config the call is made under, loaded as the CLI loads it (a ConfigError says what is wrong). */
  config(): LoadedConfig;
  /** Makes the call, indexing (or waiting for the index) first when the call reads it. */
  invoke(op: AnyOperation, rawArgs: Record<string, unknown>, loaded: LoadedConfig): Promise<InvocationResult>;
}

/** A daemon that cannot answer this call as the CLI's own process would: the CLI answers it itself. */
export class CommandDeclined extends Error {}

/**
 * Whether the call indexes the workspace first: not for a call that cannot be valid (the registry answers
 * it without the index), nor for one that says it reads no index (a note without a pin).
 */
export function indexesFirst(address: CallAddress, rawArgs: unknown): boolean {
  try {
    const { op, args } = validateCall(address, rawArgs);
    return op.readsIndex ? op.readsIndex(args) : true;
  } catch {
    return false;
  }
}

/** The call as the CLI addresses it: the operation's domain, as an MCP client calls the domain tool. */
export function cliCall(
  registry: Registry,
  op: AnyOperation,
  rawArgs: Record<string, unknown>,
): { address: CallAddress; rawArgs: Record<string, unknown> } {
  return {
    address: {
      kind: 'domain',
      domain: op.domain,
      ops: registry.operations().filter((o) => o.domain === op.domain),
    },
    rawArgs: { ...rawArgs, mode: op.mode },
  };
}

/** The call answered in this process: the index loaded (or built) for it, closed after it. */
export function localRuntime(logger: Logger, load: () => LoadedConfig): OperationRuntime {
  return {
    config: load,
    async invoke(op, rawArgs, loaded) {
      const index = new LazyIndex(loaded, logger);
      const { registry, audit, close } = composeRegistry({
        loaded,
        index,
        logger,
        session: `cli-${process.pid}`,
      });
      void audit?.load();
      try {
        const call = cliCall(registry, op, rawArgs);
        if (indexesFirst(call.address, call.rawArgs)) {
          const bar = createProgressBar(process.stderr);
          try {
            await index.start({ watch: false, ...(bar ? { onProgress: bar.update } : {}) });
          } finally {
            bar?.clear();
          }
        }
        return await registry.invoke(call);
      } finally {
        await close();
        await index.close();
      }
    },
  };
}

/**
 * One operation command under the config as it is now (a domain switched off there is refused first),
 * printed as the CLI prints it: Markdown (a failure on stderr) or the JSON rendering.
 */
export async function runOperation(
  runtime: OperationRuntime,
  io: CliIo,
  op: AnyOperation,
  rawArgs: Record<string, unknown>,
  json: boolean,
): Promise<InvocationResult> {
  const loaded = runtime.config();
  if (loaded.config.tools.disabled_domains.includes(op.domain)) {
    throw new UsageError(
      `the ${op.domain} domain is disabled in ${loaded.file ?? 'the config'} ([tools] disabled_domains)`,
    );
  }
  const result = await runtime.invoke(op, rawArgs, loaded);
  if (json) io.stdout(asLine(JSON.stringify(result.json, null, 2)));
  else if (result.isError) io.stderr(`${result.text}\n`);
  else io.stdout(asLine(result.text));
  return result;
}
