/**
 * The functions a module exports, as the Next.js route reader needs them: exported declarations, `export {
 * local as name }` aliases (with the declaration they name, when it is top level) and the default export —
 * named, or the first declared of the identifiers a wrapper call is given (`export default withAuth(handler)`).
 */
import type { MutableSymbol } from '../shared/fact-builder.js';
import type { ExportedFunction } from './routes.js';

export interface ExportAlias {
  readonly local: string;
  readonly exported: string;
  readonly line: number;
}

export interface DefaultExport {
  readonly name?: string;
  readonly wrapped?: readonly string[];
  readonly symbol?: number;
  readonly line: number;
}

export function exportedFunctions(
  declared: readonly ExportedFunction[],
  aliases: readonly ExportAlias[],
  topLevel: ReadonlyMap<string, MutableSymbol>,
): ExportedFunction[] {
  const exported = [...declared];
  for (const alias of aliases) {
    const s = topLevel.get(alias.local);
    exported.push({
      name: alias.exported,
      ...(s === undefined ? { line: alias.line } : { symbol: s.id, line: s.startLine }),
    });
  }
  return exported;
}

export function defaultExportOf(
  written: DefaultExport | undefined,
  topLevel: ReadonlyMap<string, MutableSymbol>,
): ExportedFunction | undefined {
  if (written === undefined) return undefined;
  const names = written.name === undefined ? (written.wrapped ?? []) : [written.name];
  const byName = names.map((n) => topLevel.get(n)).find((s) => s !== undefined);
  const symbol = written.symbol ?? byName?.id;
  return {
    name: 'default',
    line: byName?.startLine ?? written.line,
    ...(symbol === undefined || symbol < 0 ? {} : { symbol }),
  };
}
