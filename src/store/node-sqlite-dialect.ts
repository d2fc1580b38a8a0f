/**
 * Kysely on Node's built-in `node:sqlite`. Kysely 0.29 ships a SQLite dialect
 * for better-sqlite3-shaped databases only; `DatabaseSync` differs in small ways
 * (spread parameters, no `reader` flag, booleans not bindable). Reusing Kysely's
 * own driver and wrapping the database is a few dozen lines, less than any
 * extra dependency (we found no package dedicated to `node:sqlite`; the
 * generic ones add a layer we do not need), and keeps the embedded engine free
 * of native add-ons.
 *
 * Kysely's SQLite adapter already serialises every query and transaction over
 * the single connection. This file adds: the `DatabaseSync` shape Kysely
 * expects, a small prepared-statement cache, `BEGIN IMMEDIATE` transactions
 * (the write lock is taken up front, so another process never makes a
 * transaction fail half way with SQLITE_BUSY), and transactional migrations.
 */
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type SqliteStatement,
} from 'kysely';

/** How long a statement waits for another process's write lock before failing. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

const STATEMENT_CACHE_SIZE = 100;

/**
 * Opens a database file with the settings the store relies on: WAL (readers
 * never block the writer), foreign keys, a busy timeout, and synchronous=NORMAL,
 * which in WAL mode survives a process crash or restart (only a power cut can
 * lose the last commits).
 */
export function openSqliteFile(path: string): DatabaseSync {
  const db = new DatabaseSync(path);
  // The timeout first: turning a file to WAL takes an exclusive lock, and a reader in another
  // process (a second server, `npm run rider`) would otherwise make it fail at once, not wait.
  db.exec(`PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA synchronous = NORMAL');
  return db;
}

function toSqliteValue(value: unknown): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string') return value;
  if (value instanceof Uint8Array) return value;
  throw new TypeError(`node:sqlite cannot bind a ${typeof value} parameter`);
}

function bind(parameters: readonly unknown[]): SQLInputValue[] {
  return parameters.map(toSqliteValue);
}

interface Prepared {
  readonly statement: StatementSync;
  /** A statement that yields columns (SELECT, … RETURNING) is read with all(). */
  readonly reader: boolean;
}

/** Wraps `DatabaseSync` in the interface Kysely's SQLite driver calls. */
function kyselySqliteDatabase(db: DatabaseSync): SqliteDatabase {
  const cache = new Map<string, Prepared>();
  const prepared = (sql: string): Prepared => {
    const cached = cache.get(sql);
    if (cached) {
      cache.delete(sql);
      cache.set(sql, cached);
      return cached;
    }
    const statement = db.prepare(sql);
    const fresh = { statement, reader: statement.columns().length > 0 };
    cache.set(sql, fresh);
    if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value ?? sql);
    return fresh;
  };
  return {
    close: () => {
      cache.clear();
      db.close();
    },
    prepare(sql: string): SqliteStatement {
      const { statement, reader } = prepared(sql);
      return {
        reader,
        all: (parameters) => statement.all(...bind(parameters)),
        run: (parameters) => statement.run(...bind(parameters)),
        iterate: (parameters) => statement.iterate(...bind(parameters)),
      };
    },
  };
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** SQLite runs DDL inside transactions, so a failed migration leaves nothing half-applied. */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** The Kysely dialect for a `DatabaseSync`; closing the Kysely instance closes the database. */
export class NodeSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(db: DatabaseSync) {
    const config: SqliteDialectConfig = { database: kyselySqliteDatabase(db) };
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}
