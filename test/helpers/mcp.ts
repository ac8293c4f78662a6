import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { KeyPrincipal } from '../../src/core/principal.js';
import type { Registry } from '../../src/core/registry.js';
import { authInfoOf } from '../../src/server/caller-auth-info.js';
import type { ServedRegistry } from '../../src/server/served-registry.js';
import { createMcpServer } from '../../src/server/mcp-server.js';
import type { IndexCatalog } from '../../src/server/catalog.js';
import type { SurfaceKind } from '../../src/server/surface.js';

/**
 * A real SDK client talking to our server through the SDK's in-memory transport pair. With `key`, every
 * message carries that key's principal, as the HTTP transport attaches it to an authenticated request.
 */
export async function connectClient(
  registry: Registry | ServedRegistry,
  surface: SurfaceKind = 'domain',
  options: {
    structuredOutput?: boolean;
    clientName?: string;
    catalog?: IndexCatalog;
    key?: KeyPrincipal;
    /** The principal the session is created for (the HTTP transport knows it before `initialize`). */
    principal?: KeyPrincipal;
    onClient?: (client: Client) => void;
  } = {},
): Promise<Client> {
  const { clientName, key, onClient, ...serverOptions } = options;
  const server = createMcpServer({ registry, surface, version: 'test', ...serverOptions });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  if (key) {
    const send = clientTransport.send.bind(clientTransport);
    clientTransport.send = (message, sendOptions) =>
      send(message, { ...sendOptions, authInfo: authInfoOf(key, false) });
  }
  await server.connect(serverTransport);
  const client = new Client({ name: clientName ?? 'meshlens-test', version: '1.0.0' });
  onClient?.(client);
  await client.connect(clientTransport);
  return client;
}

/** The text of a tool result, asserting it has exactly one text block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  if (content.length !== 1 || content[0]?.type !== 'text')
    throw new Error(`expected one text block, got ${JSON.stringify(content)}`);
  return content[0].text ?? '';
}

/** A tool's document answer: its text, or the resource its `resource_link` names when over the cap. */
export async function documentOf(client: Client, result: unknown): Promise<string> {
  const content = (result as { content?: { type: string; text?: string; uri?: string }[] }).content ?? [];
  const link = content.find((c) => c.type === 'resource_link');
  if (!link?.uri) return textOf(result);
  const [first] = (await client.readResource({ uri: link.uri })).contents;
  return first && 'text' in first ? String(first.text) : '';
}
