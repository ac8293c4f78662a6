/**
 * Two tenants' workspaces built alike — the same relative paths, the same declarations — except for their
 * names: everything of tenant `acme` says "acme", everything of `globex` says "globex". An answer to one
 * tenant that holds the other's word has crossed over. Each workspace is its own git repository with two
 * commits, so the git modes have history to page.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { writeFiles } from './engine.js';
import { git } from './git.js';

export const TENANTS = ['acme', 'globex'] as const;
export type Tenant = (typeof TENANTS)[number];

export const ORDERS = 'services/orders/main.go';

const capital = (t: string): string => `${t[0]?.toUpperCase()}${t.slice(1)}`;

const handler = (t: Tenant, withMain: boolean): string =>
  [
    'package main',
    '',
    'import "fmt"',
    '',
    '// Processor processes one order.',
    'type Processor interface {',
    '\tProcess(id string) string',
    '}',
    '',
    `// ${capital(t)}Worker processes the orders of ${t}.`,
    `type ${capital(t)}Worker struct{}`,
    '',
    `func (w ${capital(t)}Worker) Process(id string) string {`,
    `\treturn fmt.Sprintf("${t}-%s", id)`,
    '}',
    '',
    'func HandleOrder(id string) string {',
    `\treturn ${capital(t)}Worker{}.Process(id)`,
    '}',
    ...(withMain ? ['', 'func main() {', '\tfmt.Println(HandleOrder("1"))', '}'] : []),
    '',
  ].join('\n');

/** Writes tenant `t`'s workspace under `parent/t` and commits it twice; returns its folder. */
export function tenantWorkspace(parent: string, t: Tenant): string {
  const dir = path.join(parent, t);
  mkdirSync(dir, { recursive: true });
  writeFiles(dir, {
    'README.md': `# ${capital(t)} shop\n\nThe ${t} orders service.\n`,
    'docs/guide.md': `# Orders guide\n\nThe ${capital(t)}Worker handles every order of ${t}. Restart the orders service after a deploy.\n`,
    'services/orders/go.mod': `module example.com/${t}/orders\n\ngo 1.22\n`,
    [ORDERS]: handler(t, false),
    'proto/orders.proto': [
      'syntax = "proto3";',
      `package ${t}.orders;`,
      '',
      'service OrderService {',
      '  rpc PlaceOrder (PlaceOrderRequest) returns (PlaceOrderReply);',
      '}',
      '',
      'message PlaceOrderRequest { string id = 1; }',
      `message PlaceOrderReply { string ${t}_ref = 1; }`,
      '',
    ].join('\n'),
  });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', `${t}: the orders service`);
  writeFiles(dir, { [ORDERS]: handler(t, true) });
  git(dir, 'commit', '-q', '-am', `${t}: a main that handles one order`);
  return dir;
}

/**
 * The arguments every mode is called with, the same for both tenants (their workspaces have the same
 * shape), keyed `domain.mode`. A mode missing here fails the test that iterates the served tools.
 */
export const MODE_ARGS: Readonly<Record<string, Record<string, unknown>>> = {
  'code.search': { query: 'Worker', scope: 'services' },
  'code.outline': { path: ORDERS },
  'code.expand': { path: ORDERS, name: 'HandleOrder' },
  'code.files': { query: 'orders' },
  'code.grep': { pattern: 'Worker', path: 'services/orders' },
  'code.definition': { path: ORDERS, line: 22, column: 14 },
  'code.references': { path: ORDERS, name: 'HandleOrder' },
  'code.callers': { path: ORDERS, name: 'HandleOrder' },
  'code.callees': { path: ORDERS, name: 'HandleOrder' },
  'code.implementations': { path: ORDERS, name: 'Processor' },
  'contracts.dependents': { target: 'OrderService' },
  'contracts.grpc': { proto: 'proto/orders.proto' },
  'contracts.impact': { target: 'PlaceOrder' },
  'docs.search': { query: 'orders guide' },
  'docs.read': { path: 'docs/guide.md' },
  'graph.visualize': { format: 'mermaid' },
  'graph.calls': { from: `${ORDERS}:main` },
  'graph.neighbors': { symbol: `${ORDERS}:HandleOrder` },
  'git.status': { path: 'services/orders' },
  'git.recent': { include_files: true, limit: 1 },
  'git.touching': { path: ORDERS },
  'git.churn': {},
  'git.diff': { path: ORDERS, rev_old: 'HEAD~1' },
  'git.diff_outline': { path: ORDERS, rev: 'HEAD~1' },
  'git.blame': { path: ORDERS },
  'git.blame_symbol': { path: ORDERS, name: 'HandleOrder' },
  'git.symbol_history': { path: ORDERS, name: 'HandleOrder' },
  'git.search': { pattern: 'orders', field: 'message' },
  'admin.status': {},
  'admin.rescan': { path: 'services/orders' },
  'memory.put': {
    key: 'runbook/orders',
    value: 'Restart the orders service after a deploy.',
    path: ORDERS,
    name: 'HandleOrder',
  },
  'memory.get': { key: 'runbook/orders' },
  'memory.list': {},
  'memory.search': { query: 'restart' },
  'memory.delete': { key: 'runbook/orders' },
  'memory.audit': {},
};

/** The arguments of a mode that name a file or folder, which another tenant's path is tried in. */
export const PATH_ARGUMENTS = ['path', 'scope', 'proto'] as const;
