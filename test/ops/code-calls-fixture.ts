/**
 * The code-navigation fixture (test/fixtures/code-calls) indexed in-process and served to an SDK client.
 * Until the TypeScript and Go extractors record call sites, interface method signatures and supertypes, the
 * facts they will record are written here by hand and patched into the snapshot.
 */
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallFact, FileFacts, SymbolFact } from '../../src/index/facts.js';
import { connectClient } from '../helpers/mcp.js';
import { patchFacts } from '../helpers/patched-facts.js';
import { indexedRegistry } from '../helpers/workspace.js';

export const CODE_CALLS = path.resolve(import.meta.dirname, '../fixtures/code-calls');

const sym = (
  id: number,
  kind: SymbolFact['kind'],
  qualifiedName: string,
  lines: [number, number],
  extra: Partial<SymbolFact> = {},
): SymbolFact => ({
  id,
  kind,
  name: qualifiedName.split('.').pop() as string,
  qualifiedName,
  startLine: lines[0],
  endLine: lines[1],
  ...extra,
});

const call = (line: number, caller: number, name: string, extra: Partial<CallFact> = {}): CallFact => ({
  name,
  line,
  caller,
  ...extra,
});

const PATCHES: Record<string, Partial<FileFacts>> = {
  'orders/src/repo.ts': {
    symbols: [
      sym(0, 'interface', 'Order', [1, 3], { exported: true, signature: 'interface Order' }),
      sym(1, 'interface', 'OrderRepo', [5, 7], { exported: true, signature: 'interface OrderRepo' }),
      sym(2, 'method', 'OrderRepo.save', [6, 6], { parent: 1, signature: 'save(order: Order): void' }),
      sym(3, 'class', 'PgRepo', [9, 13], {
        exported: true,
        supertypes: ['OrderRepo'],
        signature: 'class PgRepo implements OrderRepo',
      }),
      sym(4, 'method', 'PgRepo.save', [10, 12], { parent: 3, signature: 'save(order: Order): void' }),
      sym(5, 'class', 'MemRepo', [15, 20], {
        exported: true,
        supertypes: ['OrderRepo'],
        signature: 'class MemRepo implements OrderRepo',
      }),
      sym(6, 'method', 'MemRepo.save', [17, 19], { parent: 5, signature: 'save(order: Order): void' }),
    ],
    calls: [call(11, 4, 'log', { receiver: 'console' }), call(18, 6, 'push', { receiver: 'this.orders' })],
  },
  'orders/src/audit.ts': {
    calls: [
      call(2, 0, 'write'),
      call(6, 1, 'audit'),
      call(6, 1, 'slice', { receiver: 'message', receiverType: 'string' }),
      call(7, 1, 'log', { receiver: 'console' }),
    ],
  },
  'orders/src/service.ts': {
    calls: [
      call(9, 2, 'validate', { receiver: 'this', self: true }),
      call(10, 2, 'save', { receiver: 'this.repo', receiverType: 'OrderRepo' }),
      call(11, 2, 'audit', { module: './audit' }),
      call(15, 3, 'audit', { module: './audit' }),
      call(20, 4, 'OrderService', { construct: true }),
      call(20, 4, 'PgRepo', { module: './repo', construct: true }),
      call(21, 4, 'place', { receiver: 'service', receiverType: 'OrderService' }),
      call(21, 4, 'randomUUID', { module: 'node:crypto' }),
    ],
  },
  'inventory/store/store.go': {
    symbols: [
      sym(0, 'interface', 'Store', [4, 7], { signature: 'type Store interface' }),
      sym(1, 'method', 'Store.Get', [5, 5], { parent: 0, signature: 'Get(id string) int' }),
      sym(2, 'method', 'Store.Put', [6, 6], { parent: 0, signature: 'Put(id string, n int)' }),
      sym(3, 'struct', 'memStore', [9, 11], { signature: 'type memStore struct' }),
      sym(4, 'function', 'New', [14, 16], { signature: 'func New() Store' }),
    ],
    calls: [call(15, 4, 'memStore', { construct: true })],
  },
  'inventory/store/mem.go': {
    calls: [call(8, 1, 'Get', { receiver: 'm', self: true }), call(8, 1, 'clamp')],
  },
  'inventory/main.go': {
    calls: [
      call(6, 0, 'New', { receiver: 'store', module: 'example.com/inventory/store' }),
      call(7, 0, 'reserve'),
      call(11, 1, 'Get', { receiver: 's', receiverType: 'store.Store' }),
      call(12, 1, 'Put', { receiver: 's', receiverType: 'store.Store' }),
    ],
  },
};

export async function codeCallsClient(): Promise<Client> {
  const { registry, engine } = await indexedRegistry(CODE_CALLS);
  patchFacts(engine, PATCHES);
  return connectClient(registry, 'flat', { structuredOutput: true });
}
