/**
 * MCP resources, each answered by an operation through the registry — the same masking, path jail,
 * governance and audit as a tool call: the services, the contract graph (JSON and the HTML page), and
 * templates for a service's neighbourhood, a contract's definition, its impact, a document and a note.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Domain } from '../core/operation.js';
import type { Principal } from '../core/principal.js';
import type { Registry } from '../core/registry.js';
import type { ViewOf } from './caller-view.js';
import type { IndexCatalog } from './catalog.js';
import type { DocumentStore } from './documents.js';

interface Answer {
  readonly text: string;
  readonly mimeType: string;
}

/** An operation's answer, as text and as JSON; each resource says which it serves, and as what type. */
type Call = ((
  domain: Domain,
  mode: string,
  args: Record<string, unknown>,
) => Promise<{ readonly text: string; readonly json: Record<string, unknown> }>) & {
  /** Whether the caller's view holds the operation a resource is read with. */
  readonly offers: (resource: { readonly uses: Uses }) => boolean;
};

/** The operation a resource is read with: without it (a disabled domain) the resource is not offered. */
type Uses = readonly [Domain, string];

interface FixedResource {
  readonly uri: string;
  readonly uses: Uses;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly mimeType: string;
  read(call: Call): Promise<string>;
}

export interface ResourceTemplateEntry {
  readonly prefix: string;
  readonly uses: Uses;
  readonly variable: 'service' | 'target' | 'path' | 'key';
  /** Which catalog list completes the variable. */
  readonly names: keyof IndexCatalog;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly mimeType: string;
  read(call: Call, value: string): Promise<string>;
}

const FIXED: readonly FixedResource[] = [
  {
    uri: 'meshlens://services',
    uses: ['admin', 'status'],
    name: 'services',
    title: 'Services',
    description:
      'The services the workspace declares, with every name each answers to, and folders of code no root covers.',
    mimeType: 'application/json',
    async read(call) {
      const { json } = await call('admin', 'status', {});
      return JSON.stringify({ services: json.services ?? [], uncovered: json.uncovered ?? [] }, null, 2);
    },
  },
  {
    uri: 'meshlens://graph.json',
    uses: ['graph', 'visualize'],
    name: 'graph.json',
    title: 'Service topology (JSON)',
    description: 'Services, topics and weighted links folded from the contract graph.',
    mimeType: 'application/json',
    read: async (call) => (await call('graph', 'visualize', { format: 'json' })).text,
  },
  {
    uri: 'meshlens://graph.html',
    uses: ['graph', 'visualize'],
    name: 'graph.html',
    title: 'Service topology (HTML page)',
    description: 'A self-contained page drawing the topology, for a browser.',
    mimeType: 'text/html',
    read: async (call) => (await call('graph', 'visualize', { format: 'html' })).text,
  },
];

export const TEMPLATES: readonly ResourceTemplateEntry[] = [
  {
    prefix: 'meshlens://services/',
    uses: ['graph', 'visualize'],
    variable: 'service',
    names: 'services',
    name: 'service',
    title: 'A service and its neighbours',
    description: 'The topology around one service (Mermaid), by root or manifest name.',
    mimeType: 'text/markdown',
    read: async (call, service) => (await call('graph', 'visualize', { format: 'mermaid', service })).text,
  },
  {
    prefix: 'meshlens://contracts/',
    uses: ['code', 'search'],
    variable: 'target',
    names: 'contracts',
    name: 'contract',
    title: 'A contract’s definition',
    description:
      'Where a gRPC service or method, message or other named contract is declared, with its body.',
    mimeType: 'text/markdown',
    read: async (call, target) =>
      (await call('code', 'search', { query: target, include_body: true, limit: 5 })).text,
  },
  {
    prefix: 'meshlens://impact/',
    uses: ['contracts', 'impact'],
    variable: 'target',
    names: 'contracts',
    name: 'impact',
    title: 'What a contract change impacts',
    description: 'The producers, consumers, callers and handlers a change to an RPC, topic or route reaches.',
    mimeType: 'text/markdown',
    read: async (call, target) => (await call('contracts', 'impact', { target })).text,
  },
  {
    prefix: 'meshlens://docs/',
    uses: ['docs', 'read'],
    variable: 'path',
    names: 'documents',
    name: 'document',
    title: 'A team document',
    description: 'One indexed Markdown document, secrets masked.',
    mimeType: 'text/markdown',
    read: async (call, path) => (await call('docs', 'read', { path })).text,
  },
  {
    prefix: 'meshlens://notes/',
    uses: ['memory', 'get'],
    variable: 'key',
    names: 'noteKeys',
    name: 'note',
    title: 'A note about this workspace',
    description: 'The note stored under one key (memory get), e.g. meshlens://notes/deploy/payment-worker.',
    mimeType: 'text/markdown',
    read: async (call, key) => (await call('memory', 'get', { key })).text,
  },
];

/** Variables whose values hold `/` (paths, path-like note keys): expanded and decoded segment by segment. */
const slashed = (t: ResourceTemplateEntry): boolean => t.variable === 'path' || t.variable === 'key';

const templateUri = (t: ResourceTemplateEntry): string =>
  `${t.prefix}{${slashed(t) ? '+' : ''}${t.variable}}`;

export const documentUri = (path: string): string =>
  `meshlens://docs/${path.split('/').map(encodeURIComponent).join('/')}`;

/** Documents listed among the resources at most; the template reads any other. */
const LISTED_DOCUMENTS = 200;

const offeredBy =
  (registry: Registry) =>
  ({ uses: [domain, mode] }: { readonly uses: Uses }): boolean =>
    registry.byDomainMode(domain, mode) !== undefined;

/**
 * The fixed resources and the templates this registry (a caller's view) can read, by URI: what a config
 * reload that disables a domain or changes a visibility tier changes.
 */
export function offeredResourceUris(registry: Registry): string[] {
  const offered = offeredBy(registry);
  return [...FIXED.filter(offered).map((r) => r.uri), ...TEMPLATES.filter(offered).map(templateUri)];
}

/** The templates a caller's view can read: the only ones its completions may name values for. */
export const offeredTemplates = (registry: Registry): readonly ResourceTemplateEntry[] =>
  TEMPLATES.filter(offeredBy(registry));

/**
 * Resources follow the caller's view: one read through an operation the caller may not see is neither
 * listed nor readable, and reading it gets the answer a URI that does not exist gets.
 */
export function registerResources(
  server: Server,
  deps: { viewOf: ViewOf; catalog: IndexCatalog; documents: DocumentStore },
): void {
  server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => {
    const { registry } = await deps.viewOf(extra);
    const documents = registry.byDomainMode('docs', 'read') ? deps.catalog.documents() : [];
    return {
      resources: [
        ...FIXED.filter(offeredBy(registry)).map(({ uri, name, title, description, mimeType }) => ({
          uri,
          name,
          title,
          description,
          mimeType,
        })),
        ...documents
          .slice(0, LISTED_DOCUMENTS)
          .map((path) => ({ uri: documentUri(path), name: path, mimeType: 'text/markdown' })),
        ...deps.documents.list().map(({ uri, name, mimeType }) => ({ uri, name, mimeType })),
      ],
    };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async (_request, extra) => ({
    resourceTemplates: offeredTemplates((await deps.viewOf(extra)).registry).map((t) => ({
      uriTemplate: templateUri(t),
      name: t.name,
      title: t.title,
      description: t.description,
      mimeType: t.mimeType,
    })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { uri } = request.params;
    const { registry, principal } = await deps.viewOf(extra);
    const answer = await readResource(uri, operationCaller(registry, principal), deps.documents);
    return { contents: [{ uri, mimeType: answer.mimeType, text: answer.text }] };
  });
}

async function readResource(uri: string, call: Call, documents: DocumentStore): Promise<Answer> {
  const stored = documents.get(uri);
  if (stored) return { text: stored.text, mimeType: stored.mimeType };
  const fixed = FIXED.filter(call.offers).find((r) => r.uri === uri);
  if (fixed) return { text: await fixed.read(call), mimeType: fixed.mimeType };
  for (const template of TEMPLATES.filter(call.offers)) {
    if (!uri.startsWith(template.prefix) || uri.length === template.prefix.length) continue;
    const raw = uri.slice(template.prefix.length);
    let value: string;
    try {
      value = slashed(template) ? raw.split('/').map(decodeURIComponent).join('/') : decodeURIComponent(raw);
    } catch {
      throw new McpError(ErrorCode.InvalidParams, `Resource URI ${uri} is not validly percent-encoded.`);
    }
    return { text: await template.read(call, value), mimeType: template.mimeType };
  }
  throw new McpError(
    RESOURCE_NOT_FOUND,
    `No resource ${uri}. resources/list and resources/templates/list give what exists.`,
  );
}

/** MCP's code for an unknown resource. */
const RESOURCE_NOT_FOUND = -32002;

/**
 * Runs an operation through the caller's view of the registry, as the caller; a failed call is the
 * resource request's error, in its words. `offers`: whether a resource's operation is in the view.
 */
function operationCaller(registry: Registry, principal: Principal): Call {
  const call = async (domain: Domain, mode: string, args: Record<string, unknown>) => {
    const op = registry.byDomainMode(domain, mode);
    // Unreachable through readResource, which only reads the resources `offers` lets through.
    if (!op) throw new McpError(RESOURCE_NOT_FOUND, `No operation ${domain} ${mode} for this caller.`);
    const result = await registry.invoke({
      address: { kind: 'operation', op, label: `resource ${domain} ${mode}` },
      rawArgs: args,
      principal,
    });
    if (result.isError) throw new McpError(ErrorCode.InvalidParams, result.text);
    return { text: result.text, json: result.json };
  };
  return Object.assign(call, { offers: offeredBy(registry) });
}
