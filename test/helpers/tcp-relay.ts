/**
 * A TCP relay in front of the test PostgreSQL server, for outages without stopping the server that other
 * tests share: `down()` cuts every connection and refuses new ones, as a database that went away does;
 * `up()` listens on the same port again.
 */
import net from 'node:net';

export interface TcpRelay {
  readonly port: number;
  down(): Promise<void>;
  up(): Promise<void>;
}

export async function startTcpRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const serve = () =>
    net.createServer((client) => {
      const upstream = net.connect(target.port, target.host);
      track(client);
      track(upstream);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
  const listen = (server: net.Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });
  let server: net.Server | undefined = serve();
  const port = await listen(server, 0);
  return {
    port,
    async down() {
      const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = undefined;
      const gone = [...sockets].map((s) => new Promise((resolve) => s.once('close', resolve)));
      for (const socket of sockets) socket.destroy();
      await Promise.all([closed, ...gone]);
    },
    async up() {
      server = serve();
      await listen(server, port);
    },
  };
}
