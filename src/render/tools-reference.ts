import type { AnyOperation, Domain } from '../core/operation.js';
import { fieldsOf, limitsText } from '../core/schema.js';

export interface DomainOperations {
  readonly domain: Domain;
  readonly ops: readonly AnyOperation[];
}

/** One language's row of the code-mode coverage table. */
export interface CodeCoverage {
  readonly language: string;
  readonly declarations: string;
  readonly calls: string;
  readonly implementations: string;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function annotationsText(op: AnyOperation): string {
  const c = op.capabilities;
  const parts = [c.writes ? 'writes' : 'read-only'];
  if (c.writes) parts.push(c.destructive ? 'destructive' : 'not destructive');
  parts.push(!c.writes || c.idempotent ? 'idempotent' : 'not idempotent');
  parts.push(c.openWorld ? 'open world' : 'closed world');
  if (c.requiresIndex) parts.push('needs the index');
  if (c.paged) parts.push('paged');
  return parts.join(', ');
}

/**
 * `docs/tools.md`, generated from the registry: a test compares the committed file with this output, so
 * the reference cannot drift from what the server advertises.
 */
export function renderToolsReference(
  domains: readonly DomainOperations[],
  coverage: readonly CodeCoverage[] = [],
): string {
  const lines = [
    '# meshlens tool reference',
    '',
    '<!-- Generated from the operation registry by `npm run docs:tools`; a test fails when it drifts. -->',
    '',
    'Every operation is reachable three ways: on the MCP **domain surface** (default; one tool per domain,',
    'choose the operation with `mode`), on the MCP **flat surface** (`meshlens serve --surface flat`; one tool',
    'per operation) and on the **CLI** (`meshlens <domain> <mode> --field value [--json]`). On the domain',
    'surface a writing mode beside reading ones is a tool of its own, `<domain>_<mode>` (e.g. `admin_rescan`),',
    "so that each tool's read-only annotation is true.",
    '',
    '| Domain | Mode | Flat name | CLI | Annotations |',
    '|---|---|---|---|---|',
  ];
  for (const { domain, ops } of domains) {
    for (const op of ops) {
      lines.push(
        `| ${domain} | ${op.mode} | \`${op.flatName}\` | \`meshlens ${domain} ${op.mode}\` | ${annotationsText(op)} |`,
      );
    }
  }
  for (const { domain, ops } of domains) {
    for (const op of ops) {
      lines.push(
        '',
        `## ${domain} ${op.mode} — \`${op.flatName}\``,
        '',
        `**${op.title}.** ${op.description}`,
        '',
      );
      const fields = fieldsOf(op);
      if (fields.length === 0) {
        lines.push('No arguments.');
        continue;
      }
      lines.push(
        '| Argument | Type | Required | Default and limits | Description |',
        '|---|---|---|---|---|',
      );
      for (const field of fields) {
        lines.push(
          `| \`${field.name}\` | ${field.type} | ${field.required ? 'yes' : 'no'} | ${cell(limitsText(field) || '—')} | ${cell(field.description)} |`,
        );
      }
    }
  }
  lines.push(...coverageSection(coverage));
  return `${lines.join('\n')}\n`;
}

/** Which languages the `code` modes cover, and how calls are bound in each. */
function coverageSection(coverage: readonly CodeCoverage[]): string[] {
  if (coverage.length === 0) return [];
  return [
    '',
    '## Languages per code mode',
    '',
    '`outline`, `expand`, `grep` and `files` read every indexed file; the table says which languages have',
    'declarations for them. `definition`, `references`, `callers` and `callees` follow the call graph: a call',
    "is **resolved** (`exact`) when an import, the caller's own type, the receiver's declared type, the same",
    'file or the same package proves its callee, and **name-matched** (`heuristic`, or `ambiguous` for a few',
    'candidates) when only a name the caller can see does. `implementations` follows declared supertypes.',
    '',
    '| Language | outline, expand | definition, references, callers, callees | implementations |',
    '|---|---|---|---|',
    ...coverage.map(
      (row) =>
        `| ${row.language} | ${cell(row.declarations)} | ${cell(row.calls)} | ${cell(row.implementations)} |`,
    ),
  ];
}
