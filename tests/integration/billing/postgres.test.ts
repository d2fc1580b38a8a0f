/** The payment flow on PostgreSQL; skips with a message where no server answers (see postgres-server.ts). */
import { describe, it } from 'vitest';
import { postgresTestStore } from '../../auth/support/stores.ts';
import { postgresUnavailable } from '../../store/postgres-server.ts';
import { describeBillingFlow } from '../../billing/flow.ts';

const noServer = await postgresUnavailable();
if (noServer) describe('payments on PostgreSQL', () => it.skip(`skipped: ${noServer}`, () => undefined));
else describeBillingFlow('postgres', postgresTestStore);
