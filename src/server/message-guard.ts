import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';
import { MAX_NESTING_DEPTH, pathText, tooDeepPath } from '../core/nesting.js';
import { show, typeName } from '../core/validation.js';

/** A JSON-RPC error to send back instead of handing the message on; `id` undefined means no reply is due. */
interface Refusal {
  readonly id: string | number | null | undefined;
  readonly code: number;
  readonly message: string;
}

/**
 * The requests this server answers, with the SDK's own schemas: the SDK parses each request with them before
 * its handler runs and reports a failure as an internal error whose message is zod's issue list. Parsing them
 * first lets a bad request be answered as invalid params, in words, naming the field.
 */
const REQUEST_SCHEMAS = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
} as const;

/** How to fix a field, for the fields a caller gets wrong. */
const FIELD_HINTS: Readonly<Record<string, string>> = {
  'params.arguments':
    'Send the tool\'s fields as one JSON object, e.g. {"mode": "search", "query": "OrderService"}; tools/list gives each tool\'s inputSchema.',
  'params.name': 'Name a tool that tools/list returns.',
  params: 'Send params as a JSON object.',
};

const NOUNS: Readonly<Record<string, string>> = {
  record: 'a JSON object',
  object: 'a JSON object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
};

interface Issue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly expected?: string;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (!value || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function issueText(issue: Issue, message: unknown): string {
  const field = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
  const where = `\`${pathText(field, field.length)}\``;
  if (issue.code === 'invalid_type' && issue.expected) {
    const expected = NOUNS[issue.expected] ?? issue.expected;
    const got = valueAt(message, issue.path);
    if (got === undefined) return `${where} is required: ${expected}`;
    return `${where} must be ${expected}, got ${got === null ? 'null' : `${typeName(got)} ${show(got)}`}`;
  }
  return `${where} is invalid: ${issue.message}`;
}

function requestIdOf(message: Record<string, unknown>): string | number | null | undefined {
  if (typeof message.method !== 'string' || !('id' in message)) return undefined;
  return typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
}

/** Why a message must not reach the SDK's parsing or our handlers, or undefined when it may. */
export function screenMessage(message: unknown): Refusal | undefined {
  if (!message || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const record = message as Record<string, unknown>;
  const id = requestIdOf(record);
  const deep = tooDeepPath(message);
  if (deep) {
    const inArguments = deep[0] === 'params' && deep[1] === 'arguments';
    const why = inArguments
      ? 'tool arguments are flat strings, numbers and booleans'
      : 'no MCP message nests that deep';
    const text = `\`${pathText(deep, 3)}\` nests deeper than ${MAX_NESTING_DEPTH} levels; ${why}.`;
    return deep[0] === 'params'
      ? { id, code: ErrorCode.InvalidParams, message: `Invalid params: ${text}` }
      : { id, code: ErrorCode.InvalidRequest, message: `Invalid Request: ${text}` };
  }
  const method = record.method;
  const schema =
    id !== undefined && typeof method === 'string' && Object.hasOwn(REQUEST_SCHEMAS, method)
      ? REQUEST_SCHEMAS[method as keyof typeof REQUEST_SCHEMAS]
      : undefined;
  const parsed = schema?.safeParse(message);
  if (!parsed || parsed.success) return undefined;
  const issues = parsed.error.issues as readonly Issue[];
  const texts = [...new Set(issues.map((issue) => issueText(issue, message)))].slice(0, 3);
  const first = issues[0]?.path.filter((key) => typeof key !== 'symbol').join('.') ?? '';
  const hint = FIELD_HINTS[first] ?? `See the MCP specification of \`${String(method)}\`.`;
  return {
    id,
    code: ErrorCode.InvalidParams,
    message: `Invalid params for ${String(method)}: ${texts.join('; ')}. ${hint}`,
  };
}

/**
 * Wraps a transport so that every incoming message is screened before the SDK sees it: a request nested
 * deeper than any real one, or whose params do not fit its method, is answered here with -32602 (or -32600
 * when the depth is outside params), naming the field; a notification or response like that is dropped and
 * reported through `onerror`. Everything else passes through untouched, in both directions.
 */
export class GuardedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(private readonly inner: Transport) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    // Handlers set on the inner transport before it was wrapped keep being called, as the SDK does.
    const { onclose, onerror, onmessage } = this.inner;
    this.inner.onclose = () => {
      onclose?.();
      this.onclose?.();
    };
    this.inner.onerror = (error) => {
      onerror?.(error);
      this.onerror?.(error);
    };
    this.inner.onmessage = (message, extra) => {
      onmessage?.(message, extra);
      this.receive(message, extra);
    };
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    const refusal = screenMessage(message);
    if (!refusal) {
      this.onmessage?.(message, extra);
      return;
    }
    if (refusal.id === undefined) {
      this.onerror?.(new Error(`dropped a message: ${refusal.message}`));
      return;
    }
    const reply: JSONRPCMessage = {
      jsonrpc: '2.0',
      id: refusal.id,
      error: { code: refusal.code, message: refusal.message },
    } as JSONRPCMessage;
    this.inner.send(reply).catch((error: unknown) => {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    });
  }
}
