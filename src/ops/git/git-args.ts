/** Argument fields shared by the git modes, and the clamping of `limit`. */
import { z } from 'zod';
import { validateRevision } from '../shared/git/revision.js';

/** A walk through history stops this deep, whatever the paging: one answer never reads more commits. */
export const MAX_WALK = 10_000;

/** `limit` above `max` is clamped, not refused: asking for too much is not an error worth a retry. */
export const limitArg = (unit: string, defaults: { readonly default: number; readonly max: number }) =>
  z
    .number()
    .int()
    .min(1)
    .max(MAX_WALK)
    .default(defaults.default)
    .describe(
      `${unit} per page (default ${defaults.default}, values above ${defaults.max} are clamped to it), e.g. 10.`,
    );

export const clampLimit = (limit: number, max: number): number => Math.min(limit, max);

export const cursorArg = z
  .string()
  .min(1)
  .max(512)
  .optional()
  .describe("The previous page's `next_cursor`, unchanged; omit for the first page.");

export const filePathArg = (what: string) =>
  z
    .string()
    .min(1)
    .max(1024)
    .describe(`${what}, workspace-relative as answers show it, e.g. "services/payment/server.go".`);

/** An optional folder or file narrowing the answer (`what`: "the history", "the status"). */
export const scopePathArg = (what: string) =>
  z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .describe(
      `A folder or file to limit ${what} to, workspace-relative, e.g. "services/payment"; it also picks the repository when the workspace holds several.`,
    );

export const revisionArg = (what: string) =>
  z.string().max(256).optional().describe(`${what}: a branch, tag or commit SHA, e.g. "HEAD~3" or "main".`);

/** A caller's revision, checked: one revision, never an option or a `rev:path`. */
export function checkedRevision(argument: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  validateRevision(argument, value, `or omit \`${argument}\``);
  return value;
}
