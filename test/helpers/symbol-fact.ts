/** Hand-written `SymbolFact`s for call-graph tests: the simple name is the qualified name's last segment. */
import type { SymbolFact } from '../../src/index/facts.js';

export const sym = (
  id: number,
  kind: SymbolFact['kind'],
  qualifiedName: string,
  lines: [number, number],
  extra: Partial<SymbolFact> = {},
): SymbolFact => ({
  id,
  kind,
  name: qualifiedName.split(/\.|::/).pop() as string,
  qualifiedName,
  startLine: lines[0],
  endLine: lines[1],
  ...extra,
});
