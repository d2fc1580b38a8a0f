/**
 * `npm start`: brings the generated data and the site up to date (each
 * step skipped when nothing it is made from changed, see scripts/build.ts),
 * then starts the production server. On a fresh clone the first start
 * builds everything once.
 */
import { build } from './build.ts';
import { parseCommand, runCommand } from './cli.ts';

const USAGE = `Usage: npm start

Builds what is stale (the generated data, then the site), then serves the site, the API and MCP on
http://localhost:3000. Configured by environment variables only (PORT, HOST, WOS_FORECAST, …):
see docs/operating.md, "Configuration".`;

await runCommand('npm start', async () => {
  parseCommand({ name: 'npm start', usage: USAGE, options: {} }, process.argv.slice(2));
  await build();
});
if (process.exitCode === 0) await import('../src/server/main.ts');
