import { z } from 'zod';
import { pageFooter, takePage } from '../../core/budget.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { SnapshotReader } from '../../index/reader.js';
import type { MeshServices } from '../services.js';
import { declarationNamed, declarationString } from '../shared/declaration-arg.js';
import {
  codeNode,
  FlowGraph,
  nodeLabel,
  nodeLocation,
  stepLocation,
  stepVia,
  type FlowNode,
} from '../shared/flow-graph.js';
import { pageFields } from '../shared/output-shapes.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { isTestPath } from '../shared/workspace-paths.js';
import { chainConfidence, chainsBetween, chainsFromEntryPoints, type Chain } from './call-chains.js';

/** Shortest chains listed at most between two declarations (they can multiply through diamonds). */
const MAX_CHAINS = 100;

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

type Direction = 'from_to' | 'to_from' | 'entry_points';

/** Each node of a chain, where it was reached (the call site, the client call; the start: its declaration). */
function chainRows(snapshot: SnapshotReader, chain: Chain) {
  return chain.nodes.map((node, i) => {
    const step = i > 0 ? chain.steps[i - 1] : undefined;
    return {
      node: nodeLabel(node),
      kind: node.kind,
      location: step ? stepLocation(snapshot, step) : nodeLocation(snapshot, node),
      via: step ? stepVia(step) : null,
      confidence: step?.confidence ?? null,
    };
  });
}

function chainText(snapshot: SnapshotReader, chain: Chain, index: number): string {
  const rows = chainRows(snapshot, chain);
  const lines = [
    `### ${index + 1}. \`${cell(rows[0]?.node ?? '')}\` → \`${cell(rows[rows.length - 1]?.node ?? '')}\` (${chain.steps.length} step(s), ${chainConfidence(chain)})`,
    '',
    '| Step | Node | Location | Via | Confidence |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r, i) =>
        `| ${i} | \`${cell(r.node)}\` | \`${r.location}\` | ${cell(r.via ?? '—')} | ${r.confidence ?? '—'} |`,
    ),
    '',
  ];
  return `${lines.join('\n')}\n`;
}

function headline(direction: Direction, from: string, to: string | undefined, total: number): string {
  if (direction === 'entry_points')
    return `${total} entry point chain(s) reach \`${from}\` (shortest chain from each entry point; contracts are not crossed).`;
  const [a, b] = direction === 'from_to' ? [from, to] : [to, from];
  const reversed =
    direction === 'to_from' ? ` (\`${from}\` does not reach \`${to}\`; the other way round it does)` : '';
  return `${total} shortest chain(s) from \`${a}\` to \`${b}\`${reversed}.`;
}

export const graphCalls = defineOperation({
  domain: 'graph',
  mode: 'calls',
  flatName: 'trace_calls',
  title: 'Call chains',
  description:
    'Shortest call chains through the call graph and across services through contracts (a client calling a route or RPC, a producer feeding a consumer): between two declarations, or from every entry point (route handler, consumer, RPC implementation) down to one declaration — e.g. from "orders/src/orders.controller.ts:OrdersController.create" to "services/payment/store.go:transition". DO NOT USE for everything a change impacts (use contracts impact with `symbol` / analyze_impact).',
  args: {
    from: declarationString().describe(
      'The declaration the chain starts at (or ends at, without `to`) as "<path>:<name>", e.g. "services/payment/store.go:transition".',
    ),
    to: declarationString()
      .optional()
      .describe(
        'The declaration the chain ends at, as "<path>:<name>"; absent: chains from the entry points down to `from`, e.g. "services/payment/store.go:settlementStore.transition".',
      ),
    max_depth: z.number().int().min(1).max(20).default(10).describe('Longest chain, in steps, e.g. 6.'),
    include_tests: z
      .boolean()
      .default(false)
      .describe('Also go through code in test files (otherwise left out), e.g. true.'),
    limit: z.number().int().min(1).max(50).default(10).describe('Chains per page, e.g. 5.'),
    offset: z.number().int().min(0).default(0).describe('Chains to skip, from the previous footer, e.g. 10.'),
  },
  output: z.looseObject({
    from: z.string(),
    to: z.string().nullable(),
    direction: z.string().describe('from_to, to_from (only `to` reaches `from`), or entry_points (no `to`).'),
    total_chains: z.number().int(),
    ...pageFields,
    chains: z.array(
      z.looseObject({
        confidence: z.string().describe('The weakest step of the chain.'),
        steps: z.array(
          z.looseObject({
            node: z.string(),
            kind: z.string().describe('code or contract.'),
            location: z
              .string()
              .describe('Where the step happens (`path:line`); for the first node, its declaration.'),
            via: z.string().nullable(),
            confidence: z.string().nullable(),
          }),
        ),
      }),
    ),
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  subject: (args) => args.from,
  truncationHint: () => 'The chains are long: lower `max_depth` or `limit`, or page with `offset`.',
  run(args, ctx: OperationContext<MeshServices>) {
    const snapshot = requireSnapshot(ctx.services);
    const flow = new FlowGraph(snapshot);
    const start = declarationNamed(snapshot, 'from', args.from);
    const startNode = codeNode(start.file, start.symbol.id);
    const keep = (node: FlowNode) =>
      args.include_tests || node.kind !== 'code' || !isTestPath(node.file.path);
    let direction: Direction = 'entry_points';
    let chains: Chain[];
    let toName: string | undefined;
    if (args.to === undefined) {
      chains = chainsFromEntryPoints(flow, startNode, { maxDepth: args.max_depth, keep });
    } else {
      const goal = declarationNamed(snapshot, 'to', args.to);
      const goalNode = codeNode(goal.file, goal.symbol.id);
      toName = goal.symbol.qualifiedName;
      const options = { maxDepth: args.max_depth, cap: MAX_CHAINS, keep };
      chains = chainsBetween(flow, startNode, goalNode, options);
      direction = 'from_to';
      if (chains.length === 0) {
        chains = chainsBetween(flow, goalNode, startNode, options);
        if (chains.length > 0) direction = 'to_from';
      }
    }
    const fromName = start.symbol.qualifiedName;
    const page = takePage(chains, {
      offset: args.offset,
      limit: args.limit,
      budgetBytes: ctx.pageBudget,
      render: (chain, i) => chainText(snapshot, chain, i),
    });
    const heading = `## Call chains ${toName ? `between \`${fromName}\` and \`${toName}\`` : `reaching \`${fromName}\``}\n\n`;
    let body: string;
    if (chains.length === 0)
      body = toName
        ? `Exactly 0 chains of at most ${args.max_depth} steps between \`${fromName}\` and \`${toName}\`, either way, through bound calls and contracts. Raise \`max_depth\`, or check that calls in these files are bound (\`contracts impact\` with \`symbol\` lists what reaches \`${fromName}\`).\n`
        : `Exactly 0 entry points reach \`${fromName}\` through bound calls within ${args.max_depth} steps.\n`;
    else {
      const footer = pageFooter(page, 'chains', args.limit);
      body = `${headline(direction, fromName, toName, chains.length)}\n\n${page.rendered.join('')}${footer ? `${footer}\n` : ''}`;
    }
    return {
      data: {
        from: fromName,
        to: toName ?? null,
        direction,
        total_chains: chains.length,
        offset: page.start,
        chains: page.items.map((chain) => ({
          confidence: chainConfidence(chain),
          steps: chainRows(snapshot, chain),
        })),
        next_offset: page.hasMore ? page.end : null,
      },
      markdown: heading + body,
    };
  },
});
