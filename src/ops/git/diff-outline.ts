import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ToolError } from '../../core/errors.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { MeshServices } from '../services.js';
import { indexedFileOf } from '../shared/file-address.js';
import { readBlobs } from '../shared/git/cat-file.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { displayOf } from '../shared/workspace-paths.js';
import {
  declarationKey,
  MAX_VERSION_BYTES,
  parseVersion,
  requireParser,
  type VersionedDeclaration,
} from './declaration-versions.js';
import { filePathArg, revisionArg } from './git-args.js';
import { repoRelative, repositoryFor, shortSha } from './repository.js';
import { commitOf } from './revisions.js';

interface Comparison {
  readonly added: VersionedDeclaration[];
  readonly removed: VersionedDeclaration[];
  readonly changed: { old: VersionedDeclaration; now: VersionedDeclaration }[];
  readonly unchanged: number;
}

/** Pairs declarations by kind and qualified name (the n-th namesake with the n-th) and compares bodies. */
export function compare(
  old: readonly VersionedDeclaration[],
  now: readonly VersionedDeclaration[],
): Comparison {
  const pending = new Map<string, VersionedDeclaration[]>();
  for (const d of old) pending.set(declarationKey(d), [...(pending.get(declarationKey(d)) ?? []), d]);
  const result: Comparison = { added: [], removed: [], changed: [], unchanged: 0 };
  let unchanged = 0;
  for (const d of now) {
    const before = pending.get(declarationKey(d))?.shift();
    if (!before) result.added.push(d);
    else if (before.bodyHash !== d.bodyHash) result.changed.push({ old: before, now: d });
    else unchanged++;
  }
  for (const rest of pending.values()) result.removed.push(...rest);
  result.removed.sort((a, b) => a.startLine - b.startLine);
  return { ...result, unchanged };
}

const declJson = (d: VersionedDeclaration) => ({
  kind: d.kind,
  qualified_name: d.qualifiedName,
  start_line: d.startLine,
  end_line: d.endLine,
});
const span = (d: VersionedDeclaration) =>
  d.startLine === d.endLine ? `L${d.startLine}` : `L${d.startLine}–${d.endLine}`;
const declShape = z.looseObject({
  kind: z.string(),
  qualified_name: z.string(),
  start_line: z.number().int(),
  end_line: z.number().int(),
});

export const gitDiffOutline = defineOperation({
  domain: 'git',
  mode: 'diff_outline',
  flatName: 'outline_diff',
  title: 'Declarations changed in a file since a revision',
  description:
    'Compares the declarations of one indexed file in the working tree with the same file at a revision: which were added, removed, or changed (body edited beyond whitespace), matched by kind and qualified name with the same extractor the index uses — e.g. path "services/payment/server.go", rev "main". DO NOT USE to read the changed lines (use git diff / file_diff) or for one declaration\'s history (use git symbol_history / symbol_history).',
  args: {
    path: filePathArg('The indexed file'),
    rev: revisionArg('Compare against this commit (default "HEAD")'),
  },
  output: z.looseObject({
    path: z.string(),
    rev: z.string(),
    present_at_rev: z.boolean(),
    added: z.array(declShape),
    removed: z.array(declShape).describe('Lines are those at `rev`.'),
    changed: z.array(declShape.extend({ old_start_line: z.number().int(), old_end_line: z.number().int() })),
    unchanged: z.number().int(),
  }),
  capabilities: { requiresIndex: true, idempotent: true },
  subject: (args) => args.path,
  async run(args, ctx: OperationContext<MeshServices>) {
    const snapshot = requireSnapshot(ctx.services);
    const file = indexedFileOf(snapshot, 'path', args.path);
    const shown = displayOf(snapshot, file);
    if (file.language === undefined || file.outcome !== 'parsed')
      throw new ToolError(
        'invalid_argument',
        `\`${shown}\` has no declarations meshlens extracts: use \`git diff\` for its lines.`,
      );
    const repo = await repositoryFor(snapshot, file.absolutePath, ctx.signal);
    const commit = await commitOf(repo, 'rev', args.rev ?? 'HEAD', ctx.signal);
    const [blob] = await readBlobs([`${commit}:${repoRelative(repo, file.absolutePath)}`], {
      cwd: repo.top,
      signal: ctx.signal,
      maxBlobBytes: MAX_VERSION_BYTES,
    });
    if (blob?.kind === 'too_large')
      throw new ToolError(
        'invalid_argument',
        `\`${shown}\` at \`${shortSha(commit)}\` is ${blob.size} bytes, over the ${MAX_VERSION_BYTES}-byte limit for parsing.`,
      );
    let current: string;
    try {
      current = readFileSync(file.absolutePath, 'utf8');
    } catch {
      throw new ToolError('not_found', `\`${shown}\` can no longer be read; it may have been deleted.`);
    }
    const parser = requireParser(ctx.services.parseDeclarations);
    const now = await parseVersion(parser, file.path, file.language, current);
    const old =
      blob?.kind === 'content' ? await parseVersion(parser, file.path, file.language, blob.text) : undefined;
    if (now.kind === 'failed')
      throw new ToolError('unavailable', `\`${shown}\` could not be parsed: ${now.reason}.`);
    if (old?.kind === 'failed')
      throw new ToolError(
        'unavailable',
        `\`${shown}\` at \`${shortSha(commit)}\` could not be parsed: ${old.reason}.`,
      );
    const result = compare(old?.declarations ?? [], now.declarations);
    const list = (title: string, rows: string[]) =>
      rows.length > 0 ? `\n**${title}** (${rows.length})\n${rows.join('\n')}\n` : '';
    const markdown =
      `## Declarations of \`${shown}\`: working tree against \`${shortSha(commit)}\`\n` +
      (old === undefined ? `\nThe file is not in \`${shortSha(commit)}\`: every declaration is new.\n` : '') +
      list(
        'Added',
        result.added.map((d) => `- ${d.kind} \`${d.qualifiedName}\` ${span(d)}`),
      ) +
      list(
        'Removed',
        result.removed.map((d) => `- ${d.kind} \`${d.qualifiedName}\` (was ${span(d)})`),
      ) +
      list(
        'Changed',
        result.changed.map(
          ({ old: o, now: n }) => `- ${n.kind} \`${n.qualifiedName}\` ${span(n)} (was ${span(o)})`,
        ),
      ) +
      `\n${result.unchanged} declaration(s) unchanged.\n`;
    return {
      data: {
        path: shown,
        rev: commit,
        present_at_rev: old !== undefined,
        added: result.added.map(declJson),
        removed: result.removed.map(declJson),
        changed: result.changed.map(({ old: o, now: n }) => ({
          ...declJson(n),
          old_start_line: o.startLine,
          old_end_line: o.endLine,
        })),
        unchanged: result.unchanged,
      },
      markdown,
      filesRead: [shown],
    };
  },
});
