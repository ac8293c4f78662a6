/**
 * Code left using a contract the diff took away, which the contract graph no longer links to it: HTTP calls
 * that now match no route, and gRPC clients and servers of methods no indexed schema declares any more.
 */
import type { IndexedFile, SnapshotReader } from '../../../index/reader.js';
import { displayOf, displayPath, isTestPath } from '../../shared/workspace-paths.js';
import type { DiffRow } from './diff-row.js';
import { declarationAt } from './tests-to-run.js';

type PlainRow = Omit<DiffRow, 'why'>;

/** The places found, test files apart: counted, not listed. */
export interface Orphans {
  readonly rows: PlainRow[];
  testPlaces: number;
}

/** How method names compare across languages: `release_stock` in Rust is `ReleaseStock`. */
const methodKey = (name: string): string => name.replace(/_/g, '').toLowerCase();

/** The declaration holding a line, by name, else the file. */
function holderName(file: IndexedFile | undefined, line: number, fallback: string): string {
  const symbol = file ? declarationAt(file, line) : undefined;
  return (symbol !== undefined ? file?.facts.symbols[symbol]?.qualifiedName : undefined) ?? fallback;
}

const templateKey = (method: string, path: string): string =>
  `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`;

/**
 * HTTP calls that matched no route and name the one the diff removed or renamed: callers left behind. A
 * call that still matches another server's route is not one of them.
 */
export function orphanCalls(snapshot: SnapshotReader, route: string): Orphans {
  const [method = '', path = ''] = route.split(' ', 2);
  const key = templateKey(method, path);
  const out: Orphans = { rows: [], testPlaces: 0 };
  for (const call of snapshot.contractGraph().unresolved) {
    if (call.partial || templateKey(call.method, call.path) !== key) continue;
    if (isTestPath(call.file)) {
      out.testPlaces++;
      continue;
    }
    const file = snapshot.file(call.root, call.file);
    out.rows.push({
      hop: 1,
      scope: 'cross-service',
      service: snapshot.serviceOf(call.root),
      subject: `client ${holderName(file, call.line, call.file)}`,
      location: `${displayPath(snapshot.roots, call.root, call.file)}:${call.line}`,
      confidence: 'heuristic',
      via: `route ${route} (now matches no route)`,
    });
  }
  return out;
}

/**
 * gRPC clients and servers whose code still names a method no schema declares (a `.proto` deleted, an RPC
 * removed): `pkg.Service/Method` matched by qualified or bare service name.
 */
export function orphanRpcUsers(snapshot: SnapshotReader, rpc: string): Orphans {
  const [service = '', method = ''] = rpc.split('/', 2);
  const bare = service.split('.').pop() ?? service;
  const out: Orphans = { rows: [], testPlaces: 0 };
  for (const file of snapshot.files) {
    for (const fact of file.facts.contracts) {
      if (fact.kind !== 'grpc_client' && fact.kind !== 'grpc_server') continue;
      if (fact.service !== service && fact.service !== bare) continue;
      // A server registered for the whole service (its methods named by the schema) serves this one too.
      const named = fact.method !== undefined && methodKey(fact.method) === methodKey(method);
      if (!named && !(fact.kind === 'grpc_server' && fact.method === undefined)) continue;
      if (isTestPath(file.path)) {
        out.testPlaces++;
        continue;
      }
      const role = fact.kind === 'grpc_client' ? 'client' : 'handler';
      out.rows.push({
        hop: 1,
        scope: 'cross-service',
        service: snapshot.serviceOf(file.root),
        subject: `${role} ${holderName(file, fact.line, file.path)}`,
        location: `${displayOf(snapshot, file)}:${fact.line}`,
        confidence: 'heuristic',
        via: `rpc ${rpc} (no longer declared)`,
      });
    }
  }
  return out;
}
