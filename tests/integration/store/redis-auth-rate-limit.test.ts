/**
 * better-auth's sign-in limits counted in Redis: two authorization servers
 * (two instances) sharing one Redis share one allowance per address; with a
 * Redis that does not answer, each instance still limits on its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth, type Auth } from '../../../src/auth/auth.ts';
import { AUTH_BASE_PATH } from '../../../src/rider/access-policy.ts';
import { CLIENT_ADDRESS_HEADER } from '../../../src/http/client-address.ts';
import { createRedisWindowLimits } from '../../../src/store/shared-state/rate-limiter.ts';
import { sqliteTestStore, type TestStore } from '../../auth/support/stores.ts';
import { redisUnavailable, testClients, testPrefix } from '../../store/redis-server.ts';

const unavailable = await redisUnavailable();
if (unavailable) console.warn(`Redis sign-in limit tests skipped: ${unavailable}`);

const ORIGIN = 'http://127.0.0.1:3599';
const SECRET = 'a-test-secret-of-at-least-thirty-two-characters';

describe.skipIf(unavailable !== null)('sign-in rate limits shared through Redis', () => {
  const prefix = testPrefix('auth-rate');
  const { open, closeAll } = testClients(prefix);
  let db: TestStore;
  beforeAll(async () => {
    db = await sqliteTestStore();
  });
  afterAll(async () => {
    await closeAll();
    await db.dispose();
  });

  /** One instance: its own Redis connection, counting under `keyPrefix`. */
  const instance = (keyPrefix: string, url?: string): Auth =>
    createAuth({
      origin: ORIGIN,
      store: db.store,
      secret: SECRET,
      rateLimitStorage: createRedisWindowLimits(open(url), keyPrefix),
    });

  const signIn = async (auth: Auth, address: string): Promise<number> => {
    const response = await auth.handler(
      new Request(`${ORIGIN}${AUTH_BASE_PATH}/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN, [CLIENT_ADDRESS_HEADER]: address },
        body: JSON.stringify({ email: 'nobody@example.com', password: 'not the password' }),
      }),
    );
    return response.status;
  };

  /** Statuses of `count` sign-ins from one address, alternating between the instances. */
  const alternate = async (instances: readonly Auth[], address: string, count: number) => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const auth = instances[i % instances.length];
      if (auth) statuses.push(await signIn(auth, address));
    }
    return statuses;
  };

  it('two instances on one Redis let an address make 3 sign-in attempts in all, not 3 each', async () => {
    const shared = `${prefix}shared:`;
    const statuses = await alternate([instance(shared), instance(shared)], '203.0.113.7', 6);
    expect(statuses.filter((status) => status !== 429)).toHaveLength(3);
    expect(statuses.slice(3)).toEqual([429, 429, 429]);
  });

  it('keeps addresses apart', async () => {
    const shared = `${prefix}apart:`;
    const instances = [instance(shared), instance(shared)];
    await alternate(instances, '203.0.113.8', 4);
    expect(await signIn(instances[1] as Auth, '203.0.113.9')).not.toBe(429);
  });

  it('without Redis each instance still limits on its own, and no sign-in fails for it', async () => {
    // Port 1: nothing listens, so every Redis command fails and the in-memory insurance decides.
    const gone = 'redis://127.0.0.1:1';
    const statuses = await alternate([instance(`${prefix}gone:`, gone)], '203.0.113.10', 5);
    expect(statuses.slice(0, 3).every((status) => status !== 429 && status < 500)).toBe(true);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});
