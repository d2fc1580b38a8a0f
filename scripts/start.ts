/**
 * `npm start`: builds the site first when there is no build yet (a fresh
 * clone after `npm install`), makes sure the offline gazetteer exists, then
 * starts the production server.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureGazetteer } from './data/gazetteer.ts';

if (!existsSync(new URL('../dist/index.html', import.meta.url))) {
  console.log('No build found in dist/: running `astro build` once.');
  const build = spawnSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build'], {
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

await ensureGazetteer();
await import('../src/server/main.ts');
