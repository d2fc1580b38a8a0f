import { freePort, startNpmServer, type RunningService } from '../../scripts/service/launch.ts';

export { freePort, startService, type RunningService } from '../../scripts/service/launch.ts';

/** `npm run dev` (Astro's dev server with the API mounted) on a free port of 127.0.0.1. */
export async function startDevServer(): Promise<RunningService> {
  const port = await freePort();
  // Vitest's own variables would make Astro's dev server behave as if it ran inside Vitest.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV'),
  );
  return startNpmServer(
    ['run', 'dev', '--silent', '--', '--port', String(port), '--host', '127.0.0.1'],
    port,
    env,
  );
}
