/** The payment flow on SQLite (PostgreSQL: postgres.test.ts). */
import { sqliteTestStore } from '../auth/support/stores.ts';
import { describeBillingFlow } from './flow.ts';

describeBillingFlow('sqlite', sqliteTestStore);
