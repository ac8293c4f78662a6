import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { byteLength, type Page, pageFooter, takePage } from '../../core/budget.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import { compareStrings } from '../../core/order.js';
import type { IndexedFile, SnapshotReader, SymbolFact } from '../../index/reader.js';
import { fenced, renderSnippet } from '../../render/snippet.js';
import { maskedLinesOf } from '../../trust/secret-search.js';
import type { MeshServices } from '../services.js';
import { type RejectedNote, rejectedNote } from '../shared/rejected-note.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { displayOf, inScope, scopeLabel } from '../shared/workspace-paths.js';
import { isGeneratedPath } from '../shared/generated-code.js';
import { foldIdentical } from './file-ranking.js';
import { fuzzyScan } from './fuzzy-scan.js';
import { kindPriority, symbolIndexOf, type MatchTier } from './symbol-index.js';
import { notIndexedField, pageFields } from '../shared/output-shapes.js';

const STRIPPED_KINDS = new Set(['function', 'method']);

interface FileHit {
  readonly file: IndexedFile;
  readonly tier: MatchTier;
  readonly kindRank: number;
  /** Matching declarations, best first. */
  readonly symbols: SymbolFact[];
  /** Byte-identical files in other places, folded into this entry. */
  readonly copies: readonly IndexedFile[];
}

/** Snapshot order (root, then path): the tie-break that keeps equally good files in a stable order. */
const bySnapshotOrder = (a: IndexedFile, b: IndexedFile): number =>
  compareStrings(a.root, b.root) || compareStrings(a.path, b.path);

function rankFiles(snapshot: SnapshotReader, query: string, scope: string | undefined): FileHit[] {
  const byFile = new Map<
    IndexedFile,
    { tier: MatchTier; kindRank: number; symbols: { s: SymbolFact; index: number; tier: MatchTier }[] }
  >();
  for (const { ref, tier } of symbolIndexOf(snapshot).find(query)) {
    const file = ref.file;
    const symbol = file.facts.symbols[ref.symbol];
    if (!symbol || !inScope(file.absolutePath, scope)) continue;
    const entry = byFile.get(file) ?? { tier, kindRank: kindPriority(symbol.kind), symbols: [] };
    if (tier < entry.tier || (tier === entry.tier && kindPriority(symbol.kind) < entry.kindRank)) {
      entry.tier = tier;
      entry.kindRank = kindPriority(symbol.kind);
    }
    entry.symbols.push({ s: symbol, index: ref.symbol, tier });
    byFile.set(file, entry);
  }
  const ranked = [...byFile.entries()]
    .map(([file, entry]) => ({
      file,
      tier: entry.tier,
      kindRank: entry.kindRank,
      generated: Number(isGeneratedPath(file.path)),
      symbols: entry.symbols
        .sort(
          (a, b) =>
            a.tier - b.tier ||
            kindPriority(a.s.kind) - kindPriority(b.s.kind) ||
            a.s.startLine - b.s.startLine ||
            a.index - b.index,
        )
        .map((x) => x.s),
    }))
    .sort(
      (a, b) =>
        a.tier - b.tier ||
        a.generated - b.generated ||
        a.kindRank - b.kindRank ||
        bySnapshotOrder(a.file, b.file),
    );
  return foldIdentical(ranked);
}

/** The line the snippet anchors on: the declaration line if it still mentions the query, else the first line that does. */
function anchorOf(lines: readonly string[], symbol: SymbolFact, query: string): number | undefined {
  const needle = query.toLowerCase();
  const squash = (s: string) => s.toLowerCase().replace(/_/g, '');
  for (let line = symbol.startLine; line <= Math.min(symbol.endLine, symbol.startLine + 5); line++) {
    const text = lines[line - 1] ?? '';
    if (text.toLowerCase().includes(needle) || squash(text).includes(squash(query))) return line;
  }
  const found = lines.findIndex((text) => text.toLowerCase().includes(needle));
  return found === -1 ? undefined : found + 1;
}

interface RenderedEntry {
  readonly markdown: string;
  readonly json: Record<string, unknown>;
  readonly redactions: number;
  readonly path: string;
}

function renderEntry(
  snapshot: SnapshotReader,
  hit: FileHit,
  query: string,
  includeBody: boolean,
  position: number,
  languages: MeshServices['languages'],
): RenderedEntry | undefined {
  let source: string;
  try {
    source = readFileSync(hit.file.absolutePath, 'utf8');
  } catch {
    return undefined;
  }
  // The whole file is masked before anything is matched or shown: a secret spread over lines is masked even
  // when the snippet shows only its middle.
  const masked = maskedLinesOf(source);
  const lines = masked.lines;
  const first = hit.symbols[0];
  if (!first) return undefined;
  const anchor = anchorOf(lines, first, query);
  // The file changed since indexing and no longer mentions the query: it is not an answer any more.
  if (anchor === undefined) return undefined;
  const bodies = includeBody
    ? []
    : hit.file.facts.symbols
        .filter(
          (s) => STRIPPED_KINDS.has(s.kind) && s.bodyStartLine !== undefined && s.bodyEndLine !== undefined,
        )
        .map((s) => ({
          startLine: s.startLine,
          endLine: s.endLine,
          bodyStartLine: s.bodyStartLine as number,
          bodyEndLine: s.bodyEndLine as number,
        }));
  const spec = languages(hit.file.language);
  const snippet = renderSnippet({
    source: masked,
    anchor,
    bodies,
    indentBodies: spec?.bodyLayout === 'indented',
    bracesIncluded: spec?.bodyLayout === 'braces-included',
  });
  const fence = hit.file.language === undefined ? '' : (spec?.fence ?? hit.file.language);
  const path = displayOf(snapshot, hit.file);
  const declared = hit.symbols
    .slice(0, 3)
    .map((s) => `${s.kind} \`${s.qualifiedName}\` L${s.startLine}`)
    .join(', ');
  const more = hit.symbols.length > 3 ? ` and ${hit.symbols.length - 3} more` : '';
  const copies = hit.copies.map((c) => displayOf(snapshot, c));
  const identical =
    copies.length > 0
      ? `\nIdentical copies: ${copies
          .slice(0, 5)
          .map((c) => `\`${c}\``)
          .join(', ')}${copies.length > 5 ? ` and ${copies.length - 5} more` : ''}.`
      : '';
  const markdown = `### [${position}] \`${path}\` (L${snippet.startLine}-L${snippet.endLine})\n${declared}${more}${identical}\n${fenced(snippet.text, fence)}\n`;
  return {
    markdown,
    path,
    redactions: snippet.redactions,
    json: {
      path,
      root: hit.file.root,
      match: hit.tier === 0 ? 'exact' : hit.tier === 1 ? 'prefix' : 'substring',
      symbols: hit.symbols.map((s) => ({
        name: s.qualifiedName,
        kind: s.kind,
        line: s.startLine,
        end_line: s.endLine,
      })),
      snippet: { start_line: snippet.startLine, end_line: snippet.endLine, text: snippet.text },
      ...(copies.length > 0 ? { identical_copies: copies } : {}),
    },
  };
}

/** How many uncovered folders a zero answer names. */
const FIRST_UNCOVERED = 5;

/** The zero for declared names (authoritative when no code sits outside the roots), pointing at the full-text fallback. */
function noDeclarationAnswer(
  snapshot: SnapshotReader,
  query: string,
  scope: string | undefined,
  label: string,
  note: RejectedNote,
) {
  const scanned = snapshot.files.filter((f) => inScope(f.absolutePath, scope)).length;
  // Zero is authoritative only when every folder holding code is indexed: otherwise say where else to look.
  const uncovered = snapshot.serviceModel().uncovered;
  const verdict =
    uncovered.length === 0
      ? 'This is authoritative for declared names; do not re-check with grep.\n'
      : `Not authoritative for the whole workspace: ${uncovered.length} folder(s) with source code are outside every root ` +
        `(${uncovered
          .slice(0, FIRST_UNCOVERED)
          .map((f) => `\`${f}\``)
          .join(', ')}${uncovered.length > FIRST_UNCOVERED ? ', …' : ''}); ` +
        'search those with grep, or add them to `roots` (`meshlens init --auto --force` proposes them).\n';
  const markdown =
    `## Search results for \`${query}\` (scope: ${label})\n\n` +
    `Exactly 0 declarations whose name contains \`${query}\` in the indexed roots (${scanned} files in scope). ` +
    verdict +
    `Next: \`fuzzy: true\` scans file contents for the text; \`contracts dependents\` finds who uses a name.\n${note.markdown}`;
  return {
    data: {
      query,
      scope: label,
      total_files: 0,
      exact_files: 0,
      offset: 0,
      next_offset: null,
      results: [],
      not_indexed: note.json,
      ...(uncovered.length > 0 ? { uncovered_source_folders: uncovered.length } : {}),
    },
    markdown,
  };
}

interface PageRequest {
  readonly query: string;
  readonly includeBody: boolean;
  readonly offset: number;
  readonly limit: number;
  readonly budgetBytes: number;
  readonly languages: MeshServices['languages'];
}

/**
 * The page of files and their entries. Each file is read and rendered once: the page measures entries by
 * their Markdown, and the answer reuses them; a file that no longer renders is left out of the answer.
 */
function pageEntries(
  snapshot: SnapshotReader,
  hits: readonly FileHit[],
  request: PageRequest,
): { page: Page<FileHit>; entries: RenderedEntry[] } {
  const rendered = new Map<number, RenderedEntry | undefined>();
  const entryOf = (hit: FileHit, index: number) => {
    if (!rendered.has(index))
      rendered.set(
        index,
        renderEntry(snapshot, hit, request.query, request.includeBody, index + 1, request.languages),
      );
    return rendered.get(index);
  };
  const page = takePage(hits, {
    offset: request.offset,
    limit: request.limit,
    budgetBytes: request.budgetBytes,
    render: (hit, index) => entryOf(hit, index)?.markdown ?? '',
  });
  const entries = page.items
    .map((hit, i) => entryOf(hit, page.start + i))
    .filter((e): e is RenderedEntry => e !== undefined);
  return { page, entries };
}

/** What the answer shows: every matching file, the page of them, and its rendered entries. */
interface SearchView {
  readonly query: string;
  readonly label: string;
  readonly includeBody: boolean;
  readonly hits: readonly FileHit[];
  readonly page: Page<FileHit>;
  readonly entries: readonly RenderedEntry[];
  readonly limit: number;
  readonly note: RejectedNote;
}

const exactFilesOf = (hits: readonly FileHit[]): number => hits.filter((h) => h.tier === 0).length;

function searchMarkdown(view: SearchView): string {
  const { query, hits } = view;
  const exactFiles = exactFilesOf(hits);
  const exactLine =
    exactFiles > 0 && exactFiles < hits.length
      ? ` ${exactFiles} declare \`${query}\` exactly (listed first); the others contain it.`
      : exactFiles === hits.length
        ? ` All declare \`${query}\` exactly.`
        : '';
  const header = `## Search results for \`${query}\` (scope: ${view.label})\n_${hits.length} file(s) declare a matching name.${exactLine}_\n`;
  const tip = view.includeBody ? '' : '\nBodies are stripped; pass `include_body: true` to read them.\n';
  const footer = pageFooter(view.page, 'files', view.limit);
  return `${header}\n${view.entries.map((e) => e.markdown).join('\n')}${tip}${footer ? `\n${footer}\n` : ''}${view.note.markdown}`;
}

function searchJson(view: SearchView) {
  const { page } = view;
  return {
    query: view.query,
    scope: view.label,
    total_files: view.hits.length,
    exact_files: exactFilesOf(view.hits),
    offset: page.start,
    results: view.entries.map((e) => e.json),
    next_offset: page.hasMore ? page.end : null,
    not_indexed: view.note.json,
  };
}

export const codeSearch = defineOperation({
  domain: 'code',
  mode: 'search',
  flatName: 'smart_search',
  title: 'Find declarations',
  description:
    'Finds where classes, functions, methods, types, RPCs, messages and routes are declared, by case-insensitive substring of the declared name (not a regex), ranked exact > prefix > substring with contracts first, and shows each file\'s matching declarations with bodies stripped — e.g. query "PaymentService". DO NOT USE for free text, string literals or comments (use grep, or fuzzy: true).',
  args: {
    query: z
      .string()
      .min(1)
      .max(256)
      .describe('Part of a declared name, case-insensitive, e.g. "createOrder" or "Payment".'),
    scope: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Only files under this folder or file inside the roots, e.g. "services/payment"; omit, "." or "*" for all roots.',
      ),
    include_body: z
      .boolean()
      .default(false)
      .describe('Show full bodies instead of stripped ones, e.g. true to read an implementation.'),
    fuzzy: z
      .boolean()
      .default(false)
      .describe(
        'Only when no declaration matches: scan file contents for the text instead (slower), e.g. true for a log message.',
      ),
    limit: z.number().int().min(1).max(100).default(20).describe('Files per page, e.g. 10.'),
    offset: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe("Files to skip, from the previous page's footer, e.g. 20."),
  },
  output: z.looseObject({
    query: z.string(),
    scope: z.string().describe('The scope searched, as the caller gave it, or "all roots".'),
    fuzzy: z.boolean().optional().describe('True when file contents were scanned for the text.'),
    total_files: z.number().int().describe('Files with a match, over all pages.'),
    exact_files: z.number().int().optional().describe('Files with an exact name match.'),
    ...pageFields,
    results: z.array(z.looseObject({ path: z.string() })),
    not_indexed: notIndexedField,
    uncovered_source_folders: z.number().int().optional(),
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  pathFields: ['scope'],
  subject: (args) => args.scope ?? '*',
  truncationHint: (args) =>
    `The answer for \`${args.query}\` was too large: narrow \`scope\` to one service folder or lower \`limit\`.`,
  run(args, ctx: OperationContext<MeshServices>) {
    const snapshot = requireSnapshot(ctx.services);
    const scope = args.scope;
    const label = scopeLabel(snapshot, scope);
    const hits = rankFiles(snapshot, args.query, scope);
    const note = rejectedNote(snapshot, scope, args.query);
    if (hits.length === 0) {
      if (args.fuzzy)
        return fuzzyScan({
          snapshot,
          query: args.query,
          scope,
          label,
          limit: args.limit,
          offset: args.offset,
          pageBudget: ctx.pageBudget,
          note,
          signal: ctx.signal,
        });
      return noDeclarationAnswer(snapshot, args.query, scope, label, note);
    }
    const { page, entries } = pageEntries(snapshot, hits, {
      query: args.query,
      includeBody: args.include_body,
      offset: args.offset,
      limit: args.limit,
      budgetBytes: ctx.pageBudget - byteLength(note.markdown),
      languages: ctx.services.languages,
    });
    const view: SearchView = {
      query: args.query,
      label,
      includeBody: args.include_body,
      hits,
      page,
      entries,
      limit: args.limit,
      note,
    };
    return {
      data: searchJson(view),
      markdown: searchMarkdown(view),
      filesRead: entries.map((e) => e.path),
      redactions: entries.reduce((sum, e) => sum + e.redactions, 0),
    };
  },
});
