import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { MeshServices } from '../services.js';
import { callListingArgs, callListingOutput, runCallListing } from './call-listing.js';

export const codeCallers = defineOperation({
  domain: 'code',
  mode: 'callers',
  flatName: 'find_callers',
  title: 'Who calls a function',
  description:
    'Lists the calls of one function or method from the call graph — bound through imports, receiver types and scope, with confidence and how each was bound, and calls through an interface or base method it implements — transitively up to `depth` hops, one row per call edge with its service and call site — e.g. symbol "services/inventory/store/mem.go:memStore.Get" with depth 2. DO NOT USE for every textual use of a name (use code references / find_references) or for calls across services over HTTP, gRPC or topics (use contracts impact).',
  args: callListingArgs,
  output: callListingOutput,
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  subject: (args) => args.symbol ?? args.path ?? args.name,
  truncationHint: () =>
    'Too many callers for one answer: lower `depth` or `limit`, or raise `min_confidence` to "exact".',
  run: (args, ctx: OperationContext<MeshServices>) => runCallListing('callers', args, ctx),
});
