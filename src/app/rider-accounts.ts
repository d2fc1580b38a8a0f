/**
 * Rider accounts made from the command line (`npm run rider -- create`), for
 * operators and tests: the same better-auth sign-up as the website, so the
 * password is hashed the same way and the rider row gets the same trial.
 */
import type { RiderPlan } from '../core/rider-rules.ts';
import type { Store } from '../store/database.ts';
import { findRiderById, setRiderPlan, setRiderTrial, type Rider } from '../store/repositories/riders.ts';
import { createAuth } from '../auth/auth.ts';
import { ensureRider } from '../rider/rider-account.ts';
import { withAuthTables } from '../store/auth-tables.ts';

export interface NewRiderAccount {
  readonly store: Pick<Store, 'db' | 'engine'>;
  readonly secret: string;
  /** Any origin of the site; only the (unused) web session depends on it. */
  readonly origin: string;
  readonly email: string;
  readonly password: string;
  readonly plan: RiderPlan;
  /** False starts the rider on the plan without the Pro trial (operators' test accounts, quota tests). */
  readonly trial?: boolean;
}

/** Creates the account and its rider row; throws with better-auth's message (e.g. a taken email). */
export async function createRiderAccount(input: NewRiderAccount): Promise<Rider> {
  const auth = createAuth({
    origin: input.origin,
    store: input.store,
    secret: input.secret,
    rateLimit: false,
  });
  const { user } = await auth.api.signUpEmail({
    body: { email: input.email, password: input.password, name: input.email },
  });
  await ensureRider(input.store.db, user);
  if (input.plan !== 'free') await setRiderPlan(input.store.db, user.id, input.plan);
  if (input.trial === false) await setRiderTrial(input.store.db, user.id, null);
  // Sign-up also opened a web session that nobody will use.
  await withAuthTables(input.store.db).deleteFrom('session').where('userId', '=', user.id).execute();
  const rider = await findRiderById(input.store.db, user.id);
  if (!rider) throw new Error('the rider row was not created');
  return rider;
}
