import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createPathJail } from '../../src/trust/path-jail.js';
import { Registry, type InvocationResult } from '../../src/core/registry.js';
import type { AnyOperation } from '../../src/core/operation.js';
import type {
  CallFact,
  ContractFact,
  FileFacts,
  ImportFact,
  LanguageId,
  ProtoServiceFact,
  SymbolFact,
} from '../../src/index/facts.js';
import type { IndexReader, RootInfo, SnapshotReader } from '../../src/index/reader.js';
import type { IndexedFile } from '../../src/index/snapshot.js';
import { SnapshotHolder } from '../../src/index/snapshot-holder.js';
import { languageSpec } from '../../src/index/languages/registry.js';
import { contractsGrpc } from '../../src/ops/contracts/grpc.js';
import type { MeshServices } from '../../src/ops/services.js';
import { connectClient } from '../helpers/mcp.js';

/**
 * Hand-built snapshots for `contracts grpc`: facts as an extractor would produce them, reconciled by the real
 * reconciler, so these tests do not wait for the language extractors.
 */

export interface FileSpec {
  readonly root: string;
  readonly path: string;
  readonly language: LanguageId;
  readonly package?: string;
  readonly symbols?: readonly Omit<SymbolFact, 'id'>[];
  readonly contracts?: readonly ContractFact[];
  readonly protoServices?: readonly ProtoServiceFact[];
  readonly imports?: readonly ImportFact[];
  readonly calls?: readonly CallFact[];
  /** Written to disk under the root when given. */
  readonly content?: string;
}

export const symbol = (
  qualifiedName: string,
  startLine: number,
  kind: SymbolFact['kind'] = 'method',
): Omit<SymbolFact, 'id'> => ({
  kind,
  name: qualifiedName.split('.').pop() ?? qualifiedName,
  qualifiedName,
  startLine,
  endLine: startLine + 5,
});

export function rpc(
  name: string,
  line: number,
  requestType: string,
  responseType: string,
  streaming: { client?: boolean; server?: boolean } = {},
) {
  return {
    name,
    line,
    requestType,
    responseType,
    clientStreaming: streaming.client ?? false,
    serverStreaming: streaming.server ?? false,
  };
}

export interface Fixture {
  readonly workspace: string;
  readonly roots: RootInfo[];
  readonly snapshot: SnapshotReader;
  readonly registry: Registry<MeshServices>;
  call(args: Record<string, unknown>): Promise<InvocationResult>;
  client(): Promise<Client>;
}

/**
 * Builds the roots on disk (folders, and files that carry content) and a snapshot of the given facts, served
 * by `operations` (`call` invokes the first).
 */
export function buildFixture(
  workspace: string,
  rootNames: readonly string[],
  specs: readonly FileSpec[],
  operations: readonly AnyOperation<MeshServices>[] = [contractsGrpc],
): Fixture {
  const [first] = operations;
  if (!first) throw new Error('no operation to serve');
  mkdirSync(workspace, { recursive: true });
  const base = realpathSync(workspace);
  const roots: RootInfo[] = rootNames.map((name) => {
    const dir = path.join(base, name);
    mkdirSync(dir, { recursive: true });
    return { name, path: dir };
  });
  const files: IndexedFile[] = specs.map((spec) => {
    const root = roots.find((r) => r.name === spec.root);
    if (!root) throw new Error(`no root ${spec.root}`);
    const absolutePath = path.join(root.path, ...spec.path.split('/'));
    if (spec.content !== undefined) {
      mkdirSync(path.dirname(absolutePath), { recursive: true });
      writeFileSync(absolutePath, spec.content);
    }
    const facts: FileFacts = {
      language: spec.language,
      ...(spec.package ? { package: spec.package } : {}),
      symbols: (spec.symbols ?? []).map((s, id) => ({ ...s, id })),
      imports: spec.imports ?? [],
      contracts: spec.contracts ?? [],
      ...(spec.calls ? { calls: spec.calls } : {}),
      ...(spec.protoServices ? { protoServices: spec.protoServices } : {}),
    };
    return {
      root: root.name,
      path: spec.path,
      absolutePath,
      language: spec.language,
      size: spec.content?.length ?? 100,
      mtimeMs: 0,
      hash: spec.path,
      outcome: 'parsed',
      facts,
    };
  });
  files.sort(
    (a, b) =>
      rootNames.indexOf(a.root) - rootNames.indexOf(b.root) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
  const services = new Map(roots.map((r) => [r.name, r.name]));
  const snapshot = new SnapshotHolder(
    {
      generation: 1,
      createdAt: '2025-01-01T00:00:00.000Z',
      workspace: base,
      roots,
      files,
      rejected: [],
      services,
    },
    {},
  );
  const index: IndexReader = {
    status: () => {
      throw new Error('not in this fixture');
    },
    snapshot: () => snapshot,
    rescan: async () => {
      throw new Error('not in this fixture');
    },
  };
  const registry = new Registry<MeshServices>({
    operations,
    services: { index, languages: languageSpec },
    resolvePath: createPathJail({ roots, workspaceDir: base }),
  });
  return {
    workspace: base,
    roots,
    snapshot,
    registry,
    call: (args) =>
      registry.invoke({
        address: { kind: 'operation', op: first, label: first.flatName },
        rawArgs: args,
      }),
    client: () => connectClient(registry as Registry, 'flat'),
  };
}

/** Calls `analyze_grpc` through a real SDK client and returns the text and the error flag. */
export async function callTool(
  client: Client,
  args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name: 'analyze_grpc', arguments: args })) as {
    content: { type: string; text?: string }[];
    isError?: boolean;
  };
  const first = result.content[0];
  if (result.content.length !== 1 || first?.type !== 'text')
    throw new Error(`expected one text block, got ${JSON.stringify(result.content)}`);
  return { text: first.text ?? '', isError: result.isError === true };
}
