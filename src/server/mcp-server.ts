import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Registry } from '../core/registry.js';
import { MAX_OUTPUT_BYTES, byteLength } from '../core/budget.js';
import { SERVER_INSTRUCTIONS } from './instructions.js';
import { GuardedTransport } from './message-guard.js';
import { createSurface, type SurfaceKind } from './surface.js';

export interface McpServerOptions {
  readonly registry: Registry;
  readonly surface: SurfaceKind;
  readonly version: string;
  /**
   * Advertise each tool's `outputSchema` and send the JSON rendering as `structuredContent` beside the text.
   * `serve --text-only` turns it off for clients that show the structured part to the model instead of
   * the Markdown.
   */
  readonly structuredOutput?: boolean;
}

/** A server that screens every incoming message (depth, request shape) on whatever transport it is given. */
class GuardedServer extends Server {
  override connect(transport: Transport): Promise<void> {
    return super.connect(new GuardedTransport(transport));
  }
}

/**
 * The registry as an MCP server. The low-level `Server` is used so that the input schemas we generate are
 * sent exactly as generated (no `$schema` key, no `$ref`), and so that an unknown tool is a JSON-RPC error
 * while everything that goes wrong inside a tool is an `isError` result.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const surface = createSurface(options.surface, options.registry);
  const server = new GuardedServer(
    { name: 'meshlens', title: 'meshlens', version: options.version },
    { capabilities: { tools: {}, logging: {} }, instructions: SERVER_INSTRUCTIONS },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: surface.tools().map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      ...(options.structuredOutput ? { outputSchema: tool.outputSchema } : {}),
      annotations: tool.annotations,
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const address = surface.resolve(request.params.name);
    if (!address) {
      const names = surface.tools().map((t) => t.name);
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool: ${request.params.name}. Tools: ${names.join(', ')}`,
      );
    }
    const result = await options.registry.invoke({
      address,
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
      sendLog: (message) => {
        void server
          .sendLoggingMessage({ level: 'info', logger: 'meshlens', data: message }, extra.sessionId)
          .catch(() => undefined);
      },
    });
    const content: CallToolResult['content'] = [{ type: 'text', text: result.text }];
    if (result.isError) return { content, isError: true };
    // A tool with an outputSchema must answer with structuredContent; the text stays for older clients.
    return options.structuredOutput ? { content, structuredContent: result.json } : { content };
  });

  return server;
}
