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

const USAGE = `Usage: npm start [-- --live]

Builds what is stale (the generated data, then the site), then serves the site, the API and MCP on
http://localhost:3000.

  --live   real data: the Open-Meteo forecast, segments discovered on demand from OpenStreetMap,
           Open-Meteo place search (the same as WOS_DATA=live)

Otherwise configured by environment variables (PORT, HOST, WOS_DATA, WOS_FORECAST, …): see
docs/operating.md, "Configuration". The start log names each data source, demo or live, and its URL.`;

let live = false;
await runCommand('npm start', () => {
  ({ live = false } = parseCommand(
    { name: 'npm start', usage: USAGE, options: { live: { type: 'boolean' } } },
    process.argv.slice(2),
  ).values);
  const build = spawnSync(process.execPath, [fileURLToPath(new URL('build.ts', import.meta.url))], {
    stdio: 'inherit',
  });
  if (build.error) throw build.error;
  return build.status ?? 1;
});
if (process.exitCode === 0) {
  // The server runs in a thread with heap limits of its own (decision 0030), not in this one.
  const { serveInWorker } = await import('../src/server/server-thread.ts');
  // `--live` is the one switch, WOS_DATA=live, handed to the server thread's environment (read there by
  // the settings, like any variable).
  serveInWorker(
    new URL('../src/server/main.ts', import.meta.url),
    live ? { ...process.env, WOS_DATA: 'live' } : undefined,
  );
}
