import { z } from 'zod';
import { byteLength, pageFooter, takePage } from '../../core/budget.js';
import { invalidArgument } from '../../core/errors.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import { escapeRegExp } from '../../core/regexp.js';
import type { MeshServices } from '../services.js';
import { pageFields } from '../shared/output-shapes.js';
import { rejectedNote } from '../shared/rejected-note.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { refuseOutsideRoots } from '../shared/file-address.js';
import { displayOf } from '../shared/workspace-paths.js';
import {
  lineReader,
  pageBlocks,
  renderFileBlock,
  resultRows,
  summaryLine,
  type Listed,
} from './grep-render.js';
import { runGrep } from './grep-search.js';
import { languageFilter } from './language-filter.js';
import { isGlob, pathFilter } from './path-filter.js';
import { requiredLiterals } from './regex-literals.js';

/** Matching lines counted before a search may stop early (its totals then are lower bounds). */
const COUNTED_LINES = 2_000;

interface Compiled {
  readonly regex: RegExp;
  readonly source: string;
  readonly ignoreCase: boolean;
  readonly unicode: boolean;
}

/** Smart case: insensitive unless the pattern spells an upper-case letter (escapes such as `\W` do not count). */
const spellsUpperCase = (pattern: string): boolean => /\p{Lu}/u.test(pattern.replace(/\\./g, ''));

function compile(pattern: string, fixed: boolean, caseInsensitive: boolean | undefined): Compiled {
  const source = fixed ? escapeRegExp(pattern) : pattern;
  const ignoreCase = caseInsensitive ?? !spellsUpperCase(pattern);
  // Unicode property classes and code point escapes need the `u` flag; without it `\p{L}` means "p{L}".
  const unicode = !fixed && /\\[pPu]\{/.test(source);
  try {
    return {
      regex: new RegExp(source, `gm${ignoreCase ? 'i' : ''}${unicode ? 'u' : ''}`),
      source,
      ignoreCase,
      unicode,
    };
  } catch (error) {
    throw invalidArgument(
      `\`pattern\` is not a valid JavaScript regular expression (${(error as Error).message}). ` +
        'Escape special characters, or pass `fixed_strings: true` to search for the text as written.',
    );
  }
}

/** How the pattern was matched and where, for the answer's heading. */
function describeSearch(
  args: { fixed_strings: boolean; path?: string | undefined; language?: string | undefined },
  compiled: Compiled,
): string {
  const modes = [
    compiled.ignoreCase ? 'case-insensitive' : 'case-sensitive',
    args.fixed_strings ? 'fixed string' : 'regex',
  ].join(', ');
  const scope = [args.path ? `path \`${args.path}\`` : '', args.language ? `language ${args.language}` : '']
    .filter(Boolean)
    .join(', ');
  return scope ? `${modes}; ${scope}` : modes;
}

export const codeGrep = defineOperation({
  domain: 'code',
  mode: 'grep',
  flatName: 'grep_code',
  title: 'Search indexed files with a regular expression',
  description:
    'Searches the text of every indexed file with a regular expression (JavaScript syntax, ripgrep semantics: line by line, smart case, path globs), secrets masked before matching so they never match or show, paged by matching line with optional context — e.g. pattern "orders\\.created", or "TODO|FIXME" with path "services/payment". DO NOT USE to find where a name is declared (use code search / smart_search) or to list files (use code files / find_files).',
  args: {
    pattern: z
      .string()
      .min(1)
      .max(1000)
      .describe(
        'A JavaScript regular expression matched within each line, e.g. "createOrder\\(" or "kafka.*topic".',
      ),
    fixed_strings: z
      .boolean()
      .default(false)
      .describe('Match `pattern` as plain text, not a regular expression, e.g. true for "a.b(c)".'),
    case_insensitive: z
      .boolean()
      .optional()
      .describe(
        'true or false to force it; omitted: smart case (insensitive unless the pattern has an upper-case letter).',
      ),
    path: z
      .string()
      .min(1)
      .max(512)
      .optional()
      .describe(
        'Only files under this workspace-relative folder or file, or matching this glob (ripgrep -g; "!" excludes), e.g. "services/payment", "**/*.go" or "!**/*_test.go".',
      ),
    language: z
      .string()
      .min(1)
      .max(32)
      .optional()
      .describe('Only files of this language id, as answers name it in their `language` field.'),
    context: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(0)
      .describe('Lines shown before and after each match, e.g. 2.'),
    max_per_file: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(20)
      .describe('Matching lines listed per file at most (the rest are counted), e.g. 5.'),
    limit: z.number().int().min(1).max(500).default(50).describe('Matching lines per page, e.g. 20.'),
    offset: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe("Matching lines to skip, from the previous page's footer, e.g. 50."),
  },
  output: z.looseObject({
    pattern: z.string(),
    case_insensitive: z.boolean(),
    total_matches: z.number().int().describe('Matching lines, over all pages (a lower bound when partial).'),
    total_files: z.number().int(),
    total_is_partial: z
      .boolean()
      .describe('True when the search stopped early (2,000 matching lines counted and the page filled).'),
    generation: z.number().int().describe('The snapshot searched; offsets refer to its answer.'),
    ...pageFields,
    results: z.array(
      z.looseObject({ path: z.string(), line: z.number().int(), column: z.number().int(), text: z.string() }),
    ),
    not_indexed: z.array(z.unknown()),
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  subject: (args) => args.path ?? '*',
  truncationHint: (args) =>
    `The matches of \`${args.pattern}\` were too large: lower \`limit\`, \`context\` or \`max_per_file\`, or narrow \`path\`.`,
  run(args, ctx: OperationContext<MeshServices>) {
    const snapshot = requireSnapshot(ctx.services);
    const compiled = compile(args.pattern, args.fixed_strings, args.case_insensitive);
    const byLanguage = languageFilter(snapshot, args.language);
    if (args.path !== undefined && !isGlob(args.path)) refuseOutsideRoots(snapshot, 'path', args.path);
    const byPath = pathFilter(args.path);
    const outcome = runGrep({
      snapshot,
      regex: compiled.regex,
      literals: requiredLiterals(compiled.source, compiled),
      inScope: (file) => (!byLanguage || byLanguage(file)) && (!byPath || byPath(displayOf(snapshot, file))),
      maxPerFile: args.max_per_file,
      countAtLeast: COUNTED_LINES,
      listAtLeast: args.offset + args.limit + 1,
      signal: ctx.signal,
    });
    if (outcome.inScope === 0 && args.path !== undefined)
      throw invalidArgument(
        `\`path\` "${args.path}" matches no indexed file${args.language ? ` in ${args.language}` : ''}. Give a workspace-relative folder or file, or a glob such as "**/*.go".`,
      );
    const listed: Listed[] = outcome.files.flatMap((match) => match.hits.map((hit) => ({ match, hit })));
    const readLines = lineReader(snapshot);
    const header = `## grep \`${args.pattern}\` (${describeSearch(args, compiled)})\n${summaryLine(outcome, listed.length, COUNTED_LINES)}`;
    const note = rejectedNote(
      snapshot,
      undefined,
      args.fixed_strings ? args.pattern.toLowerCase() : undefined,
    );
    const page = takePage(listed, {
      offset: args.offset,
      limit: args.limit,
      budgetBytes: ctx.pageBudget - byteLength(header + note.markdown),
      render: (item) => renderFileBlock([item], readLines(item.match.file), args.context).body,
    });
    const { blocks, redactions } = pageBlocks(page.items, readLines, args.context);
    const footer = pageFooter(page, 'matching lines', args.limit);
    const zero =
      outcome.totalLines === 0
        ? `\nExactly 0 lines match in the ${outcome.inScope} indexed file(s) in scope (masked secrets never match). ` +
          'For declared names, `code search` is faster and ranks them.\n'
        : '';
    return {
      data: {
        pattern: args.pattern,
        fixed_strings: args.fixed_strings,
        case_insensitive: compiled.ignoreCase,
        total_matches: outcome.totalLines,
        total_files: outcome.files.length,
        total_is_partial: outcome.partial,
        files_in_scope: outcome.inScope,
        files_read: outcome.read,
        generation: snapshot.generation,
        offset: page.start,
        next_offset: page.hasMore ? page.end : null,
        results: resultRows(page.items, readLines, args.context),
        not_indexed: note.json,
      },
      markdown: `${header}${zero}\n${blocks.join('\n')}${footer ? `\n${footer}\n` : ''}${note.markdown}`,
      filesRead: [...new Set(page.items.map((i) => i.match.path))],
      redactions,
    };
  },
});
