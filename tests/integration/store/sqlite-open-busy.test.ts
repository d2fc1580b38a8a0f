/**
 * A store file opened by one process while another reads it: turning the file to WAL takes an
 * exclusive lock, so the open must wait for the reader (the busy timeout) instead of failing with
 * "database is locked", as it did when the timeout was set after the switch. A second server, or
 * `npm run rider` beside `npm start`, opening a new store meets exactly this.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteFile } from '../../../src/store/node-sqlite-dialect.ts';

const dir = mkdtempSync(join(tmpdir(), 'wos-sqlite-busy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Another process holding a read transaction on `path` for `holdMs`, once it holds it. The end is
 * handed back inside an object: an async function returning the promise itself would wait for it.
 */
async function readerHolding(path: string, holdMs: number): Promise<{ readonly done: Promise<unknown> }> {
  const reader = spawn(
    process.execPath,
    [
      '-e',
      `const { DatabaseSync } = require('node:sqlite');
       const db = new DatabaseSync(process.argv[1], { readOnly: true });
       db.exec('BEGIN'); db.prepare('SELECT count(*) FROM t').get();
       process.stdout.write('holding');
       setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));`,
      path,
      String(holdMs),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const done = once(reader, 'exit');
  await once(reader.stdout, 'data');
  return { done };
}

describe('opening the SQLite store beside a reader in another process', () => {
  it('waits for the reader, where an open without the timeout fails at once, and leaves the file in WAL', async () => {
    const path = join(dir, 'store.sqlite');
    // A file as a store is before its first open: a table, the default rollback journal.
    const plain = new DatabaseSync(path);
    plain.exec('CREATE TABLE t (x)');
    plain.close();

    const reader = await readerHolding(path, 400);
    const bare = new DatabaseSync(path);
    expect(() => bare.exec('PRAGMA journal_mode = WAL')).toThrow(/database is locked/);
    bare.close();
    const db = openSqliteFile(path);
    try {
      expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
      db.exec('INSERT INTO t VALUES (1)');
    } finally {
      db.close();
    }
    await reader.done;
  });
});
