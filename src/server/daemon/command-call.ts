import type { Socket } from 'node:net';
import { connectToDaemon, type Connection, type ConnectOptions } from './daemon-connect.js';
import { parseCommandAnswer, type CommandAnswer, type CommandHello } from './handshake.js';

export interface CommandCallOptions extends ConnectOptions {
  readonly hello: CommandHello;
  /** Progress of an index the command waits for, as the daemon reports it. */
  readonly onProgress?: (done: number, total: number) => void;
}

export type CommandCallOutcome =
  /** The daemon answered, or declined to (the CLI then answers in its own process). */
  | { readonly kind: 'answered'; readonly answer: CommandAnswer }
  /** The connection closed before a whole answer came: the daemon died, or sent something else. */
  | { readonly kind: 'lost' }
  /** No daemon could be attached (another version, or none started). */
  | Exclude<Connection, { kind: 'attached' }>;

/**
 * Sends one CLI command line to the workspace's daemon, starting one when none listens, and reads its
 * answer: one line, after any lines of progress. The answer may be as long as the command's output (a whole
 * topology page), so it is read to its newline whatever its size.
 */
export async function callDaemon(options: CommandCallOptions): Promise<CommandCallOutcome> {
  const connection = await connectToDaemon(options);
  if (connection.kind !== 'attached') return connection;
  const answer = await readAnswer(connection.socket, options.onProgress ?? (() => undefined));
  return answer ? { kind: 'answered', answer } : { kind: 'lost' };
}

/**
 * The daemon's answer, after any progress lines; undefined when the socket closes first or sends something
 * else. The socket is destroyed after.
 */
function readAnswer(
  socket: Socket,
  onProgress: (done: number, total: number) => void,
): Promise<CommandAnswer | undefined> {
  return new Promise((resolve) => {
    let chunks: string[] = [];
    const finish = (answer: CommandAnswer | undefined) => {
      socket.removeAllListeners('data');
      socket.destroy();
      resolve(answer);
    };
    socket.on('data', (chunk: string) => {
      let rest = chunk;
      for (let newline = rest.indexOf('\n'); newline !== -1; newline = rest.indexOf('\n')) {
        const line = parseCommandAnswer([...chunks, rest.slice(0, newline)].join(''));
        chunks = [];
        rest = rest.slice(newline + 1);
        if (line?.meshlens !== 'progress') return finish(line);
        onProgress(line.done, line.total);
      }
      chunks.push(rest);
    });
    socket.on('error', () => undefined);
    socket.once('close', () => finish(undefined));
    // Left paused after the daemon's hello (first-line.ts).
    socket.resume();
  });
}
