/**
 * The store's own migrations, by name, as code: a static list bundles into a
 * serverless function, where scanning a migrations folder at run time would
 * find nothing. Names sort in the order they run; never rename or edit one
 * that has shipped (each deployed database records the names it ran), add a
 * new one with the next number. 0002 is shared by two shipped names
 * (`0002_auth`, `0002_rider_segments`) and stays so; every other number is one
 * migration's (tests/unit/migration-names.test.ts). Layers above add theirs
 * (better-auth's tables) in `src/app/migrations.ts`, which hands the whole
 * list to the migrator.
 */
import type { Migration } from 'kysely/migration';
import { initialMigration } from './0001-initial.ts';
import { riderSegmentsMigration } from './0002-rider-segments.ts';
import { billingMigration } from './0003-billing.ts';
import { alertQueueMigration } from './0004-alert-queue.ts';
import { jobStateMigration } from './0005-job-state.ts';
import { alertChanceMigration } from './0006-alert-chance.ts';
import { closedOwnSegmentsMigration } from './0007-closed-own-segments.ts';
import { discoveredSegmentsMigration } from './0008-discovered-segments.ts';
import { riderChannelsMigration } from './0009-rider-channels.ts';
import { discoveredProvenanceMigration } from './0010-discovered-provenance.ts';
import { discoveredSuccessorsMigration } from './0011-discovered-successors.ts';

export const STORE_MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_initial': initialMigration,
  // 0002_auth is the auth tables (src/app/migrations.ts).
  '0002_rider_segments': riderSegmentsMigration,
  '0003_billing': billingMigration,
  '0004_alert_queue': alertQueueMigration,
  '0005_job_state': jobStateMigration,
  '0006_alert_chance': alertChanceMigration,
  '0007_closed_own_segments': closedOwnSegmentsMigration,
  '0008_discovered_segments': discoveredSegmentsMigration,
  '0009_rider_channels': riderChannelsMigration,
  '0010_discovered_provenance': discoveredProvenanceMigration,
  '0011_discovered_successors': discoveredSuccessorsMigration,
};
