/**
 * `npm run rider -- create …`: creates a rider account from the command line,
 * through the same sign-up as the website (scrypt password, rider row with
 * the Pro trial), in the store the environment selects (DATABASE_URL or the
 * SQLite file), and says what it made. `--help` for the usage.
 */
import { APP_MIGRATIONS } from '../src/app/migrations.ts';
import { createRiderAccount } from '../src/app/rider-accounts.ts';
import { settingsFromProcess, storeConfigOf } from '../src/app/settings.ts';
import { authConfigFor } from '../src/auth/secret.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../src/rider/access-policy.ts';
import { openStore } from '../src/store/database.ts';
import { migrateToLatest } from '../src/store/migrate.ts';
import { parseCommand, runCommand, UsageError } from './cli.ts';

const NAME = 'npm run rider';
const PLANS = ['free', 'pro'] as const;
type Plan = (typeof PLANS)[number];

const USAGE = `Usage: ${NAME} -- create --email EMAIL --password PASSWORD [--plan free|pro] [--no-trial]

Creates a rider account, as signing up on the website does, in the store the environment selects
(DATABASE_URL for PostgreSQL, else the SQLite file WOS_DATABASE_PATH, default data/wind-on-segment.sqlite).

  --email EMAIL        the rider's sign-in address
  --password PASSWORD  ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters
  --plan free|pro      the plan after the trial (default: free)
  --no-trial           no 14-day Pro trial: the plan applies at once
  -h, --help           this text

Prints the rider's id, email, plan and trial end.`;

const COMMAND = {
  name: NAME,
  usage: USAGE,
  allowPositionals: true,
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    plan: { type: 'string', default: 'free' },
    'no-trial': { type: 'boolean', default: false },
  },
} as const;

/** A plausible address: something, an @, a domain with a dot; the sign-up checks it fully. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The checked arguments of `create`; each mistake named with the limit it broke (the password never echoed). */
function createArguments(argv: readonly string[]): {
  email: string;
  password: string;
  plan: Plan;
  trial: boolean;
} {
  const { positionals, values } = parseCommand(COMMAND, argv);
  const [action, ...extra] = positionals;
  if (action === undefined) throw new UsageError('say what to do: create');
  if (action !== 'create') throw new UsageError(`unknown command "${action}"; the command is create`);
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const { email, password, plan } = values;
  if (email === undefined) throw new UsageError('--email is required');
  if (!EMAIL.test(email)) throw new UsageError(`--email must be an email address, not "${email}"`);
  if (password === undefined) throw new UsageError('--password is required');
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw new UsageError(
      `--password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long; the one given has ${password.length}`,
    );
  }
  if (!PLANS.includes(plan as Plan)) throw new UsageError(`--plan must be free or pro, not "${plan}"`);
  return { email, password, plan: plan as Plan, trial: !values['no-trial'] };
}

const day = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

await runCommand(NAME, async () => {
  const input = createArguments(process.argv.slice(2));
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
      ...input,
    });
    const where = storeConfig.engine === 'postgres' ? 'the PostgreSQL store' : storeConfig.path;
    console.log(`Created rider ${rider.id} in ${where}`);
    console.log(`  email: ${rider.email}`);
    console.log(`  plan:  ${rider.plan}`);
    console.log(
      `  trial: ${rider.trialEndsAt === null ? 'none' : `Pro until ${day(rider.trialEndsAt)}, then ${rider.plan}`}`,
    );
    return 0;
  } finally {
    await store.close();
  }
});
