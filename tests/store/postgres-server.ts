/**
 * The PostgreSQL server the store and auth tests run against when one
 * answers: WOS_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test;
 * the user must be allowed to create databases). Each test file creates its
 * own database for the run and drops it after, so parallel runs never meet.
 * When no server answers those tests skip and say why; WOS_REQUIRE_POSTGRES=1
 * turns the skip into a failure (for CI).
 */
import { Client } from 'pg';

const adminUrl = process.env['WOS_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const NO_SERVER = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);

/** Runs one statement (create or drop a database) on the server's admin database. */
export async function admin(query: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/**
 * Null when PostgreSQL answered; otherwise why the PostgreSQL tests skip.
 * Any other failure (a bad password…) throws, and so does a missing server
 * under WOS_REQUIRE_POSTGRES=1.
 */
export async function postgresUnavailable(): Promise<string | null> {
  try {
    await admin('select 1');
    return null;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const down = (typeof code === 'string' && NO_SERVER.has(code)) || /timeout/i.test(String(error));
    if (!down) throw error;
    const reason = `no PostgreSQL server at ${new URL(adminUrl).host} (${String(code ?? 'timeout')})`;
    if (process.env['WOS_REQUIRE_POSTGRES'] === '1')
      throw new Error(`WOS_REQUIRE_POSTGRES=1 but ${reason}`, { cause: error });
    return reason;
  }
}

/** The URL of one database on the test server, optionally with its own search_path. */
export function databaseUrl(name: string, searchPath?: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  if (searchPath) url.searchParams.set('options', `-c search_path=${searchPath}`);
  return url.toString();
}
