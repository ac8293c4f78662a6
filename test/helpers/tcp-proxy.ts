/**
 * A TCP relay in front of PostgreSQL for outage tests: `pause()` cuts every connection and refuses new ones,
 * as a database that went away would, without stopping the server other tests share; `resume()` lets
 * connections through again. `loseAnswerTo(text)` lets the next message holding `text` reach the database,
 * then cuts its client off before any answer comes back: a commit that happened, unanswered.
 */
import net from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** The URL with its host and port replaced by the relay's. */
  urlThrough(url: string): string;
  pause(): void;
  resume(): void;
  loseAnswerTo(text: string): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let paused = false;
  let loseAnswerTo: string | undefined;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (paused) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    let cut = false;
    const end = () => {
      client.destroy();
      if (!cut) upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.on('data', (chunk: Buffer) => {
      if (loseAnswerTo !== undefined && chunk.includes(loseAnswerTo)) {
        loseAnswerTo = undefined;
        cut = true;
        // The message reaches the database whole, then the connection ends; the client hears nothing.
        upstream.end(chunk);
        client.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!cut) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    urlThrough: (url) => {
      const through = new URL(url);
      through.hostname = '127.0.0.1';
      through.port = String(port);
      return through.href;
    },
    pause: () => {
      paused = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    resume: () => {
      paused = false;
    },
    loseAnswerTo: (text) => {
      loseAnswerTo = text;
    },
    close: async () => {
      paused = true;
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
