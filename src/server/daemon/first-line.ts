import type { Socket } from 'node:net';

/** A hello line is a few hundred bytes; anything longer is not one. */
const MAX_HELLO_BYTES = 64 * 1024;

/**
 * The first line a socket receives (without its newline), or undefined when the socket closes, sends more
 * than a hello's worth without a newline, or stays silent for `timeoutMs`. Whatever came after the line is
 * put back, and the socket is left paused: whoever reads on calls `resume()` after adding its listener.
 */
export function readFirstLine(socket: Socket, timeoutMs: number): Promise<string | undefined> {
  socket.setEncoding('utf8');
  return new Promise((resolve) => {
    let buffer = '';
    const finish = (line: string | undefined, rest = '') => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onGone);
      socket.off('error', onGone);
      socket.pause();
      if (rest !== '') socket.unshift(rest);
      resolve(line);
    };
    const onData = (chunk: string) => {
      buffer += chunk;
      const newline = buffer.indexOf('\n');
      if (newline !== -1) finish(buffer.slice(0, newline).replace(/\r$/, ''), buffer.slice(newline + 1));
      else if (buffer.length > MAX_HELLO_BYTES) finish(undefined);
    };
    const onGone = () => finish(undefined);
    const timer = setTimeout(onGone, timeoutMs);
    socket.on('data', onData);
    socket.on('close', onGone);
    socket.on('error', onGone);
  });
}
