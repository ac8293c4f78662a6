import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Registry } from '../core/registry.js';
import { MAX_OUTPUT_BYTES, byteLength } from '../core/budget.js';
import { EMPTY_CATALOG, type IndexCatalog } from './catalog.js';
import { registerCompletions } from './completions.js';
import { callerOf } from './caller-auth-info.js';
import { DocumentStore } from './documents.js';
import { KEY_SESSION_INSTRUCTIONS, SERVER_INSTRUCTIONS } from './instructions.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { MeshServer } from './mesh-server.js';
import { announceListChanges } from './list-changes.js';
import { ServedRegistry } from './served-registry.js';
import { SessionViews } from './caller-view.js';
import type { Principal } from '../core/principal.js';
import { surfacesOf, type Surface, type SurfaceKind } from './surface.js';

export interface McpServerOptions {
  /** The operations to serve: a registry, or one composed later and replaced on a config reload. */
  readonly registry: Registry | ServedRegistry;
  readonly surface: SurfaceKind;
  readonly version: string;
  /**
   * Advertise each tool's `outputSchema` and send the JSON rendering as `structuredContent` beside the text.
   * `serve --text-only` turns it off for clients that show the structured part to the model instead of
   * the Markdown.
   */
  readonly structuredOutput?: boolean;
  /** Names from the index for completions and the resource list; none when absent. */
  readonly catalog?: IndexCatalog;
  /**
   * Who this session serves, for the lists it is told changed: the local principal (stdio) by default. A
   * request that carries an authenticated key is answered for that key (see caller-auth-info.ts).
   */
  readonly principal?: Principal;
}

/**
 * The registry as an MCP server. The low-level `Server` is used so that the input schemas we generate are
 * sent exactly as generated (no `$schema` key, no `$ref`), and so that an unknown tool is a JSON-RPC error
 * while everything that goes wrong inside a tool is an `isError` result.
 */
export function createMcpServer(options: McpServerOptions): MeshServer {
  const served =
    options.registry instanceof ServedRegistry ? options.registry : ServedRegistry.of(options.registry);
  const surfaceOf = surfacesOf(options.surface);
  const views = new SessionViews(served, surfaceOf, options.principal);
  const server = new MeshServer(
    { name: 'meshlens', title: 'meshlens', version: options.version },
    {
      capabilities: {
        tools: { listChanged: true },
        logging: {},
        resources: { listChanged: true },
        prompts: { listChanged: true },
        completions: {},
      },
      instructions: options.principal?.kind === 'key' ? KEY_SESSION_INSTRUCTIONS : SERVER_INSTRUCTIONS,
    },
  );
  server.keepClientLogLevel();
  const catalog = options.catalog ?? EMPTY_CATALOG;
  const documents = new DocumentStore();

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => ({
    tools: (await views.viewOf(extra)).surface.tools().map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      ...(options.structuredOutput ? { outputSchema: tool.outputSchema } : {}),
      annotations: tool.annotations,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { registry, surface, principal } = await views.viewOf(extra);
    return callTool(server, { registry, surface, principal, options, documents }, request, extra);
  });
  registerResources(server, { viewOf: views.viewOf, catalog, documents });
  registerPrompts(server, views.viewOf);
  registerCompletions(server, catalog, views.viewOf);
  const stopAnnouncing = served.onReplace((before, after) =>
    announceListChanges(server, views.sessionView(before), views.sessionView(after)),
  );
  // Over HTTP many sessions share one registry: a closed session's server must stop listening to it.
  server.onclose = stopAnnouncing;
  documents.onPublish(() => void server.sendResourceListChanged().catch(() => undefined));
  return server;
}

type CallRequest = { params: { name: string; arguments?: Record<string, unknown>; _meta?: unknown } };
type CallExtra = {
  signal: AbortSignal;
  requestId: RequestId;
  sessionId?: string;
  authInfo?: AuthInfo;
  sendNotification: (n: {
    method: 'notifications/progress';
    params: Record<string, unknown>;
  }) => Promise<void>;
};

interface CallContext {
  readonly registry: Registry;
  readonly surface: Surface;
  /** The caller the view is for: admitted and counted as such. */
  readonly principal: Principal;
  readonly options: McpServerOptions;
  readonly documents: DocumentStore;
}

async function callTool(
  server: MeshServer,
  { registry, surface, principal, options, documents }: CallContext,
  request: CallRequest,
  extra: CallExtra,
): Promise<CallToolResult> {
  const address = surface.resolve(request.params.name);
  if (!address) {
    const names = surface.tools().map((t) => t.name);
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown tool: ${request.params.name}. Tools: ${names.join(', ')}`,
    );
  }
  const client = server.getClientVersion();
  const result = await registry.invoke({
    address,
    ...(client ? { client: { name: client.name, version: client.version } } : {}),
    principal,
    ...(callerOf(extra.authInfo).admitted ? { admitted: true } : {}),
    ...(extra.sessionId ? { session: auditSessionOf(extra.sessionId) } : {}),
    rawArgs: request.params.arguments,
    requestMeta: request.params._meta,
    signal: extra.signal,
    sendProgress: (progressToken, progress, total, message) => {
      void extra
        .sendNotification({
          method: 'notifications/progress',
          params: {
            progressToken,
            progress,
            ...(total !== undefined ? { total } : {}),
            ...(message ? { message } : {}),
          },
        })
        .catch(() => undefined);
    },
    sendLog: (message) => void server.log('info', message, extra.requestId).catch(() => undefined),
  });
  if (result.isError) return { content: [{ type: 'text', text: result.text }], isError: true };
  const content =
    result.document && byteLength(result.text) > MAX_OUTPUT_BYTES
      ? documentLink(documents, request.params.name, result.text)
      : [{ type: 'text' as const, text: result.text }];
  // A tool with an outputSchema must answer with structuredContent; the text stays for older clients.
  return options.structuredOutput ? { content, structuredContent: result.json } : { content };
}

/**
 * An HTTP session as the audit log names it: enough of the id to tell sessions apart, not enough to use one
 * (whoever holds the whole id may send requests in that session).
 */
export function auditSessionOf(sessionId: string): string {
  return `http-${sessionId.slice(0, 8)}`;
}

/**
 * A document over the answer cap (the HTML topology) is kept as a resource and linked, never sent as a
 * tool answer that a client would cut or drop.
 */
function documentLink(documents: DocumentStore, tool: string, text: string): CallToolResult['content'] {
  const html = /^\s*<!doctype html|^\s*<html/i.test(text);
  const json = !html && /^\s*[{[]/.test(text);
  const mimeType = html ? 'text/html' : json ? 'application/json' : 'text/markdown';
  const stored = documents.publish(tool, mimeType, text);
  const kb = Math.round(byteLength(text) / 1024);
  return [
    {
      type: 'text',
      text: `The document is ${kb} KB, more than an answer may hold: read it with resources/read at ${stored.uri} (${mimeType}).`,
    },
    { type: 'resource_link', uri: stored.uri, name: stored.name, mimeType },
  ];
}
