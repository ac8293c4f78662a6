import type { Confidence } from '../facts.js';
import type { IndexedFile } from '../snapshot.js';
import { isHealthService, methodKey, serviceKey } from './names.js';
import type { GraphBuilder } from './node-table.js';

export interface ServiceEntry {
  /** `package.Service`. */
  readonly fullName: string;
  /** Its node in the graph being built. */
  readonly id: string;
  readonly root: string;
}

/** Whether a `.proto` file lies in one of the contract folders (root names or root-relative prefixes; none: all). */
function inProtoDirs(file: IndexedFile, protoDirs: readonly string[]): boolean {
  return (
    protoDirs.length === 0 ||
    protoDirs.some((dir) => {
      const clean = dir.replace(/^\.\//, '').replace(/\/$/, '');
      return (
        file.root === clean ||
        file.root.startsWith(`${clean}/`) ||
        file.path.startsWith(`${clean}/`) ||
        clean === '.'
      );
    })
  );
}

/**
 * The gRPC contracts the `.proto` files declare — services, their methods and messages, added to the graph
 * as they are read — and how a service or method named in code resolves to them.
 */
export class GrpcCatalog {
  private readonly byKey = new Map<string, ServiceEntry[]>();
  private readonly byFullName = new Map<string, ServiceEntry>();
  /** Service full name → method key → the method's node. */
  private readonly methods = new Map<string, Map<string, string>>();

  constructor(builder: GraphBuilder, files: readonly IndexedFile[], protoDirs: readonly string[]) {
    for (const file of files) {
      if (!file.facts.protoServices || !inProtoDirs(file, protoDirs)) continue;
      this.declareServices(builder, file);
      declareMessages(builder, file);
    }
  }

  private declareServices(builder: GraphBuilder, file: IndexedFile): void {
    for (const service of file.facts.protoServices ?? []) {
      if (isHealthService(service.name, service.package)) continue;
      const fullName = service.package ? `${service.package}.${service.name}` : service.name;
      if (this.byFullName.has(fullName)) continue;
      const id = builder.node({
        kind: 'grpc_service',
        name: fullName,
        root: file.root,
        file: file.path,
        line: service.line,
      });
      const entry = { fullName, id, root: file.root };
      this.byFullName.set(fullName, entry);
      const key = serviceKey(service.name);
      (this.byKey.get(key) ?? this.byKey.set(key, []).get(key))?.push(entry);
      const methods = new Map<string, string>();
      for (const method of service.methods) {
        const methodId = builder.node({
          kind: 'grpc_method',
          name: `${fullName}/${method.name}`,
          root: file.root,
          file: file.path,
          line: method.line,
        });
        methods.set(methodKey(method.name), methodId);
      }
      this.methods.set(fullName, methods);
    }
  }

  /** Candidate services for a name as written; qualified names must match exactly. */
  resolveService(written: string, root: string): { entries: ServiceEntry[]; confidence: Confidence } {
    const exact = this.byFullName.get(written);
    if (exact) return { entries: [exact], confidence: 'exact' };
    const key = serviceKey(written.replace(/Client$/, ''));
    const candidates = this.byKey.get(key) ?? this.byKey.get(serviceKey(written)) ?? [];
    if (candidates.length <= 1) return { entries: candidates, confidence: 'exact' };
    const local = candidates.filter((c) => c.root === root);
    if (local.length === 1) return { entries: local, confidence: 'heuristic' };
    return { entries: candidates, confidence: 'ambiguous' };
  }

  /** The node of a service's method, as any language spells the method name. */
  method(service: ServiceEntry, name: string): string | undefined {
    return this.methods.get(service.fullName)?.get(methodKey(name));
  }

  /** Method key → the nodes of every service's method of that name. */
  methodsByKey(): Map<string, string[]> {
    const byMethod = new Map<string, string[]>();
    for (const methods of this.methods.values()) {
      for (const [key, id] of methods) (byMethod.get(key) ?? byMethod.set(key, []).get(key))?.push(id);
    }
    return byMethod;
  }
}

function declareMessages(builder: GraphBuilder, file: IndexedFile): void {
  for (const symbol of file.facts.symbols) {
    if (symbol.kind !== 'proto_message') continue;
    const name = file.facts.package ? `${file.facts.package}.${symbol.qualifiedName}` : symbol.qualifiedName;
    builder.node({ kind: 'proto_message', name, root: file.root, file: file.path, line: symbol.startLine });
  }
}
