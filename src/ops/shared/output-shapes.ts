/**
 * Pieces of the operations' output schemas (MCP `outputSchema`): the answer's `data` as the JSON and
 * `--json` renderings carry it. Objects are loose, so a field added later breaks no client.
 */
import { z } from 'zod';

/** A page of a paged answer: where it starts and where the next one does (null on the last page). */
export const pageFields = {
  offset: z.number().int().describe('Index of the first entry on this page.'),
  next_offset: z
    .number()
    .int()
    .nullable()
    .describe('Pass as `offset` for the next page; null on the last page.'),
};

/** Files that were found but not indexed (rejected, no grammar), when they could hold an answer. */
export const notIndexedField = z.array(z.unknown()).describe('Files in scope that are not indexed, and why.');

/** A workspace location: root, workspace-relative path and 1-based line. */
export const locationShape = {
  path: z.string().describe('Workspace-relative path.'),
  line: z.number().int().nullable().optional(),
};
