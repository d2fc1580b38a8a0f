import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startService, type RunningService } from '../../support/service.ts';
import { metadataOf, registerClient } from '../../auth/support/grants.ts';
import { Agent, riderApproves } from '../../auth/support/oauth.ts';

const CLI = fileURLToPath(
  new URL('../../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url),
);

let service: RunningService;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'wos-as-conformance-'));
  service = await startService({ WOS_ALERTS_INTERVAL_MS: '0' });
}, 240_000);
afterAll(async () => {
  await service?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

// The suite's other `auth/*` scenarios test MCP clients (it plays the server); they do not apply here.
describe('the official conformance suite against our authorization server', () => {
  it(
    'passes the authorization-server scenarios: metadata, and the code grant with PKCE and a resource',
    { timeout: 120_000 },
    async () => {
      const port = await freePort();
      const redirect = `http://127.0.0.1:${port}/callback`;
      const metadata = await metadataOf(service.baseUrl);
      const clientId = await registerClient(metadata, redirect, 'Conformance suite');
      const args = [
        CLI,
        'authorization',
        '--url',
        metadata.issuer,
        '--client-id',
        clientId,
        '--resource',
        `${service.baseUrl}/mcp/rider`,
        '-p',
        String(port),
        '-o',
        scratch,
      ];
      const child = spawn(process.execPath, args, { cwd: scratch });
      let output = '';
      const rider = { email: 'conformance@example.org', password: 'a long enough password', signUp: true };
      const approved = new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const url = /^(https?:\/\/\S+\/oauth2\/authorize\?\S+)$/m.exec(output)?.[1];
          if (!url || approvedOnce) return;
          approvedOnce = true;
          // The suite waits for a person to sign in and allow; the rider here is a script.
          riderApproves(new Agent(service.baseUrl), url, rider)
            .then((landed) => (landed ? fetch(landed) : Promise.reject(new Error(`no redirect:\n${output}`))))
            .then(() => resolve(), reject);
        });
      });
      let approvedOnce = false;
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
      await approved;
      expect(await exit, output).toBe(0);
      expect(output).toMatch(/authorization-server-metadata-endpoint/);
      expect(output).toMatch(/authorization-code-grant/);
      expect(output).toMatch(/Total: 3 passed, 0 failed/);
    },
  );
});
