/** The rider account's life on SQLite (PostgreSQL: tests/integration/riders/postgres.test.ts). */
import { sqliteTestStore } from '../auth/support/stores.ts';
import { describeAccountLifecycle } from './account-lifecycle.ts';

describeAccountLifecycle('sqlite', sqliteTestStore);
