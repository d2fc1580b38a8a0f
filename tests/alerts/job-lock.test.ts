/**
 * The alert job as the composition root wires it without Redis: two app
 * instances on one store (two cron invocations, two servers) share its lock
 * and its resume cursor through the store's `job_state` table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/app.ts';
import { readSettings } from '../../src/app/settings.ts';

const folder = mkdtempSync(join(tmpdir(), 'wos-job-lock-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the alert job without Redis', () => {
  it('keeps two instances on one store from holding the lock at once, and shares the cursor', async () => {
    const settings = readSettings({ WOS_DATABASE_PATH: join(folder, 'shared.sqlite') });
    // One after the other: the second finds the store migrated, as a second instance would.
    const apps = [createApp(settings), createApp(settings)] as const;
    const first = await apps[0].alertJob();
    const second = await apps[1].alertJob();
    if (!first.lock || !second.lock || !first.cursor || !second.cursor) throw new Error('no lock or cursor');

    const held = await first.lock.acquire();
    expect(held).not.toBeNull();
    expect(await second.lock.acquire()).toBeNull();
    await held?.();
    const next = await second.lock.acquire();
    expect(next).not.toBeNull();
    await next?.();

    await first.cursor.save({ riderId: 'rider-7', segmentId: 'gb-box-hill' });
    expect(await second.cursor.load()).toEqual({ riderId: 'rider-7', segmentId: 'gb-box-hill' });
    await second.cursor.save(null);
    expect(await first.cursor.load()).toBeNull();
    for (const app of apps) await (await app.store()).close();
  });
});
