/** Alerts by email and Web Push on SQLite (PostgreSQL: tests/integration/riders/channels-postgres.test.ts). */
import { sqliteTestStore } from '../auth/support/stores.ts';
import { describeAlertChannels } from './alert-channels.ts';

describeAlertChannels('sqlite', sqliteTestStore);
