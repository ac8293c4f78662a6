import { z } from 'zod';
import { type Page, pageFooter, takePage } from '../../core/budget.js';
import { invalidArgument, ToolError } from '../../core/errors.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { IndexedFile, SnapshotReader } from '../../index/reader.js';
import type { MeshServices } from '../services.js';
import { indexedFileOf } from '../shared/file-address.js';
import { readIndexedText, STALE_NOTE } from '../shared/indexed-text.js';
import { pageFields } from '../shared/output-shapes.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { displayOf } from '../shared/workspace-paths.js';
import { type Definition, DefinitionResolver, type NameResolution } from './definition-resolve.js';
import { cell, declarationView, type DeclarationView, signatureRedactions } from './declaration-view.js';
import { pageArgs } from './page-args.js';
import { identifierAt, identifiersOn } from './identifier-at.js';

interface DefinitionRow {
  readonly view: DeclarationView;
  readonly definition: Definition;
}

/** What was looked up on the line: one name (with a column), or the calls or declaration of the line. */
interface Lookup {
  readonly names: readonly string[];
  readonly resolution: NameResolution;
  /** Calls on the line that the call graph binds to nothing in the workspace. */
  readonly unbound: readonly string[];
}

const listNames = (names: readonly string[]): string => names.map((n) => `\`${n}\``).join(', ');

function namesOnLine(text: string): string {
  const ids = identifiersOn(text).slice(0, 12);
  return ids.length === 0 ? 'none' : ids.map((id) => `\`${id.name}\` (column ${id.column})`).join(', ');
}

/** Without a column: the calls the graph binds on the line, else the calls it cannot bind, else its declaration. */
function lookupLine(
  resolver: DefinitionResolver,
  file: IndexedFile,
  line: number,
  text: string,
  where: string,
): Lookup {
  const bound = resolver.fromCallGraph(undefined);
  if (bound.length > 0)
    return {
      names: [...new Set(bound.map((d) => d.symbol.name))],
      resolution: { definitions: bound },
      unbound: [],
    };
  const calls = [...new Set((file.facts.calls ?? []).filter((c) => c.line === line).map((c) => c.name))];
  if (calls.length > 0) return { names: calls, resolution: { definitions: [] }, unbound: calls };
  const declared = file.facts.symbols.filter((s) => s.startLine === line && s.kind !== 'heading');
  if (declared.length > 0)
    return {
      names: declared.map((s) => s.name),
      resolution: {
        definitions: declared.map((symbol) => ({
          file,
          symbol,
          confidence: 'exact',
          via: 'declaration',
          call: false,
        })),
      },
      unbound: [],
    };
  if (identifiersOn(text).length === 0) throw invalidArgument(`\`${where}\` holds no name to resolve.`);
  throw invalidArgument(
    `\`${where}\` holds no call the call graph knows and no declaration. Pass \`column\` to pick a name on it: ${namesOnLine(text)}.`,
  );
}

function rowText(row: DefinitionRow, index: number): string {
  const v = row.view;
  const signature = v.signature === undefined ? '' : `\`${cell(v.signature)}\``;
  return `| ${index + 1} | \`${cell(v.name)}\` | ${v.kind} | ${cell(v.service)} | \`${cell(v.path)}:${v.line}\` | ${signature} | ${row.definition.confidence} | ${row.definition.via}${row.definition.call ? ' (call)' : ''} |`;
}

function zeroAnswer(lookup: Lookup): string {
  if (lookup.unbound.length > 0)
    return `The call(s) ${listNames(lookup.unbound)} on this line bind to no declaration in the indexed roots: a library, a standard function or a receiver whose type is not known.`;
  if (lookup.resolution.external !== undefined)
    return `${listNames(lookup.names)} comes from \`${lookup.resolution.external}\`, outside the indexed roots.`;
  if (lookup.resolution.namesakes !== undefined)
    return `${lookup.resolution.namesakes} declarations named ${listNames(lookup.names)} are visible from this file by name alone: too many to guess which one is meant. \`code references\` lists the uses; \`code search\` lists the declarations.`;
  return `No declaration named ${listNames(lookup.names)} that this file can see in the indexed roots (a local variable, a parameter, or a library name). \`code search\` finds declarations by part of their name.`;
}

interface AnswerView {
  readonly where: string;
  readonly text: string;
  readonly lookup: Lookup;
  readonly page: Page<DefinitionRow>;
  readonly limit: number;
  readonly stale: boolean;
}

function answerMarkdown(view: AnswerView): string {
  const { lookup, page } = view;
  const lines = [
    `## Definition of ${listNames(lookup.names)} at \`${view.where}\``,
    '',
    `> \`${cell(view.text.trim()).replace(/`/g, "'")}\``,
    '',
  ];
  if (page.total === 0) lines.push(zeroAnswer(lookup));
  else
    lines.push(
      '| # | declaration | kind | service | at | signature | confidence | via |',
      '|---|---|---|---|---|---|---|---|',
      ...page.rendered,
    );
  const footer = pageFooter(page, 'declarations', view.limit);
  if (footer) lines.push('', footer);
  if (view.stale) lines.push('', `> ${STALE_NOTE}`);
  return `${lines.join('\n')}\n`;
}

function lookupAt(
  snapshot: SnapshotReader,
  args: { line: number; column?: number | undefined },
  file: IndexedFile,
  text: string,
  ctx: OperationContext<MeshServices>,
): Lookup {
  const where = `${displayOf(snapshot, file)}:${args.line}`;
  const resolver = new DefinitionResolver(snapshot, ctx.services.languages, file, args.line);
  if (args.column === undefined) return lookupLine(resolver, file, args.line, text, where);
  const id = identifierAt(text, args.column);
  if (!id)
    throw invalidArgument(
      `No name at column ${args.column} of \`${where}\`. Names on the line: ${namesOnLine(text)}.`,
    );
  return { names: [id.name], resolution: resolver.resolve(id), unbound: [] };
}

export const codeDefinition = defineOperation({
  domain: 'code',
  mode: 'definition',
  flatName: 'find_definition',
  title: 'Go to definition',
  description:
    'From a place in a file (path, line, optional column) to the declaration(s) the name there refers to, through the call graph, the file\'s imports, its package and the type a qualifier names, with confidence and how it was bound; without a column, the calls on that line (or the declaration made on it) — e.g. path "services/orders/src/service.ts", line 9, column 15. DO NOT USE to find a declaration by name alone (use code search / smart_search) or to list every use of a name (use code references / find_references).',
  args: {
    path: z
      .string()
      .min(1)
      .max(1024)
      .describe('The file, workspace-relative as answers show it, e.g. "services/orders/src/service.ts".'),
    line: z.number().int().min(1).describe('1-based line of the use, e.g. 9.'),
    column: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        '1-based column of a character of the name (as editors show it), e.g. 15; omit for the calls on the line.',
      ),
    ...pageArgs('Declarations', { default: 20, max: 100 }),
  },
  output: z.looseObject({
    path: z.string(),
    line: z.number().int(),
    column: z.number().int().optional(),
    text: z.string().describe('The line, secrets masked.'),
    names: z.array(z.string()).describe('The name(s) looked up.'),
    total: z.number().int().describe('Declarations found, over all pages.'),
    ...pageFields,
    definitions: z.array(
      z.looseObject({
        symbol: z.string().describe('Pass as `symbol` to code callers, references or expand.'),
        path: z.string(),
        line: z.number().int(),
        kind: z.string(),
        name: z.string(),
        confidence: z.string(),
        via: z
          .string()
          .describe('How it was bound: declaration, import, self, type, constructor, file, package or name.'),
        call: z.boolean().describe('True when the call graph bound a call on the line to it.'),
      }),
    ),
    external: z.string().optional().describe('The import the name comes from, when it is outside the roots.'),
    unbound_calls: z.array(z.string()).optional(),
    namesakes: z
      .number()
      .int()
      .optional()
      .describe('Declarations the name could mean by name alone, when too many to list as candidates.'),
    stale: z.boolean().optional(),
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  subject: (args) => args.path,
  truncationHint: () => 'Too many declarations: pass `column` to pick one name, or lower `limit`.',
  run(args, ctx: OperationContext<MeshServices>) {
    const snapshot = requireSnapshot(ctx.services);
    const file = indexedFileOf(snapshot, 'path', args.path);
    const shown = displayOf(snapshot, file);
    const indexed = readIndexedText(file);
    if (!indexed)
      throw new ToolError('not_found', `\`${shown}\` can no longer be read; it may have been deleted.`);
    const lines = indexed.masked.lines;
    if (args.line > lines.length)
      throw invalidArgument(
        `\`${shown}\` has ${lines.length} line(s); \`line\` ${args.line} is past its end.`,
      );
    const text = lines[args.line - 1] ?? '';
    const lookup = lookupAt(snapshot, args, file, text, ctx);
    const rows: DefinitionRow[] = lookup.resolution.definitions.map((definition) => ({
      definition,
      view: declarationView(snapshot, definition.file, definition.symbol),
    }));
    const page = takePage(rows, {
      offset: args.offset,
      limit: args.limit,
      budgetBytes: ctx.pageBudget,
      render: rowText,
    });
    const where = `${shown}:${args.line}`;
    return {
      data: {
        path: shown,
        line: args.line,
        ...(args.column === undefined ? {} : { column: args.column }),
        text,
        names: [...lookup.names],
        total: rows.length,
        offset: page.start,
        next_offset: page.hasMore ? page.end : null,
        definitions: page.items.map((row) => ({
          ...row.view,
          confidence: row.definition.confidence,
          via: row.definition.via,
          call: row.definition.call,
        })),
        ...(lookup.resolution.external === undefined ? {} : { external: lookup.resolution.external }),
        ...(lookup.unbound.length > 0 ? { unbound_calls: [...lookup.unbound] } : {}),
        ...(lookup.resolution.namesakes === undefined ? {} : { namesakes: lookup.resolution.namesakes }),
        ...(indexed.stale ? { stale: true } : {}),
      },
      markdown: answerMarkdown({ where, text, lookup, page, limit: args.limit, stale: indexed.stale }),
      filesRead: [shown],
      redactions:
        indexed.masked.redactionsOn([args.line - 1]) + signatureRedactions(page.items.map((r) => r.view)),
    };
  },
});
