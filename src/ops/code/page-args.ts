/** The `limit` and `offset` arguments of a paged code mode, worded with the unit it pages. */
import { z } from 'zod';

export function pageArgs(unit: string, limits: { readonly default: number; readonly max: number }) {
  return {
    limit: z
      .number()
      .int()
      .min(1)
      .max(limits.max)
      .default(limits.default)
      .describe(`${unit} per page, e.g. ${Math.min(10, limits.default)}.`),
    offset: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe(`${unit} to skip, from the previous page's footer, e.g. ${limits.default}.`),
  };
}
