/** The rider account's life on PostgreSQL; skips with a message where no server answers (see postgres-server.ts). */
import { describe, it } from 'vitest';
import { postgresTestStore } from '../../auth/support/stores.ts';
import { postgresUnavailable } from '../../store/postgres-server.ts';
import { describeAccountLifecycle } from '../../riders/account-lifecycle.ts';

const noServer = await postgresUnavailable();
if (noServer)
  describe('rider accounts on PostgreSQL', () => it.skip(`skipped: ${noServer}`, () => undefined));
else describeAccountLifecycle('postgres', postgresTestStore);
