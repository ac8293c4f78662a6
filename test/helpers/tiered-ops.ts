import { z } from 'zod';
import { defineOperation, type AnyOperation, type Domain } from '../../src/core/operation.js';
import type { KeyPrincipal } from '../../src/core/principal.js';

/** An operation that answers with its own name, so that a test can tell which one a call reached. */
function stub(domain: Domain, mode: string, writes = false): AnyOperation {
  return defineOperation({
    domain,
    mode,
    flatName: `${mode}_${domain}`,
    title: `Stub ${domain} ${mode}`,
    description: `Answers with its name, e.g. "${domain}.${mode}". DO NOT USE outside tests.`,
    args: { target: z.string().optional().describe('Anything, e.g. "Order".') },
    output: z.looseObject({}),
    capabilities: writes ? { writes: true, idempotent: true } : {},
    run: () => ({ data: { op: `${domain}.${mode}` }, markdown: `reached ${domain}.${mode}` }),
  });
}

/** Ten operations over five domains, with the modes the prompts and resource templates are read with. */
export const TIERED_OPERATIONS: readonly AnyOperation[] = [
  stub('code', 'search'),
  stub('code', 'outline'),
  stub('contracts', 'impact'),
  stub('contracts', 'grpc'),
  stub('contracts', 'dependents'),
  stub('docs', 'search'),
  stub('docs', 'read'),
  stub('admin', 'status'),
  stub('memory', 'get'),
  stub('memory', 'put', true),
];

export const keyOf = (tenant: string, role: string, keyId = 1): KeyPrincipal => ({
  kind: 'key',
  keyId,
  prefix: `ml_${String(keyId).padStart(8, '0')}`,
  tenant,
  role,
});
