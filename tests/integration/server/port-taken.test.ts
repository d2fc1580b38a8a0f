/**
 * A server the tests start on a port that was free a moment ago can find it taken by the time it
 * listens (an outgoing connection of the machine drew it, as in one CI run): the launcher then
 * starts it again on another port, and only then. Any other early exit still fails at once.
 */
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, launchOnFreePort, PortTakenError, stopAll } from '../../../scripts/service/launch.ts';

/** A server as small as can answer `/health`, on PORT of 127.0.0.1, as `npm start` does. */
const HEALTH_SERVER = `require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1')`;

afterEach(stopAll);

describe('launchOnFreePort', () => {
  it('starts the server again on another port when the one picked was taken', async () => {
    const holder = createServer().listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const taken = (holder.address() as AddressInfo).port;
    const picked: number[] = [];
    try {
      const service = await launchOnFreePort(process.execPath, ['-e', HEALTH_SERVER], {
        env: (port) => ({ ...process.env, PORT: String(port) }),
        pickPort: async () => {
          const port = picked.length === 0 ? taken : await freePort();
          picked.push(port);
          return port;
        },
      });
      expect(picked).toHaveLength(2);
      expect(service.baseUrl).toBe(`http://127.0.0.1:${picked[1]}`);
      expect((await fetch(`${service.baseUrl}/health`)).status).toBe(200);
    } finally {
      holder.close();
    }
  });

  it('gives up after a few taken ports, saying so', async () => {
    const holder = createServer().listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const taken = (holder.address() as AddressInfo).port;
    let picks = 0;
    try {
      const started = launchOnFreePort(process.execPath, ['-e', HEALTH_SERVER], {
        env: (port) => ({ ...process.env, PORT: String(port) }),
        pickPort: async () => (picks++, taken),
      });
      await expect(started).rejects.toBeInstanceOf(PortTakenError);
      expect(picks).toBe(4);
    } finally {
      holder.close();
    }
  });

  it('does not try again when the server exits for any other reason', async () => {
    let picks = 0;
    const started = launchOnFreePort(process.execPath, ['-e', 'process.exit(3)'], {
      env: () => process.env,
      pickPort: async () => (picks++, freePort()),
    });
    await expect(started).rejects.toThrow(/exited early/);
    await expect(started).rejects.not.toBeInstanceOf(PortTakenError);
    expect(picks).toBe(1);
  });
});
