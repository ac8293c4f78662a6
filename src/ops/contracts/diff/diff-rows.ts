/**
 * The impact of a diff as one list of rows: for each changed declaration, the symbol impact walk (callers up
 * to the entry points, then across services); for each removed or renamed contract and each RPC a wire
 * finding reaches, the contract impact walk; for each removed declaration, the call sites still naming it.
 * A place reached by several changes is one row, at its fewest hops, naming every change that reaches it.
 */
import { compareStrings as cmp } from '../../../core/order.js';
import type { DeclRef, SnapshotReader } from '../../../index/reader.js';
import { confidenceRank } from '../../shared/confidence.js';
import { resolveContract, resolveGrpc } from '../../shared/graph-queries.js';
import { displayOf, displayPath } from '../../shared/workspace-paths.js';
import { collectSymbolImpact } from '../impact-symbol.js';
import type { ImpactRow } from '../impact-rows.js';
import { collectImpact } from '../impact-walk.js';
import type { ContractChange } from './contract-changes.js';
import type { FileChanges } from './file-changes.js';
import { danglingCalls } from './dangling-calls.js';
import { orphanCalls, orphanRpcUsers } from './orphans.js';
import { declarationAt } from './tests-to-run.js';
import type { DiffRow, DiffRows, StillUsed } from './diff-row.js';

export type { DiffRow, DiffRows, DiffScope, StillUsed } from './diff-row.js';

/** A change whose impact is a contract walk: what it is called in `why`, and the contracts to walk. */
interface ContractTarget {
  readonly why: string;
  readonly family: 'route' | 'rpc' | 'topic';
  /** A contract this service provided (served, produced) and no longer does under that name. */
  readonly provided: boolean;
  readonly names: readonly string[];
}

const SYMBOL_DEPTH = 2;
const MAX_WHY = 3;
/** Changed declarations walked at most: a sweeping refactor would otherwise walk the whole call graph. */
export const MAX_WALKED_DECLARATIONS = 200;

class RowSet {
  private readonly byPlace = new Map<string, { row: DiffRow; why: string[] }>();

  add(row: Omit<DiffRow, 'why'>, why: string): void {
    const key = `${row.subject}\u0000${row.location}`;
    const known = this.byPlace.get(key);
    if (!known) {
      this.byPlace.set(key, { row: { ...row, why: [] }, why: [why] });
      return;
    }
    if (!known.why.includes(why)) known.why.push(why);
    if (
      row.hop < known.row.hop ||
      (row.hop === known.row.hop && confidenceRank(row.confidence) < confidenceRank(known.row.confidence))
    )
      known.row = { ...row, why: [] };
  }

  rows(): DiffRow[] {
    return [...this.byPlace.values()]
      .map(({ row, why }) => ({
        ...row,
        why: why.length > MAX_WHY ? [...why.slice(0, MAX_WHY), `${why.length - MAX_WHY} more`] : why,
      }))
      .sort(
        (a, b) =>
          a.hop - b.hop ||
          (a.scope === b.scope ? 0 : a.scope === 'same service' ? -1 : 1) ||
          cmp(a.service, b.service) ||
          cmp(a.location, b.location) ||
          cmp(a.subject, b.subject),
      );
  }
}

function addSymbolRows(
  snapshot: SnapshotReader,
  set: RowSet,
  change: FileChanges,
  budget: { left: number; skipped: number },
): number {
  let leftOut = 0;
  const { indexed } = change;
  if (!indexed) return 0;
  for (const declaration of change.declarations) {
    if (declaration.change !== 'changed' || declaration.symbol === undefined) continue;
    if (budget.left === 0) {
      budget.skipped++;
      continue;
    }
    budget.left--;
    const why = `changed \`${declaration.name}\``;
    const impact = collectSymbolImpact(snapshot, indexed, declaration.symbol, SYMBOL_DEPTH, false);
    leftOut += impact.testRowsLeftOut;
    for (const row of impact.rows)
      set.add(
        {
          hop: row.hop,
          scope: row.scope,
          service: row.service,
          subject: row.function,
          location: `${displayOf(snapshot, row.file)}:${row.line}`,
          confidence: row.confidence,
          via: row.via,
        },
        why,
      );
  }
  return leftOut;
}

const contractWhy = (c: ContractChange): string =>
  c.change === 'renamed'
    ? `renamed ${c.contract.label} → ${c.renamedTo?.name ?? ''}`
    : `${c.change} ${c.contract.label}`;

/** Contract walks for a file's removed and renamed contracts and the RPCs its wire findings reach. */
function contractTargets(change: FileChanges): ContractTarget[] {
  const targets: ContractTarget[] = [];
  for (const c of change.contracts)
    if (c.change !== 'added')
      targets.push({
        why: contractWhy(c),
        family: c.contract.family,
        provided: c.contract.side === 'provides',
        names: [c.contract.name],
      });
  for (const finding of change.wire)
    targets.push({
      why: `${finding.severity === 'breaking' ? 'wire-breaking' : 'wire warning'} ${finding.rule} \`${finding.element}\``,
      family: 'rpc',
      provided: false,
      names: finding.rpcs,
    });
  return targets;
}

const providerRoles = new Set(['handler', 'producer']);
const userRoles = new Set(['client', 'consumer']);

function addContractRows(
  snapshot: SnapshotReader,
  set: RowSet,
  change: FileChanges,
  used: StillUsed[],
  handlers: DeclRef[],
): number {
  let leftOut = 0;
  const graph = snapshot.contractGraph();
  for (const target of contractTargets(change)) {
    for (const name of target.names) {
      const nodes =
        name.includes('/') && !name.includes(' ')
          ? resolveGrpc(graph, name).nodes
          : resolveContract(graph, name).resolved.nodes;
      const orphans =
        target.family === 'route' && target.provided
          ? orphanCalls(snapshot, name)
          : target.family === 'rpc' && nodes.length === 0
            ? orphanRpcUsers(snapshot, name)
            : { rows: [], testPlaces: 0 };
      for (const row of orphans.rows) set.add(row, target.why);
      leftOut += orphans.testPlaces;
      if (orphans.rows.length > 0) used.push({ what: target.why, users: orphans.rows.length });
      if (nodes.length === 0) continue;
      const impact = collectImpact(snapshot, nodes, 1, false);
      leftOut += impact.testRowsLeftOut;
      for (const row of impact.rows) {
        // The topic itself has no place in the code; its producers and consumers are the rows.
        if (row.role === 'topic') continue;
        set.add(contractRow(snapshot, row, target.family), target.why);
        const file =
          row.role === 'handler' && row.root && row.file ? snapshot.file(row.root, row.file) : undefined;
        const symbol = file && row.line !== undefined ? declarationAt(file, row.line) : undefined;
        if (file && symbol !== undefined) handlers.push({ file, symbol });
      }
      const provided = impact.rows.some((r) => providerRoles.has(r.role) && r.hop === 1);
      const users = impact.rows.filter((r) => userRoles.has(r.role) && r.hop === 1).length;
      // A contract this file no longer provides, that nothing else provides, and that code still uses.
      if (target.provided && !provided && users > 0) used.push({ what: target.why, users });
    }
  }
  return leftOut;
}

function contractRow(
  snapshot: SnapshotReader,
  row: ImpactRow,
  family: ContractTarget['family'],
): Omit<DiffRow, 'why'> {
  return {
    hop: row.hop,
    scope: row.scope === 'INTERNAL' ? 'same service' : 'cross-service',
    service: row.root === undefined ? '—' : snapshot.serviceOf(row.root),
    subject: `${row.role} ${row.element}`,
    location:
      row.root !== undefined && row.file !== undefined
        ? `${displayPath(snapshot.roots, row.root, row.file)}:${row.line}`
        : '—',
    confidence: row.confidence,
    via:
      row.role === 'topic' || row.role === 'producer' || row.role === 'consumer'
        ? `topic ${row.via}`
        : `${family} ${row.via}`,
  };
}

/** The impact rows of every change, and what the diff removes while it is still used. */
export function collectDiffRows(snapshot: SnapshotReader, changes: readonly FileChanges[]): DiffRows {
  const set = new RowSet();
  const stillUsed: StillUsed[] = [];
  const handlers: DeclRef[] = [];
  let testRowsLeftOut = 0;
  const budget = { left: MAX_WALKED_DECLARATIONS, skipped: 0 };
  for (const change of changes) {
    testRowsLeftOut += addSymbolRows(snapshot, set, change, budget);
    testRowsLeftOut += addContractRows(snapshot, set, change, stillUsed, handlers);
    for (const dangling of danglingCalls(snapshot, change)) {
      for (const row of dangling.rows) set.add(row, dangling.why);
      if (dangling.rows.length > 0) stillUsed.push({ what: dangling.what, users: dangling.rows.length });
    }
  }
  return { rows: set.rows(), stillUsed, testRowsLeftOut, handlers, notWalked: budget.skipped };
}
