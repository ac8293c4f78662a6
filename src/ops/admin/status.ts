import { z } from 'zod';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { IndexStatus, Learnt, RejectedFile, ServiceView } from '../../index/reader.js';
import { sharedSection } from './shared-index-section.js';
import type { MeshServices } from '../services.js';
import { renderUnresolved, unresolvedSummary } from './unresolved-calls.js';
import { renderUnresolvedTopics, unresolvedTopicSummary } from './unresolved-topics.js';

const FIRST_REJECTED = 10;

/** A path kept readable: one rejected for its length would otherwise fill the answer. */
const SHOWN_PATH_CHARS = 160;
function shortened(file: string): string {
  if (file.length <= SHOWN_PATH_CHARS) return file;
  const half = SHOWN_PATH_CHARS / 2;
  return `${file.slice(0, half)}…${file.slice(-half)}`;
}

function rejectedSummary(rejected: readonly RejectedFile[]): string[] {
  if (rejected.length === 0) return [];
  const byReason = new Map<string, number>();
  for (const file of rejected) byReason.set(file.reason, (byReason.get(file.reason) ?? 0) + 1);
  const reasons = [...byReason].sort(([a], [b]) => a.localeCompare(b)).map(([r, n]) => `${r} ${n}`);
  const lines = [
    `**Not indexed:** ${rejected.length} file(s) (${reasons.join(', ')}). Read them directly if needed:`,
  ];
  for (const file of rejected.slice(0, FIRST_REJECTED)) {
    lines.push(
      `- \`${file.root}:${shortened(file.path)}\` — ${file.reason}, ${file.size} B${file.detail ? ` (${file.detail})` : ''}`,
    );
  }
  if (rejected.length > FIRST_REJECTED) lines.push(`- … and ${rejected.length - FIRST_REJECTED} more`);
  return lines;
}

const FIRST_UNCOVERED = 20;

const where = (learnt: Learnt): string => (learnt.line > 0 ? `${learnt.file}:${learnt.line}` : learnt.file);
const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** The service model: one row per entry, with every other name it answers to and where that was learnt. */
export function servicesSection(view: ServiceView | undefined): string[] {
  if (!view) return [];
  const lines: string[] = [];
  if (view.entries.length > 0) {
    lines.push('', `**Services** (from manifests, Dockerfiles and deploy files): ${view.entries.length}`, '');
    lines.push('| Name | Kind | Folder | Root | Other names (where learnt) |', '|---|---|---|---|---|');
    for (const entry of view.entries) {
      const [first, ...others] = entry.names;
      const names = others.map((n) => `${n.name} (${n.from.how}, \`${where(n.from)}\`)`).join('; ');
      lines.push(
        `| ${cell(first?.name ?? entry.folder)} | ${entry.kind} | \`${entry.folder}\` | ${entry.root ?? '—'} | ${cell(names || '—')} |`,
      );
    }
  }
  if (view.uncovered.length > 0) {
    lines.push(
      '',
      `**Not covered:** ${view.uncovered.length} folder(s) with source code that no root covers; a zero answer does not speak for them. Add them to \`roots\` (\`meshlens init --auto --force\` proposes them):`,
    );
    for (const folder of view.uncovered.slice(0, FIRST_UNCOVERED)) lines.push(`- \`${folder}\``);
    if (view.uncovered.length > FIRST_UNCOVERED)
      lines.push(`- … and ${view.uncovered.length - FIRST_UNCOVERED} more`);
  }
  if (view.partial) lines.push('', '> The service model stopped at its folder cap: it may miss folders.');
  return lines;
}

const edgesText = (edges: number | undefined): string =>
  edges === undefined
    ? 'graph edges not counted yet (the graph is built by the first contract or graph query)'
    : `${edges} graph edges`;

export function renderStatus(status: IndexStatus, services?: ServiceView): string {
  const lines = [`# Index status: workspace \`${status.workspace}\``, ''];
  if (status.phase === 'not_started' || (status.generation === 0 && !status.progress)) {
    lines.push('Nothing indexed yet.');
  } else if (status.generation === 0 && status.progress) {
    lines.push(
      `Still indexing: ${status.progress.done} of ${status.progress.total} files; no snapshot installed yet.`,
    );
  } else {
    const running = status.progress
      ? ` (re-indexing: ${status.progress.done} of ${status.progress.total} files)`
      : '';
    lines.push(`Snapshot generation ${status.generation}, ${status.phase}${running}.`);
  }
  if (status.hold) lines.push('', `> ${status.hold}`);
  if (status.failure) lines.push('', `> The last full index run failed: ${status.failure}`);
  lines.push('', '| Root | Path |', '|---|---|');
  for (const root of status.roots) lines.push(`| ${root.name} | \`${root.path}\` |`);
  if (status.generation > 0) {
    const languages = Object.entries(status.byLanguage)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([language, count]) => `${language} ${count}`);
    lines.push(
      '',
      `**Files:** ${status.files} indexed${languages.length ? ` (${languages.join(', ')})` : ''}; ${status.noGrammar} without a grammar.`,
      `**Facts:** ${status.symbols} symbols, ${status.contracts} contract facts, ${edgesText(status.edges)}, ${status.docSections} doc sections.`,
    );
  }
  lines.push(...servicesSection(services));
  const rejected = rejectedSummary(status.rejected);
  if (rejected.length) lines.push('', ...rejected);
  if (status.lastRun) {
    const run = status.lastRun;
    lines.push(
      '',
      `**Last run:** ${run.full ? 'full' : 'incremental'} at ${run.at}, ${run.wallMs} ms; ${run.filesSeen} files seen, ${run.read} read, ${run.parsed} parsed, ${run.cacheHits} from cache, ${run.changed} changed, ${run.removed} removed.`,
    );
  }
  if (status.cache) {
    const cache = status.cache;
    lines.push(
      `**Cache:** \`${cache.path}\`, ${cache.entries} entries, ${cache.bytes} B${cache.warning ? ` — ${cache.warning}` : ''}.`,
    );
  }
  if (status.fingerprint) lines.push(`**Fingerprint:** \`${status.fingerprint}\``);
  const shared = sharedSection(status.shared);
  if (shared.length) lines.push('', ...shared);
  return `${lines.join('\n')}\n`;
}

export const adminStatus = defineOperation({
  domain: 'admin',
  mode: 'status',
  flatName: 'index_status',
  title: 'Index status',
  description:
    'Reports what meshlens has indexed: roots, files per language, files not indexed and why, symbol and contract counts, the snapshot generation and whether indexing is still running; the services the workspace declares (kind, folder, every name each answers to and where it was learnt), folders of code no root covers, HTTP calls that reach no known route and topic producers or consumers whose destination is unknown (file:line and why) — e.g. call it first when another tool answers "still indexing" or finds nothing, or to see which services exist. DO NOT USE to search code (use code search / smart_search).',
  args: {},
  output: z.looseObject({
    workspace: z.string(),
    roots: z.array(z.looseObject({ name: z.string(), path: z.string() })),
    phase: z.string().describe('not_started, indexing or ready.'),
    generation: z.number().int(),
    files: z.number().int().optional(),
    rejected: z.array(z.unknown()).optional(),
    symbols: z.number().int().optional(),
    contracts: z.number().int().optional(),
    edges: z.number().int().optional(),
    services: z.array(z.looseObject({ name: z.string(), kind: z.string(), folder: z.string() })).optional(),
    uncovered: z.array(z.string()).optional(),
    unresolved: z.looseObject({ count: z.number().int() }).optional(),
    unresolved_topics: z.looseObject({ count: z.number().int() }).optional(),
    shared: z
      .looseObject({
        replica: z.string(),
        state: z.string(),
        snapshot: z.looseObject({ run: z.number().int(), replica: z.string() }).optional(),
        thisRun: z.looseObject({ parsed: z.number().int(), pulled: z.number().int() }).optional(),
      })
      .optional()
      .describe(
        'With a PostgreSQL team store: which replica built the shared snapshot and whether this one parsed or pulled.',
      ),
  }),
  capabilities: { idempotent: true },
  run(_args, ctx: OperationContext<MeshServices>) {
    // Unresolved calls need the contract graph: built here (once per snapshot) so that the status lists them,
    // before the status is read so that it counts the graph's edges too.
    const snapshot = ctx.services.index.snapshot();
    const unresolved = snapshot ? unresolvedSummary(snapshot) : undefined;
    const unresolvedTopics = snapshot ? unresolvedTopicSummary(snapshot) : undefined;
    const status = ctx.services.index.status();
    const view = snapshot?.serviceModel();
    const services = view?.entries.map((e) => ({
      name: e.names[0]?.name ?? e.folder,
      kind: e.kind,
      folder: e.folder,
      root: e.root ?? null,
      names: e.names.map((n) => ({ name: n.name, from: where(n.from), how: n.from.how })),
    }));
    const unresolvedLines = [
      ...(unresolved ? renderUnresolved(unresolved) : []),
      ...(unresolvedTopics ? renderUnresolvedTopics(unresolvedTopics) : []),
    ];
    const markdown =
      unresolvedLines.length > 0
        ? `${renderStatus(status, view)}\n${unresolvedLines.join('\n')}\n`
        : renderStatus(status, view);
    return {
      data: {
        ...status,
        ...(view ? { services, uncovered: view.uncovered } : {}),
        ...(unresolved ? { unresolved } : {}),
        ...(unresolvedTopics ? { unresolved_topics: unresolvedTopics } : {}),
      },
      markdown,
    };
  },
});
