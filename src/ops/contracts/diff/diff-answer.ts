/**
 * The answer to `contracts impact --diff`: a short summary an agent can paste into a review (breaking
 * changes first, then counts per service), the changes, one impact table and the tests worth running.
 */
import { pageFooter, takePage, type Page } from '../../../core/budget.js';
import type { OperationOutput } from '../../../core/operation.js';
import type { IndexReader, SnapshotReader } from '../../../index/reader.js';
import { MAX_WALKED_DECLARATIONS, type DiffRow } from './diff-rows.js';
import { collectDiffImpact, type DiffImpact } from './diff-impact.js';
import type { TestToRun } from './tests-to-run.js';

export interface DiffImpactArgs {
  readonly diff: string;
  readonly limit: number;
  readonly offset: number;
  readonly pageBudget: number;
  readonly signal: AbortSignal;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const sha = (commit: string) => commit.slice(0, 7);

function rowText(row: DiffRow, index: number): string {
  const location = row.location === '—' ? '—' : `\`${row.location}\``;
  return `| ${index + 1} | ${row.hop} | ${row.scope} | ${cell(row.service)} | \`${cell(row.subject)}\` | ${location} | ${row.confidence} | ${cell(row.via)} | ${cell(row.why.join('; '))} |\n`;
}

/** `HEAD (abc1234)` per repository; the roots each holds when there are several. */
function basesText(impact: DiffImpact): string {
  const repos = impact.diff.repositories;
  return repos
    .map(
      (r) =>
        `\`${r.base.ref}\` (${sha(r.base.commit)})${repos.length > 1 ? ` for ${r.roots.join(', ')}` : ''}`,
    )
    .join(', ');
}

/** Per service: impacted rows (cross-service among them). */
function perService(rows: readonly DiffRow[]): string {
  const counts = new Map<string, { all: number; cross: number }>();
  for (const row of rows) {
    if (row.service === '—') continue;
    const c = counts.get(row.service) ?? { all: 0, cross: 0 };
    c.all++;
    if (row.scope === 'cross-service') c.cross++;
    counts.set(row.service, c);
  }
  return [...counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([service, c]) => `${service} ${c.all}${c.cross > 0 ? ` (${c.cross} cross-service)` : ''}`)
    .join(', ');
}

function testsPerService(tests: readonly TestToRun[]): Map<string, TestToRun[]> {
  const by = new Map<string, TestToRun[]>();
  for (const t of tests) by.set(t.service, [...(by.get(t.service) ?? []), t]);
  return by;
}

/** The paste-able summary: counts, breaking changes and removals still used first. */
function summaryLines(impact: DiffImpact): string[] {
  const decl = (c: string) => impact.changes.filter((l) => l.kind === 'declaration' && l.change === c).length;
  const contracts = impact.changes.filter((l) => l.kind === 'contract').length;
  const breaking = impact.changes.filter((l) => l.kind === 'breaking');
  const lines = [
    `**Diff impact** against ${basesText(impact)}: ${impact.files.length} file(s) changed; declarations ${decl('changed')} changed, ${decl('added')} added, ${decl('removed')} removed; ${contracts} contract change(s); ${breaking.length} wire-breaking change(s).`,
  ];
  for (const b of breaking)
    lines.push(`- BREAKING \`${b.location}\`: ${b.change} \`${b.what}\` — ${b.detail ?? ''}`);
  for (const u of impact.impact.stillUsed) lines.push(`- STILL USED: ${u.what}, by ${u.users} place(s)`);
  const services = perService(impact.impact.rows);
  if (services) lines.push(`- Impact per service: ${services}.`);
  const tests = [...testsPerService(impact.tests).entries()].map(([s, t]) => `${s} ${t.length}`);
  lines.push(
    `- Tests worth running: ${tests.length > 0 ? tests.join(', ') : 'none found through the call graph'}.`,
  );
  return lines;
}

function changeTable(impact: DiffImpact): string[] {
  if (impact.changes.length === 0) return [];
  return [
    '### Changes',
    '',
    '| Kind | Change | What | Location |',
    '|---|---|---|---|',
    ...impact.changes.map((c) => `| ${c.kind} | ${c.change} | \`${cell(c.what)}\` | \`${c.location}\` |`),
    '',
  ];
}

function testLines(impact: DiffImpact): string[] {
  if (impact.tests.length === 0) return [];
  const lines = ['### Tests worth running', ''];
  for (const [service, tests] of testsPerService(impact.tests))
    lines.push(`- **${service}**: ${tests.map((t) => `\`${t.test}\` (\`${t.location}\`)`).join(', ')}`);
  lines.push('');
  return lines;
}

function notes(impact: DiffImpact): string[] {
  const lines: string[] = [];
  if (impact.diff.outside.length > 0)
    lines.push(
      `Roots in no git repository, not compared: ${impact.diff.outside.map((r) => `\`${r}\``).join(', ')}.`,
    );
  for (const file of impact.files) if (file.note) lines.push(`\`${file.file.display}\`: ${file.note}.`);
  if (impact.impact.notWalked > 0)
    lines.push(
      `${impact.impact.notWalked} changed declaration(s) beyond the first ${MAX_WALKED_DECLARATIONS} were not walked: ask \`symbol\` impact for the ones that matter.`,
    );
  if (impact.impact.testRowsLeftOut > 0)
    lines.push(
      `${impact.impact.testRowsLeftOut} place(s) in test files left out of the table${impact.tests.length > 0 ? ' (the tests worth running are listed above)' : ''}.`,
    );
  return lines;
}

function markdownOf(impact: DiffImpact, page: Page<DiffRow>, args: DiffImpactArgs): string {
  const header = `## Impact of the working tree against \`${args.diff}\``;
  if (impact.files.length === 0) {
    const compared = impact.diff.repositories
      .flatMap((r) => r.roots)
      .map((r) => `\`${r}\``)
      .join(', ');
    return [
      header,
      '',
      `No changes between the working tree and ${basesText(impact)} in the indexed roots (${compared}): exactly 0 declarations or contracts touched. This is authoritative.`,
      ...notes(impact),
      '',
    ].join('\n');
  }
  const lines = [header, '', ...summaryLines(impact), '', ...changeTable(impact)];
  lines.push('### Impact', '');
  if (impact.impact.rows.length === 0)
    lines.push(
      'Exactly 0 functions or contracts reached by these changes in the call graph and the contract graph.',
      '',
    );
  else if (page.items.length > 0)
    lines.push(
      '| # | Hop | Scope | Service | Function / contract | Location | Confidence | Via | Why |',
      '|---|---|---|---|---|---|---|---|---|',
      ...page.rendered.map((r) => r.trimEnd()),
      '',
    );
  lines.push(...testLines(impact), ...notes(impact));
  const footer = pageFooter(page, 'rows', args.limit);
  if (footer) lines.push('', footer);
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n')}\n`;
}

function jsonOf(impact: DiffImpact, page: Page<DiffRow>, args: DiffImpactArgs) {
  return {
    diff: args.diff,
    repositories: impact.diff.repositories.map((r) => ({
      roots: r.roots,
      base: r.base.ref,
      commit: r.base.commit,
    })),
    not_in_git: impact.diff.outside,
    changes: impact.changes,
    total_rows: impact.impact.rows.length,
    offset: page.start,
    rows: page.items.map((row) => ({
      hop: row.hop,
      scope: row.scope,
      service: row.service,
      function: row.subject,
      location: row.location,
      confidence: row.confidence,
      via: row.via,
      why: row.why,
    })),
    next_offset: page.hasMore ? page.end : null,
    still_used: impact.impact.stillUsed,
    tests: impact.tests,
    tests_left_out: impact.impact.testRowsLeftOut,
    not_walked: impact.impact.notWalked,
    failing: impact.failing,
  };
}

/** The impact of the working tree against `args.diff`. */
export async function diffImpactAnswer(
  index: IndexReader,
  snapshot: SnapshotReader,
  args: DiffImpactArgs,
): Promise<OperationOutput> {
  const impact = await collectDiffImpact(index, snapshot, args.diff, args.signal);
  const page = takePage(impact.impact.rows, {
    offset: args.offset,
    limit: args.limit,
    budgetBytes: args.pageBudget,
    render: (row, i) => rowText(row, i),
  });
  return {
    data: jsonOf(impact, page, args),
    markdown: markdownOf(impact, page, args),
    failing: impact.failing,
  };
}
