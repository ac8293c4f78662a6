/**
 * `meshlens check --diff <revision>`: the impact of the working tree against a revision, for CI. It prints
 * what `contracts impact --diff` answers and turns it into an exit status a pipeline can gate on.
 */
import type { AnyOperation } from '../core/operation.js';
import type { InvocationResult } from '../core/registry.js';
import { contractsImpact } from '../ops/contracts/impact.js';

/** 0: nothing breaks; 1: a wire-breaking change, or a contract or declaration removed while still used; 2: the check could not run. */
export const CHECK_EXIT = { clean: 0, failing: 1, badInput: 2 } as const;

/** Rows printed by one check; a larger impact ends with the footer naming the next page. */
const CHECK_ROWS = 200;

export interface CheckOptions {
  readonly diff: string;
  readonly json: boolean;
  /** Runs one operation and prints its answer (the CLI's own runner). */
  readonly run: (
    op: AnyOperation,
    rawArgs: Record<string, unknown>,
    json: boolean,
  ) => Promise<InvocationResult>;
}

export async function checkCommand(options: CheckOptions): Promise<number> {
  const result = await options.run(
    contractsImpact as AnyOperation,
    { diff: options.diff, limit: CHECK_ROWS },
    options.json,
  );
  if (result.isError) return CHECK_EXIT.badInput;
  return result.failing === true ? CHECK_EXIT.failing : CHECK_EXIT.clean;
}
