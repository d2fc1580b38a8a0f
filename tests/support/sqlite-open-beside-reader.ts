/**
 * `node tests/support/sqlite-open-beside-reader.ts <file>`: a new store file, a reader in another
 * process holding a read transaction on it, and this process opening it twice meanwhile: first
 * with no busy timeout, then as the store does (`openSqliteFile`). Prints one JSON line: what each
 * open said. Its own process tree, so the test runner's state stays out of the locks it exercises.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { DatabaseSync } from 'node:sqlite';
import { openSqliteFile } from '../../src/store/node-sqlite-dialect.ts';

const path = process.argv[2];
if (!path) throw new Error('usage: sqlite-open-beside-reader.ts <file>');

const plain = new DatabaseSync(path);
plain.exec('CREATE TABLE t (x)');
plain.close();

const reader = spawn(
  process.execPath,
  [
    '-e',
    `const { DatabaseSync } = require('node:sqlite');
     const db = new DatabaseSync(process.argv[1], { readOnly: true });
     db.exec('BEGIN'); db.prepare('SELECT count(*) FROM t').get();
     process.stdout.write('holding');
     setTimeout(() => { db.exec('COMMIT'); db.close(); }, 500);`,
    path,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const exited = once(reader, 'exit');
await once(reader.stdout, 'data');

const said = (open: () => DatabaseSync): string => {
  try {
    const db = open();
    const { journal_mode: mode } = db.prepare('PRAGMA journal_mode').get() as { journal_mode: string };
    db.close();
    return mode;
  } catch (error) {
    return (error as Error).message;
  }
};
const bare = said(() => {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL');
  return db;
});
const store = said(() => openSqliteFile(path));
await exited;
console.log(JSON.stringify({ bare, store }));
