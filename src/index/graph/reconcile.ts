import type { IndexedFile } from '../snapshot.js';
import { codeNode, serviceNode } from './code-nodes.js';
import { GrpcCatalog } from './grpc-catalog.js';
import { linkGrpcFact, linkWildcardRpcs, type WildcardRpc } from './grpc-links.js';
import { contextPathOf } from './context-path.js';
import { GatewayTable } from './gateway-table.js';
import { linkHttpCalls, type HttpCall } from './http-links.js';
import { rootFolders } from './root-proximity.js';
import { HttpTargets } from './http-targets.js';
import { addImportEdges } from './imports.js';
import type { RootImportSettings } from './imports-settings.js';
import type { RootIdentity } from '../services/types.js';
import type { ContractGraph } from './model.js';
import { isHealthService } from './names.js';
import { GraphBuilder } from './node-table.js';
import { TopicLinks } from './topic-links.js';
import { PropertyValues } from './property-values.js';
import { applyRouteMounts } from './route-mounts.js';
import { applyRouteInheritance } from './route-inheritance.js';
import { RouteTable } from './route-table.js';

export interface ReconcileInput {
  readonly files: readonly IndexedFile[];
  /** Root name → service name (from its manifest). */
  readonly services: ReadonlyMap<string, string>;
  /** Root name → the names its service answers to and its deploy-time environment (from the service model). */
  readonly identities?: ReadonlyMap<string, RootIdentity>;
  /** `.proto` files outside these folders (root-relative or `root:path` prefixes) do not define contracts; empty: all do. */
  readonly protoDirs?: readonly string[];
  /** Per-root manifest settings for import resolution (tsconfig aliases, package names, Go modules); absent: relative imports only. */
  readonly imports?: readonly RootImportSettings[];
}

/** Facts that can only be linked once every file has been read. */
interface Deferred {
  readonly calls: HttpCall[];
  readonly wildcardRpcs: WildcardRpc[];
}

/**
 * Facts of every file → the contract graph. Each pass indexes one side by a key and looks the other side
 * up (hash joins), so the work is linear in the number of facts; ties fan out as one ambiguous edge per
 * candidate rather than being settled by visiting order. The passes run in a fixed order: which evidence
 * an edge keeps, when two facts give the same one, depends on it.
 */
export function reconcile(input: ReconcileInput): ContractGraph {
  const builder = new GraphBuilder();
  // Routes get the prefixes other files mount them under (facts.ts `http_mount`) before anything links them;
  // routes a class inherits from another file's class are first copied into the subclass's file.
  const files = applyRouteMounts(applyRouteInheritance(input.files), input.imports ?? []);
  const values = new PropertyValues(files);
  const roots = new Set(files.map((f) => f.root));
  for (const root of roots) serviceNode(builder, root);
  const catalog = new GrpcCatalog(builder, files, input.protoDirs ?? []);
  const targets = new HttpTargets(values, roots, input.services, input.identities);
  const contextPaths = new Map([...roots].map((root) => [root, contextPathOf(targets.config, root)]));
  const routes = new RouteTable((root) => contextPaths.get(root) ?? '');
  const gateways = new GatewayTable(targets);
  const topics = new TopicLinks(values, targets.config);
  const deferred = linkContractFacts(builder, files, { catalog, routes, gateways, topics });
  for (const [root, identity] of input.identities ?? [])
    if (roots.has(root) && identity.topics) topics.linkDeclared(builder, root, identity.topics);
  topics.annotateNodes(builder);
  linkWildcardRpcs(builder, catalog, deferred.wildcardRpcs);
  gateways.link(builder, routes);
  linkHttpCalls(builder, { routes, gateways, targets, rootFolders: rootFolders(files) }, deferred.calls);
  // Imports: one edge per (importing file → imported file or Go package folder).
  addImportEdges(builder, { files, settings: input.imports ?? [] });
  return builder.build();
}

/**
 * One pass over every file's contract facts: gRPC servers and clients, topic producers and consumers and
 * HTTP routes are linked now; HTTP calls and method-only RPCs wait for every route and method.
 */
function linkContractFacts(
  builder: GraphBuilder,
  files: readonly IndexedFile[],
  known: { catalog: GrpcCatalog; routes: RouteTable; gateways: GatewayTable; topics: TopicLinks },
): Deferred {
  const deferred: Deferred = { calls: [], wildcardRpcs: [] };
  for (const file of files) {
    for (const fact of file.facts.contracts) {
      switch (fact.kind) {
        case 'grpc_server':
        case 'grpc_client':
          if (isHealthService(fact.service)) break;
          if (fact.kind === 'grpc_client' && fact.service === '*') deferred.wildcardRpcs.push({ file, fact });
          else linkGrpcFact(builder, known.catalog, file, fact);
          break;
        case 'topic_producer':
        case 'topic_consumer':
          known.topics.link(builder, file, fact);
          break;
        case 'http_route':
          known.routes.add(builder, file, fact);
          break;
        case 'http_call':
          deferred.calls.push({ file, fact });
          break;
        case 'http_proxy':
          codeNode(builder, file, fact.symbol);
          known.gateways.add(file, fact);
          break;
        case 'saga':
        case 'http_mount':
          codeNode(builder, file, fact.symbol);
          break;
      }
    }
  }
  return deferred;
}
