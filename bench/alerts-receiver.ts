/**
 * The webhook receivers of the alert bench (alerts-scale.ts), in a process of
 * their own so their HTTP parsing does not share the job's one thread: one
 * server per loopback address 127.0.0.1–N, answering 204 after a short delay
 * as a real receiver would, counting requests and the most in flight at once
 * across all. Talks over the IPC channel `fork` opens: sends
 * `{ origins }` when listening; answers `'stats'` with the counts (and resets
 * the peak); exits on `'stop'`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const hosts = Number(process.argv[2] ?? 8);
const delayMs = Number(process.argv[3] ?? 2);
const stats = { received: 0, inFlight: 0, peak: 0 };
const origins: string[] = [];

for (let i = 1; i <= hosts; i++) {
  const server = createServer((request, response) => {
    stats.received += 1;
    stats.inFlight += 1;
    stats.peak = Math.max(stats.peak, stats.inFlight);
    request.resume();
    request.on('end', () => {
      setTimeout(() => {
        stats.inFlight -= 1;
        response.writeHead(204).end();
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, `127.0.0.${i}`, resolve));
  origins.push(`http://127.0.0.${i}:${(server.address() as AddressInfo).port}`);
}

process.on('message', (message) => {
  if (message === 'stats') {
    process.send?.({ stats: { ...stats } });
    stats.peak = 0;
  } else if (message === 'stop') process.exit(0);
});
process.send?.({ origins });
