import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ToolError } from '../../core/errors.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import { declarationArgs, targetDeclaration } from '../code/declaration-target.js';
import type { MeshServices } from '../services.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { displayOf } from '../shared/workspace-paths.js';
import { commitShape, shownSubject } from './commit-view.js';
import { cursorOffset, nextCursor } from './cursor.js';
import { occurrenceOf } from './declaration-lines.js';
import { declarationKey, findDeclaration, parseVersion, requireParser } from './declaration-versions.js';
import { clampLimit, cursorArg, limitArg } from './git-args.js';
import { SHALLOW_REASON } from './history-page.js';
import {
  noCommitsYet,
  repoRelative,
  repositoryFor,
  shortSha,
  shownPath,
  type WorkspaceRepository,
} from './repository.js';
import { MAX_VERSIONS, walkSymbol, type SymbolChange } from './symbol-versions.js';

const LIMITS = { default: 20, max: 100 };

/** The working tree's text; a file deleted since indexing has none (its declaration is then gone). */
function readOrEmpty(absolute: string): string {
  try {
    return readFileSync(absolute, 'utf8');
  } catch {
    return '';
  }
}

const reasons = {
  shallow: SHALLOW_REASON,
  walk: `walk bound: at most ${MAX_VERSIONS} versions of the file are read`,
};

const changeJson = (repo: WorkspaceRepository, c: SymbolChange) => ({
  sha: c.commit.sha,
  short_sha: shortSha(c.commit.sha),
  parents: c.commit.parents,
  author: c.commit.author,
  email: c.commit.email,
  date: c.commit.date,
  subject: shownSubject(c.commit.subject),
  change: c.change,
  path: shownPath(repo, c.path),
  start_line: c.declaration?.startLine ?? null,
  end_line: c.declaration?.endLine ?? null,
});

function changeMarkdown(repo: WorkspaceRepository, relative: string, c: SymbolChange): string {
  const where = c.declaration
    ? ` (L${c.declaration.startLine}–${c.declaration.endLine}${c.path !== relative ? ` in \`${shownPath(repo, c.path)}\`` : ''})`
    : '';
  return `- \`${shortSha(c.commit.sha)}\` ${c.commit.date.slice(0, 10)} ${c.commit.author}: ${shownSubject(c.commit.subject)} — ${c.change.replace('_', ' ')}${where}`;
}

export const gitSymbolHistory = defineOperation({
  domain: 'git',
  mode: 'symbol_history',
  flatName: 'symbol_history',
  title: 'Commits that changed one declaration',
  description:
    'Lists the commits where one declaration\'s body changed (whitespace-only edits ignored), newest first, back to the commit that introduced it, following the file through renames and the declaration by kind and qualified name — e.g. path "services/payment/server.go" with name "ProcessPayment". DO NOT USE for every commit of a file (use git touching / commits_touching) or for who wrote each line (use git blame_symbol / blame_symbol).',
  args: {
    ...declarationArgs,
    limit: limitArg('Commits', LIMITS),
    cursor: cursorArg,
  },
  output: z.looseObject({
    path: z.string(),
    kind: z.string(),
    qualified_name: z.string(),
    head: z.string().nullable(),
    changed_since_head: z
      .boolean()
      .describe("True when the working tree's body differs from HEAD's (an uncommitted change)."),
    next_cursor: z.string().nullable(),
    truncated: z.boolean(),
    truncated_reason: z.string().optional(),
    commits: z.array(
      commitShape.extend({
        change: z.enum(['introduced', 'changed', 'removed', 'oldest_version']),
        path: z.string().describe('The file as of this commit.'),
        start_line: z.number().int().nullable(),
        end_line: z.number().int().nullable(),
      }),
    ),
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  subject: (args) => args.path ?? args.symbol ?? args.name,
  truncationHint: () => 'Too many commits for one answer: lower `limit`.',
  async run(args, ctx: OperationContext<MeshServices>) {
    const snapshot = requireSnapshot(ctx.services);
    const { file, symbol } = targetDeclaration(snapshot, args);
    const shown = displayOf(snapshot, file);
    if (file.language === undefined)
      throw new ToolError('invalid_argument', `\`${shown}\` has no language meshlens parses.`);
    const repo = await repositoryFor(snapshot, file.absolutePath, ctx.signal);
    const identity = { path: shown, kind: symbol.kind, qualified_name: symbol.qualifiedName };
    const offset = cursorOffset(args.cursor, 'symbol_history', repo.head);
    if (repo.head === undefined)
      return {
        data: {
          ...identity,
          head: null,
          changed_since_head: true,
          next_cursor: null,
          truncated: false,
          commits: [],
        },
        markdown: `${noCommitsYet(repo)}\n`,
      };
    const limit = clampLimit(args.limit, LIMITS.max);
    const target = {
      parser: requireParser(ctx.services.parseDeclarations),
      relative: repoRelative(repo, file.absolutePath),
      extractorPath: file.path,
      language: file.language,
      key: declarationKey(symbol),
      occurrence: occurrenceOf(file, symbol),
    };
    const walk = await walkSymbol(repo, target, offset + limit + 1, ctx.signal);
    const current = await parseVersion(
      target.parser,
      file.path,
      file.language,
      readOrEmpty(file.absolutePath),
    );
    const now =
      current.kind === 'parsed'
        ? findDeclaration(current.declarations, target.key, target.occurrence)
        : undefined;
    const changedSinceHead = now?.bodyHash !== walk.atHead?.bodyHash;
    const rows = walk.changes.slice(offset, offset + limit);
    const more = walk.changes.length > offset + limit;
    const next = nextCursor('symbol_history', repo.head, more ? offset + limit : undefined);
    const truncated = !more && walk.truncated !== undefined;
    const none =
      walk.changes.length === 0
        ? 'No commit holds this declaration yet: it exists only in the working tree.\n'
        : '';
    return {
      data: {
        ...identity,
        head: repo.head,
        changed_since_head: changedSinceHead,
        offset,
        next_cursor: next,
        truncated,
        ...(truncated && walk.truncated ? { truncated_reason: reasons[walk.truncated] } : {}),
        commits: rows.map((c) => changeJson(repo, c)),
      },
      markdown:
        `## History of ${symbol.kind} \`${symbol.qualifiedName}\` — \`${shown}\`\n\n` +
        (changedSinceHead ? '_The working tree changes it further (not committed)._\n\n' : '') +
        none +
        rows.map((c) => `${changeMarkdown(repo, target.relative, c)}\n`).join('') +
        (next !== null ? `\nMore: \`cursor: "${next}"\`.\n` : '') +
        (truncated && walk.truncated ? `\n> History is incomplete: ${reasons[walk.truncated]}.\n` : ''),
      filesRead: [shown],
    };
  },
});
