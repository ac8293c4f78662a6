import type { Socket } from 'node:net';
import { LineStdioTransport } from '../stdio-transport.js';

/**
 * One daemon client's MCP session: newline-delimited JSON-RPC on its socket, checked line by line exactly as
 * over stdio (the thin client forwards its stdin unchanged). Closing the session ends the socket.
 */
export class SocketLineTransport extends LineStdioTransport {
  private readonly socket: Socket;

  constructor(socket: Socket) {
    super(socket, socket);
    this.socket = socket;
  }

  override async start(): Promise<void> {
    await super.start();
    // The hello was read with the socket paused (first-line.ts): what followed it flows from here on.
    this.socket.resume();
  }

  override async close(): Promise<void> {
    await super.close();
    this.socket.end();
  }
}
