import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedService } from '../../support/service.ts';

const CLI = fileURLToPath(
  new URL('../../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url),
);
const baseline = (name: string) => fileURLToPath(new URL(`./mcp-conformance/${name}`, import.meta.url));

const service = sharedService();
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'wos-conformance-'));
});
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Runs the official suite against `npm start`; exit 0 means no failure outside the committed baseline. */
function conformance(args: readonly string[]): Promise<{ code: number | null; output: string }> {
  // The server is on 127.0.0.1, so the suite's DNS-rebinding scenario applies too.
  const url = `${service.baseUrl}/mcp`;
  const child = spawn(process.execPath, [CLI, 'server', '--url', url, '-o', scratch, ...args], {
    cwd: scratch,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

function summary(output: string): string {
  return output.slice(output.lastIndexOf('=== SUMMARY ==='));
}

describe('the official MCP conformance suite (@modelcontextprotocol/conformance)', () => {
  it(
    'passes the active suite (2025-era clients) apart from the scenarios that cannot apply',
    { timeout: 180_000 },
    async () => {
      const { code, output } = await conformance(['--expected-failures', baseline('baseline-2025.yml')]);
      expect(code, summary(output)).toBe(0);
      expect(output).toMatch(/dns-rebinding-protection: 2 passed, 0 failed/);
      expect(output).toMatch(/server-initialize: \d+ passed, 0 failed/);
    },
  );

  it(
    'passes what the 2026-07-28 revision requires apart from the scenarios that cannot apply',
    { timeout: 240_000 },
    async () => {
      const { code, output } = await conformance([
        '--requirements',
        '2026-07-28',
        '--expected-failures',
        baseline('baseline-2026-07-28.yml'),
      ]);
      expect(code, summary(output)).toBe(0);
      expect(output).toMatch(/http-header-validation: \d+ passed, 0 failed/);
    },
  );
});
