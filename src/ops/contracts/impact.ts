import { z } from 'zod';
import { type Page, pageFooter, takePage } from '../../core/budget.js';
import { invalidArgument } from '../../core/errors.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { GraphNode, SnapshotReader } from '../../index/reader.js';
import type { MeshServices } from '../services.js';
import { resolveContract, type ResolvedTarget } from '../shared/graph-queries.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { displayPath } from '../shared/workspace-paths.js';
import type { ImpactRow } from './impact-rows.js';
import { symbolImpactAnswer } from './impact-symbol-answer.js';
import { declarationString } from '../shared/declaration-arg.js';
import { collectImpact, type ImpactResult } from './impact-walk.js';
import { pageFields } from '../shared/output-shapes.js';
import { diffImpactAnswer } from './diff/diff-answer.js';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function headerOf(snapshot: SnapshotReader, node: GraphNode): string {
  const where =
    node.root !== undefined && node.file !== undefined
      ? ` (\`${displayPath(snapshot.roots, node.root, node.file)}:${node.line}\`)`
      : '';
  const kind =
    { grpc_method: 'gRPC method', grpc_service: 'gRPC service', topic: 'topic', http_route: 'HTTP route' }[
      node.kind as string
    ] ?? node.kind;
  return `${kind} \`${node.name}\`${where}`;
}

function location(snapshot: SnapshotReader, row: ImpactRow): string {
  return row.root !== undefined && row.file !== undefined
    ? `${displayPath(snapshot.roots, row.root, row.file)}:${row.line}`
    : '—';
}

/** The authoritative zero: nothing by that name among the indexed contracts. */
function notFoundAnswer(snapshot: SnapshotReader, target: string) {
  const markdown =
    `## Impact of \`${target}\`\n\n` +
    `Exactly 0 gRPC methods, services, topics or HTTP routes named \`${target}\` in the indexed roots ` +
    `(${snapshot.contractGraph().nodes.filter((n) => n.kind !== 'symbol' && n.kind !== 'module' && n.kind !== 'service').length} contracts searched). ` +
    'This is authoritative; do not re-check with grep.\n' +
    'Next: `code search` with part of the name finds where it is declared; `graph visualize` lists the contracts of a service.\n';
  return {
    data: { target, resolved: [], owners: [], total_rows: 0, offset: 0, next_offset: null, rows: [] },
    markdown,
  };
}

/** One table row; the hop column only when events are followed beyond the first hop. */
function rowText(snapshot: SnapshotReader, row: ImpactRow, index: number, hops: boolean): string {
  return `| ${index + 1} |${hops ? ` ${row.hop} |` : ''} ${row.scope} | ${row.role} | \`${cell(row.element)}\` | ${row.root ?? '—'} | \`${location(snapshot, row)}\` | ${row.confidence} | ${cell(row.via)} |`;
}

/** What the answer shows: the resolved contracts, what their change impacts, and the page of rows. */
interface ImpactView {
  readonly target: string;
  readonly depth: number;
  readonly routingKey: string | undefined;
  readonly limit: number;
  readonly kind: string;
  readonly resolved: ResolvedTarget;
  readonly impact: ImpactResult;
  readonly page: Page<ImpactRow>;
}

/** The heading, how the target matched, and the owning roots. */
function headerLines(snapshot: SnapshotReader, view: ImpactView): string[] {
  const { target, kind, resolved, impact } = view;
  const lines = [`## Impact of ${resolved.nodes.map((n) => headerOf(snapshot, n)).join(', ')}`, ''];
  if (resolved.nodes.length > 1)
    lines.push(
      `_\`${target}\` matches ${resolved.nodes.length} ${kind} contracts; rows cover all of them. Pass a qualified name to pick one._`,
    );
  if (resolved.match === 'substring')
    lines.push(`_No ${kind} is named exactly \`${target}\`; these contain it (heuristic)._`);
  lines.push(
    `Owner root(s): ${impact.owners.length ? impact.owners.map((o) => `\`${o}\``).join(', ') : '—'}. Depth ${view.depth}.`,
  );
  if (view.routingKey !== undefined)
    lines.push(
      `Routing key \`${view.routingKey}\`: producers publishing with another key and ${impact.unmatchedConsumers} consumer(s) whose binding key does not match it are left out.`,
    );
  lines.push('');
  return lines;
}

/** The page of rows as a table, or the authoritative zero. */
function tableLines(view: ImpactView): string[] {
  const { impact, page } = view;
  const hops = view.depth > 1;
  if (impact.rows.length === 0)
    return [
      `Exactly 0 impacted elements outside the contract itself in the indexed roots${impact.testRowsLeftOut ? ` (${impact.testRowsLeftOut} in test files left out)` : ''}.`,
    ];
  if (page.items.length === 0) return [];
  return [
    `| # |${hops ? ' Hop |' : ''} Scope | Role | Element | Root | Location | Confidence | Via |`,
    `|---|${hops ? '---|' : ''}---|---|---|---|---|---|---|`,
    ...page.rendered.map((r) => r.trimEnd()),
    '',
  ];
}

/** Where the answer may be incomplete: topics with one side unresolved, file-level hops, test rows left out. */
function caveatLines(impact: ImpactResult): string[] {
  const lines: string[] = [];
  for (const topic of impact.noProducer)
    lines.push(
      `No producer resolved for topic \`${topic}\` (it may be produced outside the indexed roots, by infrastructure such as a database trigger, or under another name).`,
    );
  for (const topic of impact.noConsumer)
    lines.push(
      `No consumer resolved for topic \`${topic}\` (it may be consumed outside the indexed roots or under another name).`,
    );
  if (impact.fileLevelHops > 0)
    lines.push(
      'Some hops follow a producer declared in the same file as a consumer; those rows are heuristic.',
    );
  if (impact.testRowsLeftOut > 0)
    lines.push(`${impact.testRowsLeftOut} more in test files left out (\`include_tests: true\` lists them).`);
  return lines;
}

function impactMarkdown(snapshot: SnapshotReader, view: ImpactView): string {
  const lines = [...headerLines(snapshot, view), ...tableLines(view), ...caveatLines(view.impact)];
  const footer = pageFooter(view.page, 'rows', view.limit);
  if (footer) lines.push('', footer);
  return `${lines.join('\n')}\n`;
}

function impactJson(snapshot: SnapshotReader, view: ImpactView) {
  const { resolved, impact, page } = view;
  return {
    target: view.target,
    resolved: resolved.nodes.map((n) => ({
      kind: n.kind,
      name: n.name,
      root: n.root ?? null,
      file: n.file ?? null,
      line: n.line ?? null,
    })),
    match: resolved.match,
    owners: impact.owners,
    depth: view.depth,
    ...(view.routingKey === undefined
      ? {}
      : { routing_key: view.routingKey, unmatched_consumers: impact.unmatchedConsumers }),
    total_rows: impact.rows.length,
    offset: page.start,
    rows: page.items.map((row) => ({ ...row, location: location(snapshot, row) })),
    next_offset: page.hasMore ? page.end : null,
    tests_left_out: impact.testRowsLeftOut,
    no_producer: impact.noProducer,
    no_consumer: impact.noConsumer,
  };
}

export const contractsImpact = defineOperation({
  domain: 'contracts',
  mode: 'impact',
  flatName: 'analyze_impact',
  title: 'Impact of a contract change',
  description:
    'Lists everything impacted if a gRPC method or service, an event topic or an HTTP route changes: clients, handlers, producers and consumers, INTERNAL or EXTERNAL to the owning service, with file:line and confidence, following re-emitted events up to `depth` hops — e.g. target "PaymentService.ProcessPayment" or "orders.created". With `symbol` instead, what changing one function breaks in every service: its callers up to the entry points of its service, then the code in other services calling those entry points, to `depth` services — e.g. symbol "services/payment/store.go:transition". With `diff` (a git revision, "HEAD" for uncommitted work), the impact of the working tree against it: the declarations and contracts it touches (proto wire-breaking changes, route and topic renames), what they reach across services, and the tests worth running, as one table and a paste-able summary. A zero result is authoritative. DO NOT USE to find where a name is declared (use code search / smart_search).',
  args: {
    target: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .describe(
        'An RPC, service, topic or route (or give `symbol`), e.g. "ProcessPayment", "shop.payment.v1.PaymentService/ProcessPayment", "orders.created" or "GET /orders/{id}".',
      ),
    symbol: declarationString()
      .optional()
      .describe(
        'A declaration as "<path>:<name>" (or give `target`): lists its callers up to the entry points of its service and the services calling those, e.g. "services/payment/store.go:transition".',
      ),
    diff: z
      .string()
      .max(256)
      .optional()
      .describe(
        'A git revision to compare the working tree with (staged, unstaged and untracked files), instead of `target`/`symbol`: "HEAD" for uncommitted work, "main" for a branch, e.g. "HEAD".',
      ),
    depth: z
      .number()
      .int()
      .min(1)
      .max(5)
      .optional()
      .describe(
        'With `target`: event hops to follow (default 1 = direct impact only). With `symbol`: services to cross (default 2 = its own and those calling its entry points). E.g. 3.',
      ),
    routing_key: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .describe(
        'For an AMQP exchange: the routing key a message is published with; lists only producers using it and consumers whose binding key matches (`*` one word, `#` any), e.g. "kern.critical".',
      ),
    include_tests: z
      .boolean()
      .default(false)
      .describe('Also list impacted code in test files (otherwise counted), e.g. true.'),
    limit: z.number().int().min(1).max(200).default(100).describe('Rows per page, e.g. 50.'),
    offset: z.number().int().min(0).default(0).describe('Rows to skip, from the previous footer, e.g. 100.'),
  },
  output: z.looseObject({
    target: z.string().optional().describe('The contract asked about (`target` calls).'),
    symbol: z.string().optional().describe('The declaration asked about (`symbol` calls).'),
    diff: z.string().optional().describe('The revision the working tree was compared with (`diff` calls).'),
    changes: z
      .array(z.looseObject({ kind: z.string(), change: z.string(), what: z.string(), location: z.string() }))
      .optional()
      .describe('`diff` calls: each change, breaking first (wire findings, contracts, declarations).'),
    tests: z
      .array(z.looseObject({ service: z.string(), test: z.string(), location: z.string() }))
      .optional()
      .describe('`diff` calls: tests reaching the changed declarations through the call graph, per service.'),
    still_used: z
      .array(z.looseObject({ what: z.string(), users: z.number().int() }))
      .optional()
      .describe('`diff` calls: contracts or declarations removed while code still uses them.'),
    failing: z.boolean().optional().describe('`diff` calls: a wire-breaking change or a removal still used.'),
    declaration: z
      .looseObject({ name: z.string(), path: z.string(), service: z.string() })
      .optional()
      .describe('`symbol` calls: the declaration found, with its service.'),
    resolved: z.array(z.looseObject({ kind: z.string(), name: z.string() })).optional(),
    match: z.string().optional(),
    owners: z.array(z.string()).optional(),
    depth: z.number().int().optional(),
    routing_key: z.string().optional(),
    total_rows: z.number().int(),
    ...pageFields,
    rows: z.array(
      z.looseObject({
        hop: z.number().int(),
        role: z.string().optional().describe('`target` calls: client, handler, producer, consumer or topic.'),
        element: z.string().optional().describe('`target` calls: the code (or topic) impacted.'),
        scope: z.string().optional().describe('`symbol` calls: "same service" or "cross-service".'),
        service: z.string().optional().describe('`symbol` calls: the service of the function.'),
        function: z
          .string()
          .optional()
          .describe(
            '`symbol` calls: the function reached; `diff` calls: the function or contract role and element.',
          ),
        why: z.array(z.string()).optional().describe('`diff` calls: the changes reaching this row.'),
        via: z
          .string()
          .optional()
          .describe('`symbol` calls: target, call, or the contract crossed (route, rpc, topic).'),
        entry_points: z
          .array(z.string())
          .optional()
          .describe('`symbol` calls: the contracts the function is an entry point of.'),
        confidence: z.string(),
        location: z.string().describe('Workspace-relative `path:line`.'),
      }),
    ),
    tests_left_out: z.number().int().optional(),
    no_producer: z.array(z.unknown()).optional(),
    no_consumer: z.array(z.unknown()).optional(),
    not_followed: z
      .array(z.string())
      .optional()
      .describe('`symbol` calls: entry-point contracts at the last service level, not followed further.'),
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  subject: (args) =>
    args.target ?? args.symbol ?? (args.diff === undefined ? undefined : `diff ${args.diff}`),
  truncationHint: (args) =>
    `The impact of \`${args.target ?? args.symbol ?? args.diff}\` is large: page with \`offset\`${args.diff === undefined ? ', lower `depth`' : ''}${args.target ? ', or name one method (`Service.Method`)' : ''}.`,
  run(args, ctx: OperationContext<MeshServices>) {
    checkOneSubject(args);
    const snapshot = requireSnapshot(ctx.services);
    if (args.diff !== undefined) {
      const unused = (['depth', 'routing_key'] as const).filter((k) => args[k] !== undefined);
      if (unused.length > 0 || args.include_tests)
        throw invalidArgument(
          `\`${unused[0] ?? 'include_tests'}\` does not apply to \`diff\`: a diff's impact walks two services from each changed declaration and lists the tests worth running separately. Leave it out.`,
        );
      return diffImpactAnswer(ctx.services.index, snapshot, {
        diff: args.diff,
        limit: args.limit,
        offset: args.offset,
        pageBudget: ctx.pageBudget,
        signal: ctx.signal,
      });
    }
    if (args.symbol !== undefined) {
      if (args.routing_key !== undefined)
        throw invalidArgument('`routing_key` narrows a `target` exchange; it does not apply to `symbol`.');
      return symbolImpactAnswer(snapshot, {
        symbol: args.symbol,
        depth: args.depth ?? 2,
        includeTests: args.include_tests,
        limit: args.limit,
        offset: args.offset,
        pageBudget: ctx.pageBudget,
      });
    }
    return targetAnswer(snapshot, { ...args, target: args.target as string, depth: args.depth ?? 1 }, ctx);
  },
});

/** Exactly one of `target`, `symbol` and `diff`, or a message saying which to give. */
function checkOneSubject(args: {
  target?: string | undefined;
  symbol?: string | undefined;
  diff?: string | undefined;
}): void {
  const given = (['target', 'symbol', 'diff'] as const).filter((k) => args[k] !== undefined);
  if (given.length === 0)
    throw invalidArgument(
      'Give `target` (a contract, e.g. "orders.created"), `symbol` (a declaration, e.g. "services/payment/store.go:transition") or `diff` (a git revision, e.g. "HEAD").',
    );
  if (given.length > 1)
    throw invalidArgument(
      `Give one of \`target\` (a contract), \`symbol\` (a declaration) or \`diff\` (a git revision), not ${given.map((g) => `\`${g}\``).join(' and ')}.`,
    );
}

/** `contracts impact --target`: who is impacted when a contract changes. */
function targetAnswer(
  snapshot: SnapshotReader,
  args: {
    target: string;
    depth: number;
    routing_key?: string | undefined;
    include_tests: boolean;
    limit: number;
    offset: number;
  },
  ctx: OperationContext<MeshServices>,
) {
  const { kind, resolved } = resolveContract(snapshot.contractGraph(), args.target);
  if (resolved.nodes.length === 0) return notFoundAnswer(snapshot, args.target);
  const impact = collectImpact(snapshot, resolved.nodes, args.depth, args.include_tests, args.routing_key);
  const hops = args.depth > 1;
  const page = takePage(impact.rows, {
    offset: args.offset,
    limit: args.limit,
    budgetBytes: ctx.pageBudget,
    render: (row, i) => `${rowText(snapshot, row, i, hops)}\n`,
  });
  const view: ImpactView = {
    target: args.target,
    depth: args.depth,
    routingKey: args.routing_key,
    limit: args.limit,
    kind,
    resolved,
    impact,
    page,
  };
  return { data: impactJson(snapshot, view), markdown: impactMarkdown(snapshot, view) };
}
