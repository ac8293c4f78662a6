import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { LineReader, LONG_LINE_MESSAGE } from '../line-reader.js';
import { connectToDaemon, type Connection, type ConnectOptions } from './daemon-connect.js';
import { SessionLedger } from './session-ledger.js';

export interface ThinClientOptions extends ConnectOptions {
  readonly input: Readable;
  readonly output: Writable;
  /** One line for the user, on stderr. */
  readonly warn: (text: string) => void;
}

export type ThinClientOutcome =
  /** The MCP client closed stdin: the session is over. */
  | { readonly kind: 'served' }
  /** The daemon died and no other could be attached; the requests still open were answered with errors. */
  | { readonly kind: 'lost'; readonly reason: string }
  /** No daemon could be attached at the start (another version, or none started): serve in-process. */
  | Exclude<Connection, { kind: 'attached' }>;

/** After stdin closes, how long the daemon gets to answer what was sent before it. */
const DRAIN_MS = 5_000;

const RESTARTED =
  'The meshlens daemon serving this session stopped before answering this request; the session is being ' +
  'attached to a new daemon. Send the request again.';
const NOT_SENT =
  'The meshlens daemon serving this session stopped and no new one could be started, so this request was not sent.';

const errorLine = (id: unknown, code: number, message: string): string =>
  JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });

/**
 * `meshlens serve` as a thin pipe to the workspace's daemon: stdin lines go to the socket, socket lines to
 * stdout, nothing is parsed beyond the ids it keeps books on. When the daemon dies mid-session, the open
 * requests are answered with an error that says to retry, a new daemon is attached, and the session's
 * `initialize` (and settings) are sent to it again, their answers swallowed.
 */
export async function runThinClient(options: ThinClientOptions): Promise<ThinClientOutcome> {
  const first = await connectToDaemon(options);
  if (first.kind !== 'attached') return first;
  return new ThinPipe(options).run(first.socket);
}

class ThinPipe {
  private socket: Socket | undefined;
  private readonly ledger = new SessionLedger();
  /** Lines from stdin while no daemon is attached. */
  private queue: string[] = [];
  /** Answers to replayed requests, not for the client. */
  private readonly swallow = new Set<string>();
  private replays = 0;
  private inputEnded = false;
  /** Backpressure: stdin paused until the socket drains, the socket paused until stdout drains. */
  private inputPaused = false;
  private outputFull = false;
  private finish: (outcome: ThinClientOutcome) => void = () => undefined;
  private readonly options: ThinClientOptions;

  constructor(options: ThinClientOptions) {
    this.options = options;
  }

  run(socket: Socket): Promise<ThinClientOutcome> {
    const { input, output } = this.options;
    const done = new Promise<ThinClientOutcome>((resolve) => (this.finish = resolve));
    const lines = new LineReader(
      (line) => this.fromClient(line),
      () => this.toClient(errorLine(null, -32700, LONG_LINE_MESSAGE)),
    );
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => lines.push(chunk));
    input.once('end', () => this.inputGone());
    input.once('close', () => this.inputGone());
    // A client that stopped reading has gone: nobody is left to answer.
    output.on('error', () => this.finish({ kind: 'served' }));
    this.use(socket, []);
    return done;
  }

  /** Reads and writes through `socket` from now on; `preamble` goes first, then what stdin queued. */
  private use(socket: Socket, preamble: readonly string[]): void {
    this.socket = socket;
    // The daemon's lines go to the client whatever their length: it is the server, not a stranger.
    const lines = new LineReader(
      (line) => this.fromDaemon(line),
      () => undefined,
      Infinity,
    );
    socket.on('data', (chunk: string) => lines.push(chunk));
    socket.on('error', () => undefined);
    socket.once('close', () => {
      if (this.socket === socket) void this.daemonLost();
    });
    // Left paused after its hello (first-line.ts); read once stdout has room.
    if (!this.outputFull) socket.resume();
    this.inputPaused = false;
    for (const line of [...preamble, ...this.queue]) this.toDaemon(line);
    this.queue = [];
    if (!this.inputPaused) this.options.input.resume();
  }

  private fromClient(line: string): void {
    this.ledger.sent(line);
    if (this.socket) this.toDaemon(line);
    else this.queue.push(line);
  }

  private toDaemon(line: string): void {
    const socket = this.socket;
    if (!socket) return;
    if (!socket.write(`${line}\n`) && !this.inputPaused) {
      this.inputPaused = true;
      this.options.input.pause();
      socket.once('drain', () => {
        this.inputPaused = false;
        this.options.input.resume();
      });
    }
  }

  private fromDaemon(line: string): void {
    const answered = this.ledger.received(line);
    if (answered !== undefined && this.swallow.delete(answered)) return;
    this.toClient(line);
  }

  private toClient(line: string): void {
    if (!this.options.output.write(`${line}\n`) && !this.outputFull) {
      this.outputFull = true;
      this.socket?.pause();
      this.options.output.once('drain', () => {
        this.outputFull = false;
        this.socket?.resume();
      });
    }
  }

  /** stdin closed: the daemon's session ends too, once it has answered what it was sent. */
  private inputGone(): void {
    if (this.inputEnded) return;
    this.inputEnded = true;
    this.endSession();
  }

  private endSession(): void {
    const socket = this.socket;
    if (!socket) return this.finish({ kind: 'served' });
    socket.once('close', () => this.finish({ kind: 'served' }));
    socket.end();
    setTimeout(() => this.finish({ kind: 'served' }), DRAIN_MS).unref();
  }

  private async daemonLost(): Promise<void> {
    this.socket = undefined;
    if (this.inputEnded) return this.finish({ kind: 'served' });
    for (const id of this.ledger.takeLost()) this.toClient(errorLine(id, -32603, RESTARTED));
    this.options.warn('meshlens: the daemon serving this session ended; attaching to a new one.');
    const next = await connectToDaemon(this.options);
    if (next.kind === 'attached') {
      const replay = this.ledger.replay((n) => `meshlens-replay-${++this.replays}-${n}`);
      for (const key of replay.swallow) this.swallow.add(key);
      // A setup line the client sent while no daemon was attached is in the queue already.
      this.use(
        next.socket,
        replay.lines.filter((line) => !this.queue.includes(line)),
      );
      if (this.inputEnded) this.endSession();
      return;
    }
    const reason =
      next.kind === 'other-version'
        ? `the new daemon (pid ${next.daemon.pid}) runs version ${next.daemon.version}, not ${this.options.hello.version}`
        : next.reason;
    this.options.warn(`meshlens: no daemon could be attached after the last one ended: ${reason}`);
    for (const line of this.queue) {
      const id = requestIdOf(line);
      if (id !== undefined) this.toClient(errorLine(id, -32603, NOT_SENT));
    }
    this.queue = [];
    this.finish({ kind: 'lost', reason });
  }
}

/** The id of a request line (one with a method and an id), else undefined. */
function requestIdOf(line: string): unknown {
  try {
    const frame = JSON.parse(line) as { id?: unknown; method?: unknown };
    return typeof frame.method === 'string' ? frame.id : undefined;
  } catch {
    return undefined;
  }
}
