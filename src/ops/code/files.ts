import { z } from 'zod';
import { byteLength, pageFooter, takePage } from '../../core/budget.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { IndexedFile, SnapshotReader } from '../../index/reader.js';
import type { MeshServices } from '../services.js';
import { isGeneratedPath } from '../shared/generated-code.js';
import { pageFields } from '../shared/output-shapes.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { displayOf, displayPath } from '../shared/workspace-paths.js';
import { languageFilter } from './language-filter.js';
import { matchPath, TIER_NAMES, type PathTier } from './path-match.js';

/** Not-indexed files named under a page, at most. */
const NAMED_REJECTED = 10;

interface FileRow {
  readonly file: IndexedFile;
  readonly path: string;
  readonly tier: PathTier;
  readonly score: number;
  readonly generated: boolean;
}

/** Ranked: match tier, hand-written before generated, better fuzzy score, shorter path, then path order. */
const byRank = (a: FileRow, b: FileRow): number =>
  a.tier - b.tier ||
  Number(a.generated) - Number(b.generated) ||
  b.score - a.score ||
  (a.tier === 3 ? 0 : a.path.length - b.path.length) ||
  (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

function rankedFiles(
  snapshot: SnapshotReader,
  query: string | undefined,
  keep: ((file: IndexedFile) => boolean) | undefined,
): FileRow[] {
  const rows: FileRow[] = [];
  for (const file of snapshot.files) {
    if (keep && !keep(file)) continue;
    const path = displayOf(snapshot, file);
    const match = query === undefined ? { tier: 2 as const, score: 0 } : matchPath(path, query);
    if (!match) continue;
    rows.push({ file, path, ...match, generated: isGeneratedPath(file.path) });
  }
  // Without a query the listing stays in path order, generated files last.
  if (query === undefined)
    return rows.sort((a, b) => Number(a.generated) - Number(b.generated) || (a.path < b.path ? -1 : 1));
  // Letters in order are a fallback: beside files that contain the query they are only noise.
  const contained = rows.filter((row) => row.tier < 3);
  return (contained.length > 0 ? contained : rows).sort(byRank);
}

/** Files the guard kept out of the index whose path contains the query: named, so they are not missed. */
function rejectedMatches(
  snapshot: SnapshotReader,
  query: string | undefined,
): { path: string; reason: string }[] {
  if (query === undefined) return [];
  const needle = query.toLowerCase();
  return snapshot.rejected
    .map((r) => ({ path: displayPath(snapshot.roots, r.root, r.path), reason: r.reason as string }))
    .filter(({ path }) => path.toLowerCase().includes(needle));
}

const renderRow = (row: FileRow): string =>
  `- \`${row.path}\`${row.file.language ? ` — ${row.file.language}` : ''}${row.generated ? ', generated' : ''}`;

export const codeFiles = defineOperation({
  domain: 'code',
  mode: 'files',
  flatName: 'find_files',
  title: 'Find indexed files by path',
  description:
    'Lists indexed files whose path matches a query, ranked exact file name > name prefix > path substring, or fuzzily (the letters in order, fzf-style) when no path contains the query, generated files after hand-written ones, optionally of one language — e.g. query "order.service" or "ordsvc". DO NOT USE to search file contents (use code grep / grep_code) or declared names (use code search / smart_search).',
  args: {
    query: z
      .string()
      .trim()
      .min(1)
      .max(256)
      .optional()
      .describe(
        'Part of a path, or its letters in order, case-insensitive, e.g. "payment/server" or "ordsvc"; omit to list every file.',
      ),
    language: z
      .string()
      .min(1)
      .max(32)
      .optional()
      .describe('Only files of this language id, as answers name it in their `language` field.'),
    limit: z.number().int().min(1).max(500).default(50).describe('Files per page, e.g. 20.'),
    offset: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe("Files to skip, from the previous page's footer, e.g. 50."),
  },
  output: z.looseObject({
    query: z.string().nullable(),
    total_files: z.number().int().describe('Matching indexed files, over all pages.'),
    by_match: z
      .looseObject({})
      .describe('How many files match exactly, by prefix, by substring and fuzzily.'),
    ...pageFields,
    results: z.array(
      z.looseObject({
        path: z.string(),
        language: z.string().nullable(),
        match: z.string(),
        generated: z.boolean(),
      }),
    ),
    not_indexed: z
      .array(z.looseObject({ path: z.string(), reason: z.string() }))
      .describe('Files whose path contains the query but that are not indexed, and why.'),
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  truncationHint: () => 'Too many files for one answer: lower `limit` or give a longer `query`.',
  run(args, ctx: OperationContext<MeshServices>) {
    const snapshot = requireSnapshot(ctx.services);
    const keep = languageFilter(snapshot, args.language);
    const rows = rankedFiles(snapshot, args.query, keep);
    const rejected = rejectedMatches(snapshot, args.query);
    const rejectedNote =
      rejected.length > 0
        ? `\n> ${rejected.length} file(s) match but are not indexed: ${rejected
            .slice(0, NAMED_REJECTED)
            .map((r) => `\`${r.path}\` (${r.reason.replace(/_/g, ' ')})`)
            .join(', ')}${rejected.length > NAMED_REJECTED ? ', …' : ''}.\n`
        : '';
    const label = args.query === undefined ? 'All indexed files' : `Files matching \`${args.query}\``;
    const header = `## ${label}${args.language ? ` (language ${args.language})` : ''}\n_${rows.length} file(s)._\n\n`;
    const page = takePage(rows, {
      offset: args.offset,
      limit: args.limit,
      budgetBytes: ctx.pageBudget - byteLength(header + rejectedNote),
      render: (row) => `${renderRow(row)}\n`,
    });
    const counts = [0, 0, 0, 0];
    for (const row of rows) counts[row.tier] = (counts[row.tier] ?? 0) + 1;
    const footer = pageFooter(page, 'files', args.limit);
    const zero =
      rows.length === 0
        ? `Exactly 0 indexed files match${args.query ? ` \`${args.query}\`` : ''}${args.language ? ` in ${args.language}` : ''}. \`code grep\` searches file contents.\n`
        : '';
    return {
      data: {
        query: args.query ?? null,
        ...(args.language ? { language: args.language } : {}),
        total_files: rows.length,
        by_match: Object.fromEntries(TIER_NAMES.map((name, i) => [name, args.query ? counts[i] : 0])),
        offset: page.start,
        next_offset: page.hasMore ? page.end : null,
        results: page.items.map((row) => ({
          path: row.path,
          language: row.file.language ?? null,
          match: args.query === undefined ? 'listed' : TIER_NAMES[row.tier],
          generated: row.generated,
        })),
        not_indexed: rejected,
      },
      markdown: `${header}${zero}${page.rendered.join('')}${footer ? `\n${footer}\n` : ''}${rejectedNote}`,
    };
  },
});
