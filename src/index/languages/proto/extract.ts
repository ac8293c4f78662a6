/**
 * `.proto` files: the source of truth for gRPC contracts. Services, rpcs, messages and enums become symbols
 * with the lines they are written on, services also become `protoServices` (what handlers and clients are
 * matched against), and `import` statements become imports. Health services are declared like any other;
 * leaving `grpc.health.v1` out of the contract graph is the reconciler's job.
 */
import type { FileFacts, ProtoServiceFact, SymbolFact } from '../../facts.js';
import type { ExtractInput } from '../extractor.js';
import { FactBuilder } from '../shared/fact-builder.js';
import {
  parseProtoSchema,
  type ProtoEnum,
  type ProtoMessage,
  type ProtoSchema,
  type ProtoService,
} from './schema.js';

/** A declaration before it has an id; `parent` is the enclosing declaration's qualified name. */
interface Declaration {
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
  const facts = new FactBuilder(input.language);
  const ids = new Map<string, number>();
  for (const { parent, ...declaration } of declarations(schema)) {
    const parentId = parent === undefined ? undefined : ids.get(parent);
    ids.set(declaration.qualifiedName, facts.addSymbol({ ...declaration, parent: parentId }));
  }
  for (const i of schema.imports)
    facts.addImport({ source: i.path, line: i.line, ...(i.kind === 'public' ? { reexport: true } : {}) });
  return facts.build({
    package: schema.package !== '' ? schema.package : undefined,
    protoServices: schema.services.map((service) => protoService(schema.package, service)),
  });
}

/** Services, rpcs, messages and enums in source order, so that a parent comes before its children. */
function declarations(schema: ProtoSchema): Declaration[] {
  const found: Declaration[] = [];
  for (const service of schema.services) serviceDeclarations(service, found);
  for (const message of schema.messages) messageDeclarations(message, undefined, found);
  for (const e of schema.enums) found.push(enumDeclaration(e, undefined));
  return found.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
}

const doc = (docstring: string | undefined): { docstring?: string } =>
  docstring !== undefined ? { docstring } : {};

function serviceDeclarations(service: ProtoService, out: Declaration[]): void {
  out.push({
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
    out.push({
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
}

function messageDeclarations(m: ProtoMessage, parent: string | undefined, out: Declaration[]): void {
  out.push({
    kind: 'proto_message',
    name: m.name,
    qualifiedName: m.fullName,
    signature: `message ${m.name}`,
    startLine: m.startLine,
    endLine: m.endLine,
    ...doc(m.docstring),
    ...(parent !== undefined ? { parent } : {}),
  });
  for (const nested of m.messages) messageDeclarations(nested, m.fullName, out);
  for (const nested of m.enums) out.push(enumDeclaration(nested, m.fullName));
}

function enumDeclaration(e: ProtoEnum, parent: string | undefined): Declaration {
  return {
    kind: 'proto_enum',
    name: e.name,
    qualifiedName: e.fullName,
    signature: `enum ${e.name}`,
    startLine: e.startLine,
    endLine: e.endLine,
    ...doc(e.docstring),
    ...(parent !== undefined ? { parent } : {}),
  };
}

function protoService(pkg: string, service: ProtoService): ProtoServiceFact {
  return {
    package: pkg,
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
  };
}
