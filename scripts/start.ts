/**
 * `npm start`: brings the generated data and the site up to date (each
 * step skipped when nothing it is made from changed, see scripts/build.ts),
 * then starts the production server, in a worker thread with heap limits of
 * its own (src/server/server-thread.ts). On a fresh clone the first start
 * builds everything once.
 *
 * The build runs in a child process: generating the gazetteer reads the
 * whole GeoNames file, and a server that did that itself would keep the
 * grown heap (hundreds of MB resident) for its whole life.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseCommand, runCommand } from './cli.ts';

const USAGE = `Usage: npm start

Builds what is stale (the generated data, then the site), then serves the site, the API and MCP on
http://localhost:3000. Configured by environment variables only (PORT, HOST, WOS_FORECAST, …):
see docs/operating.md, "Configuration".`;

await runCommand('npm start', () => {
  parseCommand({ name: 'npm start', usage: USAGE, options: {} }, process.argv.slice(2));
  const build = spawnSync(process.execPath, [fileURLToPath(new URL('build.ts', import.meta.url))], {
    stdio: 'inherit',
  });
  if (build.error) throw build.error;
  return build.status ?? 1;
});
if (process.exitCode === 0) {
  // The server runs in a thread with heap limits of its own (decision 0030), not in this one.
  const { serveInWorker } = await import('../src/server/server-thread.ts');
  serveInWorker(new URL('../src/server/main.ts', import.meta.url));
}
