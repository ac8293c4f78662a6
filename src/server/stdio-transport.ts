import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineReader, LONG_LINE_MESSAGE } from './line-reader.js';

/**
 * Newline-delimited JSON-RPC over stdio. Unlike the SDK's transport it answers a line that is not JSON with
 * -32700 and a JSON value that is not a JSON-RPC message with -32600 (both with `id: null` unless the id can
 * be read), keeps serving afterwards, and closes when stdin ends so that the process can exit.
 */
export class LineStdioTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private readonly lines = new LineReader(
    (line) => this.handleLine(line),
    () => this.refuseLongLine(),
  );
  private closed = false;
  private readonly input: Readable;
  private readonly output: Writable;

  constructor(input: Readable = process.stdin, output: Writable = process.stdout) {
    this.input = input;
    this.output = output;
  }

  async start(): Promise<void> {
    this.input.setEncoding('utf8');
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('close', this.onEnd);
    this.input.on('error', this.onInputError);
  }

  private readonly onData = (chunk: string): void => {
    this.lines.push(chunk);
  };

  private refuseLongLine(): void {
    this.reply(null, -32700, LONG_LINE_MESSAGE);
  }

  private readonly onEnd = (): void => {
    void this.close();
  };

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  private handleLine(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.reply(null, -32700, 'Parse error: the line is not valid JSON');
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = idOf(value);
      // A message without an id is a notification and never gets a reply, even a malformed one.
      if (id !== undefined) this.reply(id, -32600, 'Invalid Request: not a JSON-RPC 2.0 message');
      else if (!value || typeof value !== 'object' || Array.isArray(value)) {
        this.reply(null, -32600, 'Invalid Request: expected a JSON-RPC 2.0 object');
      }
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private reply(id: string | number | null, code: number, message: string): void {
    this.write(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) return resolve();
      if (this.output.write(`${text}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(JSON.stringify(message));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('close', this.onEnd);
    this.input.off('error', this.onInputError);
    this.onclose?.();
  }
}

function idOf(value: unknown): string | number | null | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value) || !('id' in value)) return undefined;
  const id = (value as { id: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
