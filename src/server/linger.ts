import type { Duplex } from 'node:stream';

/**
 * How long a refused connection keeps reading what the client still sends
 * before it is destroyed. Closing with unread bytes makes the kernel send a
 * reset, which can destroy the answer before the client reads it; a client
 * that has read it stops sending, so this is rarely reached.
 */
export const LINGER_MS = 2000;

/** Sockets already draining before their close, so a second refusal on one adds no second timer. */
const lingering = new WeakSet<Duplex>();

/**
 * Reads and drops whatever the client still sends (a body nobody wants, or
 * requests pipelined behind a refused one) until it closes its side or
 * {@link LINGER_MS} pass, then destroys the socket. The one linger of the
 * listener: for a request its parser refused, and for a body over the limit.
 */
export function lingerThenClose(socket: Duplex): void {
  if (lingering.has(socket)) return;
  lingering.add(socket);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  socket.on('data', () => undefined);
  socket.resume();
}
