/** Alerts by email and Web Push on PostgreSQL; skips with a message where no server answers (see postgres-server.ts). */
import { describe, it } from 'vitest';
import { postgresTestStore } from '../../auth/support/stores.ts';
import { postgresUnavailable } from '../../store/postgres-server.ts';
import { describeAlertChannels } from '../../channels/alert-channels.ts';

const noServer = await postgresUnavailable();
if (noServer)
  describe('alert channels on PostgreSQL', () => it.skip(`skipped: ${noServer}`, () => undefined));
else describeAlertChannels('postgres', postgresTestStore);
