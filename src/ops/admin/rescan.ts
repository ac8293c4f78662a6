import { z } from 'zod';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { MeshServices } from '../services.js';

export const adminRescan = defineOperation({
  domain: 'admin',
  mode: 'rescan',
  flatName: 'rescan',
  title: 'Re-index the workspace',
  description:
    'Re-indexes the whole workspace, or only the given path, and installs a new snapshot; sends progress notifications when the call carries a progressToken — e.g. after generating code or switching branches without the watcher running. DO NOT USE to read the index state (use admin status / index_status).',
  args: {
    path: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A file or folder inside the roots to re-index, e.g. "services/payment-worker/main.go"; omit to re-index everything.',
      ),
  },
  output: z.looseObject({
    generation: z.number().int().describe('The snapshot generation installed.'),
    wallMs: z.number(),
    filesSeen: z.number().int(),
    parsed: z.number().int(),
    cacheHits: z.number().int(),
    changed: z.number().int(),
    removed: z.number().int(),
  }),
  capabilities: { writes: true, idempotent: true },
  pathFields: ['path'],
  subject: (args) => args.path,
  async run(args, ctx: OperationContext<MeshServices>) {
    const summary = await ctx.services.index.rescan({
      ...(args.path ? { paths: [args.path] } : {}),
      signal: ctx.signal,
      onProgress: (done, total) => ctx.progress(done, total, `${done} of ${total} files`),
    });
    const scope = args.path ? `\`${args.path}\`` : 'the whole workspace';
    const markdown =
      `Re-indexed ${scope}: snapshot generation ${summary.generation} installed in ${summary.wallMs} ms ` +
      `(${summary.filesSeen} files seen, ${summary.parsed} parsed, ${summary.cacheHits} from cache, ` +
      `${summary.changed} changed, ${summary.removed} removed).\n`;
    return { data: { ...summary }, markdown };
  },
});
