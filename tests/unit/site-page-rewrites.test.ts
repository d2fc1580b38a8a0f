/**
 * A path the path table serves with a shell page (`/segments/<id>`) gets
 * that page from the Node listener under the address asked for, as Vercel's
 * generated rewrite gives it; a path the row does not take, or a build
 * without the page, gets the not-found answer naming the path asked for.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/app/paths.ts';
import { createApiReplier } from '../../src/rest/handler.ts';
import { createSiteListener } from '../../src/server/site-listener.ts';

const shell = PATHS.find((row) => row.page !== undefined);
const servers: Server[] = [];

async function serve(withPage: boolean): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'wos-site-'));
  writeFileSync(join(dir, '404.html'), '<p>not here</p>');
  if (withPage && shell?.page) {
    mkdirSync(join(dir, shell.page), { recursive: true });
    writeFileSync(join(dir, shell.page, 'index.html'), '<p>the shell</p>');
  }
  const server = createServer(await createSiteListener({ siteDir: dir, reply: createApiReplier() }));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let origin = '';
let bare = '';
beforeAll(async () => {
  [origin, bare] = [await serve(true), await serve(false)];
});
afterAll(() => {
  for (const server of servers) server.close();
});

describe('a shell page of the path table on the Node listener', () => {
  it('names a page one segment below its path', () => {
    expect(shell).toMatchObject({ match: 'child' });
  });

  it.each(['some-id', 'some-id/', 'an%20id'])('serves the shell at %s below the path', async (id) => {
    const response = await fetch(`${origin}${shell?.path}/${id}`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('<p>the shell</p>');
  });

  it('answers 404 where the row does not reach, and where the build has no page', async () => {
    for (const url of [`${origin}${shell?.path}/a/b`, `${bare}${shell?.path}/some-id`]) {
      const response = await fetch(url);
      expect(response.status, url).toBe(404);
      const body = (await response.json()) as { instance?: string };
      expect(body.instance, url).toBe(new URL(url).pathname);
    }
  });
});
