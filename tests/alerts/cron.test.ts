import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCronHandler } from '../../src/alerts/cron.ts';
import type { AlertJobSummary } from '../../src/alerts/run.ts';
import { openStore } from '../../src/store/database.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { APP_MIGRATIONS } from '../../src/app/migrations.ts';
import { listRecentAlerts } from '../../src/store/repositories/alerts.ts';
import { watchSegment } from '../../src/store/repositories/watchlist.ts';
import { proRider } from './helpers.ts';

const SECRET = 'cron-secret-0123456789';

const okSummary: AlertJobSummary = { ok: true, evaluation: null, delivery: null, errors: [], durationMs: 1 };

function get(authorization?: string, method = 'GET'): Request {
  return new Request('https://wos.example/api/cron-alerts', {
    method,
    headers: authorization === undefined ? {} : { authorization },
  });
}

describe('createCronHandler', () => {
  it('refuses a missing or wrong bearer with 401 without running the job', async () => {
    const job = vi.fn(async () => okSummary);
    const handler = createCronHandler({ secret: () => SECRET, job });
    for (const header of [
      undefined,
      '',
      SECRET,
      `Bearer ${SECRET}x`,
      `bearer ${SECRET}`,
      `Bearer  ${SECRET}`,
      'Bearer ',
    ]) {
      const response = await handler(get(header));
      expect(response.status, String(header)).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect(job).not.toHaveBeenCalled();
  });

  it('refuses everything while CRON_SECRET is unset, even "Bearer undefined"', async () => {
    const job = vi.fn(async () => okSummary);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    for (const secret of [undefined, '']) {
      const handler = createCronHandler({ secret: () => secret, job });
      for (const header of ['Bearer undefined', 'Bearer ', `Bearer ${secret}`]) {
        expect((await handler(get(header))).status).toBe(401);
      }
    }
    expect(job).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/CRON_SECRET is not set/));
    error.mockRestore();
  });

  it('runs the job for the right bearer and answers its summary, 500 when it failed', async () => {
    let summary = okSummary;
    const handler = createCronHandler({ secret: () => SECRET, job: async () => summary });
    const ok = await handler(get(`Bearer ${SECRET}`));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(await ok.json()).toEqual(okSummary);
    summary = { ...okSummary, ok: false, errors: ['forecast failed: timeout'] };
    expect((await handler(get(`Bearer ${SECRET}`, 'POST'))).status).toBe(500);
    expect((await handler(get(`Bearer ${SECRET}`, 'DELETE'))).status).toBe(405);
  });

  it('answers 500 when the job cannot start (e.g. no database configured)', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const handler = createCronHandler({
      secret: () => SECRET,
      job: () => Promise.reject(new Error('Set DATABASE_URL to a PostgreSQL database')),
    });
    const response = await handler(get(`Bearer ${SECRET}`));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      ok: false,
      errors: ['Set DATABASE_URL to a PostgreSQL database'],
    });
    error.mockRestore();
  });
});

describe('api/_entries/cron-alerts.ts (the Vercel function)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'wos-cron-'));
  const path = join(folder, 'cron.sqlite');
  let handler: (request: Request) => Promise<Response>;

  beforeAll(async () => {
    for (const name of ['DATABASE_URL', 'VERCEL', 'WOS_SEGMENTS_FILE']) vi.stubEnv(name, undefined);
    vi.stubEnv('CRON_SECRET', SECRET);
    vi.stubEnv('WOS_DATABASE_PATH', path);
    vi.stubEnv('WOS_FORECAST', 'demo');
    handler = (await import('../../api/_entries/cron-alerts.ts')).default.fetch;
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    rmSync(folder, { recursive: true, force: true });
  });

  it('refuses a wrong bearer, then runs the job on the store and forecast from the environment', async () => {
    expect((await handler(get('Bearer wrong'))).status).toBe(401);

    const seed = openStore({ engine: 'sqlite', path });
    await migrateToLatest(seed, APP_MIGRATIONS);
    const rider = await proRider(seed);
    await watchSegment(seed.db, rider.id, 'gb-box-hill', { thresholdKmh: 5 });

    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const response = await handler(get(`Bearer ${SECRET}`));
    log.mockRestore();
    expect(response.status).toBe(200);
    const summary = (await response.json()) as AlertJobSummary;
    expect(summary).toMatchObject({ ok: true, errors: [] });
    expect(summary.evaluation).toMatchObject({ watchesChecked: 1, segmentsForecast: 1, forecastCalls: 1 });
    expect(await listRecentAlerts(seed.db, rider.id)).toHaveLength(summary.evaluation?.alertsRecorded ?? -1);
    await seed.close();
  });
});
