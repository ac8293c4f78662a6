import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { MeshServices } from '../services.js';
import { callListingArgs, callListingOutput, runCallListing } from './call-listing.js';

export const codeCallees = defineOperation({
  domain: 'code',
  mode: 'callees',
  flatName: 'find_callees',
  title: 'What a function calls',
  description:
    'Lists the workspace functions and methods one declaration calls, from the call graph (bound through imports, receiver types and scope, with confidence and how each was bound; a call bound to an interface or base method also lists the methods implementing it, as `interface` rows), transitively up to `depth` hops, one row per call edge with the callee\'s service and the call site — e.g. symbol "services/orders/src/service.ts:OrderService.place" with depth 2. Library calls are not listed. DO NOT USE to read the body itself (use code expand / expand_symbol) or to find who calls it (use code callers / find_callers).',
  args: callListingArgs,
  output: callListingOutput,
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  subject: (args) => args.symbol ?? args.path ?? args.name,
  truncationHint: () =>
    'Too many callees for one answer: lower `depth` or `limit`, or raise `min_confidence` to "exact".',
  run: (args, ctx: OperationContext<MeshServices>) => runCallListing('callees', args, ctx),
});
