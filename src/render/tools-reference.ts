import type { AnyOperation, Domain } from '../core/operation.js';
import { fieldsOf, limitsText } from '../core/schema.js';

export interface DomainOperations {
  readonly domain: Domain;
  readonly ops: readonly AnyOperation[];
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
export function renderToolsReference(domains: readonly DomainOperations[]): string {
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
  return `${lines.join('\n')}\n`;
}
