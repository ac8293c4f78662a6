/**
 * The changes a diff makes, one line each, breaking ones first: wire findings, contracts removed, renamed or
 * added, declarations removed, changed or added, with the file and line they are at.
 */
import type { FileChanges } from './file-changes.js';

export interface ChangeLine {
  /** `breaking`, `warning`, `contract`, `declaration`. */
  readonly kind: 'breaking' | 'warning' | 'contract' | 'declaration';
  /** `type_changed`, `removed`, `renamed`, `added`, `changed`. */
  readonly change: string;
  readonly what: string;
  readonly location: string;
  /** The wire check's explanation, for wire findings. */
  readonly detail?: string;
}

const ORDER: Record<ChangeLine['kind'], number> = { breaking: 0, warning: 1, contract: 2, declaration: 3 };

/** Every change of every file, breaking first, then by file and line. */
export function changeLines(changes: readonly FileChanges[]): ChangeLine[] {
  const lines: { line: ChangeLine; order: number; at: number; file: string }[] = [];
  for (const change of changes) {
    const shown = change.file.display;
    const push = (line: Omit<ChangeLine, 'location'>, at: number | undefined) =>
      lines.push({
        line: { ...line, location: at === undefined ? shown : `${shown}:${at}` },
        order: ORDER[line.kind],
        at: at ?? 0,
        file: shown,
      });
    for (const finding of change.wire)
      push(
        { kind: finding.severity, change: finding.rule, what: finding.element, detail: finding.message },
        finding.line,
      );
    for (const c of change.contracts)
      push(
        {
          kind: 'contract',
          change: c.change,
          what: c.renamedTo ? `${c.contract.label} → ${c.renamedTo.name}` : c.contract.label,
        },
        (c.renamedTo ?? c.contract).line,
      );
    for (const d of change.declarations)
      push({ kind: 'declaration', change: d.change, what: `${d.kind} ${d.name}` }, d.line);
  }
  return lines
    .sort((a, b) => a.order - b.order || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.at - b.at)
    .map((l) => l.line);
}
