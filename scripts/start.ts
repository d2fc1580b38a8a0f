/**
 * `npm start`: brings the generated data and the site up to date (each
 * step skipped when nothing it is made from changed, see scripts/build.ts),
 * then starts the production server. On a fresh clone the first start
 * builds everything once.
 */
import { build, BuildError } from './build.ts';

try {
  await build();
} catch (error) {
  console.error(
    error instanceof BuildError ? error.message : `npm start: the build failed: ${String(error)}`,
  );
  process.exit(1);
}
await import('../src/server/main.ts');
