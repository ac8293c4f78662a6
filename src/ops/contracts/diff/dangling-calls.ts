/**
 * Calls left naming a declaration the diff removed: call sites in the same root that the call graph binds to
 * nothing and whose own evidence points at the removed declaration. A method counts a call on a receiver of
 * its type (or on the type's own instance, from inside it); a function counts a bare call. A call on a
 * receiver of unknown type is not counted: a check must not fail on every `Close()` of a library.
 */
import type { CallFact, IndexedFile, SnapshotReader } from '../../../index/reader.js';
import { displayOf, isTestPath } from '../../shared/workspace-paths.js';
import type { DeclarationChange } from './declaration-changes.js';
import type { DiffRow } from './diff-row.js';
import type { FileChanges } from './file-changes.js';

export interface DanglingCalls {
  readonly why: string;
  /** How the removal reads in `still_used`. */
  readonly what: string;
  readonly rows: readonly Omit<DiffRow, 'why'>[];
}

/** Whether an unbound call meant the removed declaration, by what the call site itself says. */
function meant(call: CallFact, removed: DeclarationChange, callerName: string | undefined): boolean {
  if (call.name !== removed.shortName) return false;
  const dot = removed.name.lastIndexOf('.');
  if (dot < 0) return call.receiver === undefined;
  const owner = removed.name.slice(0, dot);
  const ownerShort = owner.slice(owner.lastIndexOf('.') + 1);
  if (call.receiverType !== undefined) return call.receiverType === ownerShort;
  return call.self === true && callerName !== undefined && callerName.startsWith(`${owner}.`);
}

function callsNaming(snapshot: SnapshotReader, file: IndexedFile, removed: DeclarationChange) {
  const graph = snapshot.callGraph();
  const rows: Omit<DiffRow, 'why'>[] = [];
  for (const call of file.facts.calls ?? []) {
    const caller = call.caller === undefined ? undefined : file.facts.symbols[call.caller];
    if (!meant(call, removed, caller?.qualifiedName)) continue;
    if (graph.callsAt(file, call.line).some((edge) => edge.name === call.name)) continue;
    rows.push({
      hop: 1,
      scope: 'same service',
      service: snapshot.serviceOf(file.root),
      subject: caller?.qualifiedName ?? '(top of file)',
      location: `${displayOf(snapshot, file)}:${call.line}`,
      confidence: 'heuristic',
      via: `call ${call.name} (bound to nothing)`,
    });
  }
  return rows;
}

/** For each declaration a file's change removed, the calls still naming it (outside tests). */
export function danglingCalls(snapshot: SnapshotReader, change: FileChanges): DanglingCalls[] {
  const out: DanglingCalls[] = [];
  for (const declaration of change.declarations) {
    if (declaration.change !== 'removed') continue;
    const rows = snapshot.files
      .filter((file) => file.root === change.file.root && !isTestPath(file.path))
      .flatMap((file) => callsNaming(snapshot, file, declaration));
    out.push({
      why: `removed \`${declaration.name}\``,
      what: `\`${declaration.name}\` (removed from \`${change.file.display}\`)`,
      rows,
    });
  }
  return out;
}
