import type { AnyOperation } from '../core/operation.js';
import { adminRescan } from './admin/rescan.js';
import { adminStatus } from './admin/status.js';
import { codeExpand } from './code/expand.js';
import { codeFiles } from './code/files.js';
import { codeGrep } from './code/grep.js';
import { codeOutline } from './code/outline.js';
import { codeCallees } from './code/callees.js';
import { codeCallers } from './code/callers.js';
import { codeDefinition } from './code/definition.js';
import { codeImplementations } from './code/implementations.js';
import { codeReferences } from './code/references.js';
import { codeSearch } from './code/search.js';
import { contractsDependents } from './contracts/dependents.js';
import { contractsGrpc } from './contracts/grpc.js';
import { contractsImpact } from './contracts/impact.js';
import { docsRead } from './docs/read.js';
import { docsSearch } from './docs/search.js';
import { graphCalls } from './graph/calls.js';
import { graphNeighbors } from './graph/neighbors.js';
import { graphVisualize } from './graph/visualize.js';
import { gitBlame } from './git/blame.js';
import { gitBlameSymbol } from './git/blame-symbol.js';
import { gitChurn } from './git/churn.js';
import { gitDiff } from './git/diff.js';
import { gitDiffOutline } from './git/diff-outline.js';
import { gitRecent } from './git/recent.js';
import { gitSearch } from './git/search.js';
import { gitSymbolHistory } from './git/symbol-history.js';
import { gitStatus } from './git/status.js';
import { gitTouching } from './git/touching.js';
import type { MeshServices } from './services.js';

/** Every operation meshlens offers; a new operation is one file plus one entry here. */
export const OPERATIONS: readonly AnyOperation<MeshServices>[] = [
  codeSearch,
  codeOutline,
  codeExpand,
  codeFiles,
  codeGrep,
  codeDefinition,
  codeReferences,
  codeCallers,
  codeCallees,
  codeImplementations,
  contractsDependents,
  contractsGrpc,
  contractsImpact,
  docsSearch,
  docsRead,
  graphVisualize,
  graphCalls,
  graphNeighbors,
  gitStatus,
  gitRecent,
  gitTouching,
  gitChurn,
  gitDiff,
  gitDiffOutline,
  gitBlame,
  gitBlameSymbol,
  gitSymbolHistory,
  gitSearch,
  adminStatus,
  adminRescan,
];
