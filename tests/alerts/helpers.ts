import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LatLon } from '../../src/core/bearing.ts';
import { createDemoForecast } from '../../src/data/forecast/demo.ts';
import type { ForecastSource, WindSeries } from '../../src/data/forecast/types.ts';
import { createSegmentCatalog } from '../../src/data/segments/catalog.ts';
import { loadEmbeddedSegments } from '../../src/data/segments/load.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { APP_MIGRATIONS } from '../../src/app/migrations.ts';
import { createRider, setRiderWebhook, type Rider } from '../../src/store/repositories/riders.ts';
import { TEST_NOW } from '../support/mcp-deps.ts';

export { TEST_NOW };

const folder = mkdtempSync(join(tmpdir(), 'wos-alerts-'));

/** Removes every database the file's tests made. */
export function removeTestStores(): void {
  rmSync(folder, { recursive: true, force: true });
}

/**
 * A fresh, migrated SQLite store per test: the alert job reads every rider's
 * watches, so tests must not share a database.
 */
export async function freshStore(): Promise<Store> {
  const store = openStore({ engine: 'sqlite', path: join(folder, `${randomUUID()}.sqlite`) });
  await migrateToLatest(store, APP_MIGRATIONS);
  return store;
}

export const catalog = createSegmentCatalog(loadEmbeddedSegments());

/** A Pro rider (alerts are a Pro feature), with a webhook when one is given. */
export async function proRider(
  store: Store,
  webhook?: { readonly url: string; readonly secret: string },
): Promise<Rider> {
  const rider = await createRider(store.db, { email: `${randomUUID()}@example.com`, plan: 'pro' }, 0);
  if (webhook) await setRiderWebhook(store.db, rider.id, webhook);
  return rider;
}

export interface CountingForecast extends ForecastSource {
  /** Points asked, one entry per `hourly` call. */
  readonly calls: LatLon[][];
}

/** Wraps a source and records every call, to count forecast requests per run. */
export function countingForecast(inner: ForecastSource): CountingForecast {
  const calls: LatLon[][] = [];
  return {
    id: inner.id,
    calls,
    hourly(points): Promise<readonly (WindSeries | null)[]> {
      calls.push([...points]);
      return inner.hourly(points);
    },
  };
}

/** The demo forecast at a clock the test controls. */
export function demoAt(clock: () => number): CountingForecast {
  return countingForecast(createDemoForecast({ clock }));
}
