import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { IndexStatus, RejectedFile } from '../../index/reader.js';
import type { MeshServices } from '../services.js';
import { renderUnresolved, unresolvedSummary } from './unresolved-calls.js';

const FIRST_REJECTED = 10;

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
      `- \`${file.root}:${file.path}\` — ${file.reason}, ${file.size} B${file.detail ? ` (${file.detail})` : ''}`,
    );
  }
  if (rejected.length > FIRST_REJECTED) lines.push(`- … and ${rejected.length - FIRST_REJECTED} more`);
  return lines;
}

const edgesText = (edges: number | undefined): string =>
  edges === undefined
    ? 'graph edges not counted yet (the graph is built by the first contract or graph query)'
    : `${edges} graph edges`;

export function renderStatus(status: IndexStatus): string {
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
  return `${lines.join('\n')}\n`;
}

export const adminStatus = defineOperation({
  domain: 'admin',
  mode: 'status',
  flatName: 'index_status',
  title: 'Index status',
  description:
    'Reports what meshlens has indexed: roots, files per language, files not indexed and why, symbol and contract counts, the snapshot generation and whether indexing is still running — e.g. call it first when another tool answers "still indexing" or finds nothing. DO NOT USE to search code (use code search / smart_search).',
  args: {},
  capabilities: { idempotent: true },
  run(_args, ctx: OperationContext<MeshServices>) {
    // Unresolved calls need the contract graph: built here (once per snapshot) so that the status lists them,
    // before the status is read so that it counts the graph's edges too.
    const snapshot = ctx.services.index.snapshot();
    const unresolved = snapshot ? unresolvedSummary(snapshot) : undefined;
    const status = ctx.services.index.status();
    if (!unresolved) return { data: { ...status }, markdown: renderStatus(status) };
    const markdown = `${renderStatus(status)}\n${renderUnresolved(unresolved).join('\n')}\n`;
    return { data: { ...status, unresolved }, markdown };
  },
});
