import { z } from 'zod';
import { pageFooter, takePage } from '../../core/budget.js';
import { invalidArgument, ToolError } from '../../core/errors.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import { compareStrings } from '../../core/order.js';
import type { SnapshotReader } from '../../index/reader.js';
import type { MeshServices } from '../services.js';
import { declarationNamed, declarationString } from '../shared/declaration-arg.js';
import {
  codeNode,
  FlowGraph,
  flowKey,
  nodeLabel,
  nodeLocation,
  stepLocation,
  type FlowNode,
  type FlowStep,
  type StepKind,
} from '../shared/flow-graph.js';
import { resolveContract } from '../shared/graph-queries.js';
import { pageFields } from '../shared/output-shapes.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { isTestPath } from '../shared/workspace-paths.js';

const EDGE_KINDS = [
  'call',
  'serves_http',
  'implements',
  'consumes',
  'calls_http',
  'calls_rpc',
  'produces',
  'proxies_http',
] as const satisfies readonly StepKind[];

/** Nodes a neighbourhood visits at most before it stops growing. */
const MAX_NODES = 2000;

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

interface Found {
  readonly hop: number;
  readonly step: FlowStep;
}

interface Neighbourhood {
  readonly edges: readonly Found[];
  readonly testEdgesLeftOut: number;
  readonly capped: boolean;
}

const edgeKey = (step: FlowStep): string =>
  `${flowKey(step.from)}\u0001${flowKey(step.to)}\u0001${step.kind}\u0001${step.file.root}\u0001${step.file.path}\u0001${step.line}`;

/** Edges within `depth` hops of the start nodes, breadth first, each once, at the hop it is first met. */
function neighbourhood(
  flow: FlowGraph,
  starts: readonly FlowNode[],
  options: {
    depth: number;
    direction: 'in' | 'out' | 'both';
    kinds: ReadonlySet<StepKind>;
    includeTests: boolean;
  },
): Neighbourhood {
  const visited = new Set(starts.map(flowKey));
  const seen = new Set<string>();
  const edges: Found[] = [];
  const testEdges = new Set<string>();
  let capped = false;
  let level = [...starts];
  for (let hop = 1; hop <= options.depth && level.length > 0; hop++) {
    const next: FlowNode[] = [];
    for (const node of level) {
      const { incoming, outgoing } = flow.around(node);
      const touching = [
        ...(options.direction === 'out' ? [] : incoming.map((step) => ({ step, other: step.from }))),
        ...(options.direction === 'in' ? [] : outgoing.map((step) => ({ step, other: step.to }))),
      ];
      for (const { step, other } of touching) {
        if (!options.kinds.has(step.kind)) continue;
        const key = edgeKey(step);
        if (!options.includeTests && isTestPath(step.file.path)) {
          testEdges.add(key);
          continue;
        }
        if (seen.has(key)) continue;
        seen.add(key);
        edges.push({ hop, step });
        const otherKey = flowKey(other);
        if (visited.has(otherKey)) continue;
        if (visited.size >= MAX_NODES) {
          capped = true;
          continue;
        }
        visited.add(otherKey);
        next.push(other);
      }
    }
    level = next;
  }
  return { edges, testEdgesLeftOut: testEdges.size, capped };
}

function startNodes(
  snapshot: SnapshotReader,
  symbol: string | undefined,
  contract: string | undefined,
): FlowNode[] {
  if ((symbol === undefined) === (contract === undefined))
    throw invalidArgument(
      symbol === undefined
        ? 'Give `symbol` (a declaration, e.g. "services/payment/store.go:transition") or `contract` (a route, RPC or topic, e.g. "orders.created").'
        : 'Give either `symbol` (a declaration) or `contract` (a route, RPC or topic), not both.',
    );
  if (symbol !== undefined) {
    const found = declarationNamed(snapshot, 'symbol', symbol);
    return [codeNode(found.file, found.symbol.id)];
  }
  const { resolved } = resolveContract(snapshot.contractGraph(), contract as string);
  if (resolved.nodes.length === 0)
    throw new ToolError(
      'not_found',
      `No HTTP route, gRPC method or service, or topic named \`${contract}\` in the indexed roots. \`graph visualize\` lists the contracts of a service.`,
    );
  return resolved.nodes.map((node) => ({ kind: 'contract', node }));
}

/** The edge kinds a comma-separated list names; every kind when absent. */
function kindsOf(list: string | undefined): ReadonlySet<StepKind> {
  if (list === undefined) return new Set(EDGE_KINDS);
  const names = list
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const unknown = names.filter((k) => !(EDGE_KINDS as readonly string[]).includes(k));
  if (names.length === 0 || unknown.length > 0)
    throw invalidArgument(
      `\`kinds\` must list edge kinds among ${EDGE_KINDS.map((k) => `\`${k}\``).join(', ')}; got ${JSON.stringify(list)}.`,
    );
  return new Set(names as StepKind[]);
}

export const graphNeighbors = defineOperation({
  domain: 'graph',
  mode: 'neighbors',
  flatName: 'explore_neighbors',
  title: 'Typed neighbourhood',
  description:
    'The typed edges within n hops of a declaration or a contract: calls (caller → callee) and contract evidence (handler serves_http a route, client calls_rpc a method, producer produces a topic, consumer consumes it), each with confidence and the `path:line` it was found at — e.g. symbol "services/payment/server.go:server.RefundPayment" or contract "orders.created", depth 2, kinds "call,calls_rpc". DO NOT USE for whole chains (use graph calls / trace_calls).',
  args: {
    symbol: declarationString()
      .optional()
      .describe(
        'A declaration as "<path>:<name>" (or give `contract`), e.g. "services/payment/store.go:transition".',
      ),
    contract: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .describe(
        'A route, RPC, gRPC service or topic (or give `symbol`), e.g. "GET /payments/{id}", "PaymentService.RefundPayment" or "orders.created".',
      ),
    depth: z.number().int().min(1).max(4).default(1).describe('Hops to go out, e.g. 2.'),
    direction: z
      .enum(['in', 'out', 'both'])
      .default('both')
      .describe('Edges reaching the nodes (in), leaving them (out) or both, e.g. "in".'),
    kinds: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe(
        `Edge kinds to follow, comma-separated (default: all of ${EDGE_KINDS.join(', ')}), e.g. "call,serves_http".`,
      ),
    include_tests: z
      .boolean()
      .default(false)
      .describe('Also list edges found in test files (otherwise counted), e.g. true.'),
    limit: z.number().int().min(1).max(200).default(50).describe('Edges per page, e.g. 100.'),
    offset: z.number().int().min(0).default(0).describe('Edges to skip, from the previous footer, e.g. 50.'),
  },
  output: z.looseObject({
    start: z.array(z.string()).describe('The nodes the neighbourhood is around.'),
    depth: z.number().int(),
    total_edges: z.number().int(),
    ...pageFields,
    edges: z.array(
      z.looseObject({
        hop: z.number().int(),
        from: z.string(),
        kind: z.string(),
        to: z.string(),
        confidence: z.string(),
        location: z.string().describe('Where the edge was found, `path:line`.'),
      }),
    ),
    tests_left_out: z.number().int(),
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  subject: (args) => args.symbol ?? args.contract,
  truncationHint: () =>
    'The neighbourhood is large: lower `depth`, pick `kinds` or a `direction`, or page with `offset`.',
  run(args, ctx: OperationContext<MeshServices>) {
    const snapshot = requireSnapshot(ctx.services);
    const starts = startNodes(snapshot, args.symbol, args.contract);
    const flow = new FlowGraph(snapshot);
    const found = neighbourhood(flow, starts, {
      depth: args.depth,
      direction: args.direction,
      kinds: kindsOf(args.kinds),
      includeTests: args.include_tests,
    });
    const rows = found.edges
      .map(({ hop, step }) => ({
        hop,
        from: nodeLabel(step.from),
        kind: step.kind,
        to: nodeLabel(step.to),
        confidence: step.confidence,
        location: stepLocation(snapshot, step),
      }))
      .sort(
        (a, b) =>
          a.hop - b.hop ||
          compareStrings(a.kind, b.kind) ||
          compareStrings(a.from, b.from) ||
          compareStrings(a.to, b.to) ||
          compareStrings(a.location, b.location),
      );
    const page = takePage(rows, {
      offset: args.offset,
      limit: args.limit,
      budgetBytes: ctx.pageBudget,
      render: (r, i) =>
        `| ${i + 1} | ${r.hop} | \`${cell(r.from)}\` | ${r.kind} | \`${cell(r.to)}\` | ${r.confidence} | \`${r.location}\` |\n`,
    });
    const labels = starts.map((node) => `\`${nodeLabel(node)}\` (\`${nodeLocation(snapshot, node)}\`)`);
    const lines = [
      `## Neighbourhood of ${labels.join(', ')}`,
      '',
      `Depth ${args.depth}, ${args.direction}. ${rows.length} edge(s).`,
      '',
    ];
    if (rows.length === 0)
      lines.push(`Exactly 0 ${args.kinds ? `${args.kinds} ` : ''}edges within ${args.depth} hop(s).`);
    else if (page.items.length > 0)
      lines.push(
        '| # | Hop | From | Edge | To | Confidence | Location |',
        '|---|---|---|---|---|---|---|',
        ...page.rendered.map((r) => r.trimEnd()),
        '',
      );
    if (found.testEdgesLeftOut > 0)
      lines.push(
        `${found.testEdgesLeftOut} edge(s) found in test files left out (\`include_tests: true\` lists them).`,
      );
    if (found.capped) lines.push(`Stopped growing at ${MAX_NODES} nodes; lower \`depth\` or pick \`kinds\`.`);
    const footer = pageFooter(page, 'edges', args.limit);
    if (footer) lines.push('', footer);
    return {
      data: {
        start: starts.map(nodeLabel),
        depth: args.depth,
        total_edges: rows.length,
        offset: page.start,
        edges: page.items,
        next_offset: page.hasMore ? page.end : null,
        tests_left_out: found.testEdgesLeftOut,
      },
      markdown: `${lines.join('\n').replace(/\n{3,}/g, '\n\n')}\n`,
    };
  },
});
