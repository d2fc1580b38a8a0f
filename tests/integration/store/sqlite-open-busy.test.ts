/**
 * A store file opened by one process while another reads it: turning the file to WAL takes an
 * exclusive lock, so the open must wait for the reader (the busy timeout) instead of failing with
 * "database is locked". A discovery build whose test polled its store met that once, and so would
 * a second server or `npm run rider` opening a new store beside one reading it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'wos-sqlite-busy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCENARIO = fileURLToPath(new URL('../../support/sqlite-open-beside-reader.ts', import.meta.url));

describe('opening the SQLite store beside a reader in another process', () => {
  it('waits for the reader, where an open without the timeout fails at once, and leaves the file in WAL', () => {
    const run = spawnSync(process.execPath, [SCENARIO, join(dir, 'store.sqlite')], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ bare: 'database is locked', store: 'wal' });
  });
});
