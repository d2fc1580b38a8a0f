/**
 * `npm run rider -- create --email E --password P [--plan free|pro] [--no-trial]`: creates
 * a rider account from the command line, through the same sign-up as the
 * website (scrypt password, rider row with the Pro trial), in the store the
 * environment selects (DATABASE_URL or the SQLite file). Prints the rider id.
 */
import { parseArgs } from 'node:util';
import { APP_MIGRATIONS } from '../src/app/migrations.ts';
import { settingsFromProcess, storeConfigOf } from '../src/app/settings.ts';
import { authConfigFor } from '../src/auth/secret.ts';
import { createRiderAccount } from '../src/app/rider-accounts.ts';
import { openStore } from '../src/store/database.ts';
import { migrateToLatest } from '../src/store/migrate.ts';

const USAGE =
  'usage: npm run rider -- create --email EMAIL --password PASSWORD [--plan free|pro] [--no-trial]';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    plan: { type: 'string', default: 'free' },
    'no-trial': { type: 'boolean', default: false },
  },
});

if (positionals[0] !== 'create' || !values.email || !values.password) {
  console.error(USAGE);
  process.exit(2);
}
if (values.plan !== 'free' && values.plan !== 'pro') {
  console.error(`--plan must be free or pro, not "${values.plan}"\n${USAGE}`);
  process.exit(2);
}

const settings = settingsFromProcess();
const storeConfig = storeConfigOf(settings);
const store = openStore(storeConfig);
try {
  await migrateToLatest(store, APP_MIGRATIONS);
  const { authSecret: secret, onVercel, siteOrigin } = settings;
  const config = authConfigFor({ secret, onVercel, siteOrigin, allowedHosts: [] }, storeConfig, (line) =>
    console.error(line),
  );
  const rider = await createRiderAccount({
    store,
    secret: config.secret,
    origin: config.siteUrl ?? 'http://localhost',
    email: values.email,
    password: values.password,
    plan: values.plan,
    trial: !values['no-trial'],
  });
  console.log(rider.id);
} catch (error) {
  console.error(`rider: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await store.close();
}
