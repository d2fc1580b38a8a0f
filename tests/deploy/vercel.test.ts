import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeContract } from '../contract/run-contract.ts';
import { buildVercelOutput } from '../../scripts/vercel/build-output.ts';
import { createVercelRouter } from '../support/vercel-output.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const origin = 'https://wind-on-segment.vercel.test';
let output: string;
let route: (request: Request) => Promise<Response>;

beforeAll(async () => {
  output = buildVercelOutput(root);
  route = await createVercelRouter(output);
}, 300_000);

describeContract('vercel build output', () => ({
  origin,
  fetch: (path, init) => route(new Request(origin + path, init)),
}));

describe('vercel build output: layout', () => {
  it('has the REST function on Node 24 and the static site', () => {
    const fn = join(output, 'functions/api/rest.func');
    expect(statSync(fn).isDirectory()).toBe(true);
    expect(readdirSync(join(output, 'static'))).toContain('index.html');
  });

  it('sends the browser the site and the API its paths', async () => {
    const home = await route(new Request(`${origin}/`));
    expect(home.status).toBe(200);
    const health = await route(new Request(`${origin}/health`));
    expect(await health.json()).toEqual({ status: 'ok', version: '1.1.0' });
  });
});
