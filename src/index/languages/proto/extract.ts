/**
 * `.proto` files: the source of truth for gRPC contracts. Services, rpcs, messages and enums become symbols
 * with the lines they are written on, services also become `protoServices` (what handlers and clients are
 * matched against), and `import` statements become imports. Health services are declared like any other;
 * leaving `grpc.health.v1` out of the contract graph is the reconciler's job.
 */
import type { FileFacts, ImportFact, ProtoServiceFact, SymbolFact } from '../../facts.js';
import type { ExtractInput } from '../extractor.js';
import { parseProtoSchema, type ProtoEnum, type ProtoMessage } from './schema.js';

interface Pending {
  readonly kind: SymbolFact['kind'];
  readonly name: string;
  readonly qualifiedName: string;
  readonly signature: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly docstring?: string;
  readonly parent?: string;
}

/** Throws when protobufjs rejects the file, which marks it failed with protobufjs's reason. */
export function extractProto(input: ExtractInput): FileFacts {
  const schema = parseProtoSchema(input.source);
  const pending: Pending[] = [];
  const doc = (docstring: string | undefined) => (docstring !== undefined ? { docstring } : {});

  const addEnum = (e: ProtoEnum, parent?: string): void => {
    pending.push({
      kind: 'proto_enum',
      name: e.name,
      qualifiedName: e.fullName,
      signature: `enum ${e.name}`,
      startLine: e.startLine,
      endLine: e.endLine,
      ...doc(e.docstring),
      ...(parent !== undefined ? { parent } : {}),
    });
  };
  const addMessage = (m: ProtoMessage, parent?: string): void => {
    pending.push({
      kind: 'proto_message',
      name: m.name,
      qualifiedName: m.fullName,
      signature: `message ${m.name}`,
      startLine: m.startLine,
      endLine: m.endLine,
      ...doc(m.docstring),
      ...(parent !== undefined ? { parent } : {}),
    });
    for (const nested of m.messages) addMessage(nested, m.fullName);
    for (const nested of m.enums) addEnum(nested, m.fullName);
  };

  const protoServices: ProtoServiceFact[] = [];
  for (const service of schema.services) {
    pending.push({
      kind: 'grpc_service',
      name: service.name,
      qualifiedName: service.fullName,
      signature: `service ${service.name}`,
      startLine: service.startLine,
      endLine: service.endLine,
      ...doc(service.docstring),
    });
    for (const method of service.methods) {
      const request = `${method.clientStreaming ? 'stream ' : ''}${method.requestType}`;
      const response = `${method.serverStreaming ? 'stream ' : ''}${method.responseType}`;
      pending.push({
        kind: 'grpc_method',
        name: method.name,
        qualifiedName: `${service.fullName}/${method.name}`,
        signature: `rpc ${method.name}(${request}) returns (${response})`,
        startLine: method.startLine,
        endLine: method.endLine,
        ...doc(method.docstring),
        parent: service.fullName,
      });
    }
    protoServices.push({
      package: schema.package,
      name: service.name,
      line: service.startLine,
      methods: service.methods.map((m) => ({
        name: m.name,
        line: m.startLine,
        requestType: m.requestType,
        responseType: m.responseType,
        clientStreaming: m.clientStreaming,
        serverStreaming: m.serverStreaming,
      })),
    });
  }
  for (const message of schema.messages) addMessage(message);
  for (const e of schema.enums) addEnum(e);

  // Source order; a parent always starts before its children, so parents get their ids first.
  pending.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
  const ids = new Map<string, number>();
  const symbols = pending.map((p, id): SymbolFact => {
    ids.set(p.qualifiedName, id);
    const parent = p.parent !== undefined ? ids.get(p.parent) : undefined;
    return {
      id,
      kind: p.kind,
      name: p.name,
      qualifiedName: p.qualifiedName,
      signature: p.signature,
      startLine: p.startLine,
      endLine: p.endLine,
      ...(p.docstring !== undefined ? { docstring: p.docstring } : {}),
      ...(parent !== undefined ? { parent } : {}),
    };
  });

  const imports = schema.imports.map((i): ImportFact => ({
    source: i.path,
    line: i.line,
    ...(i.kind === 'public' ? { reexport: true } : {}),
  }));
  return {
    language: input.language,
    ...(schema.package !== '' ? { package: schema.package } : {}),
    symbols,
    imports,
    contracts: [],
    protoServices,
  };
}
