/**
 * Setup file of the `unit` project (vitest.config.ts): the unit lane starts no child process, so
 * it stays fast and needs no build. A file that spawns one (a CLI, a server, a browser) fails here
 * with the fix in the message instead of quietly slowing the lane down.
 */
import { vi } from 'vitest';

vi.mock('node:child_process', () => {
  const refuse = (): never => {
    throw new Error(
      'The unit lane starts no child process: move this test file under tests/integration/<area>/ ' +
        '(or tests/e2e/, tests/deploy/); vitest.config.ts picks the lane by folder.',
    );
  };
  return {
    spawn: refuse,
    spawnSync: refuse,
    exec: refuse,
    execSync: refuse,
    execFile: refuse,
    execFileSync: refuse,
    fork: refuse,
  };
});
