import { describe, expect, it } from 'vitest';
import { sharedService } from '../../support/service.ts';
import { describeContract } from '../../contract/run-contract.ts';

const service = sharedService();

describeContract('npm start over a socket', () => ({
  origin: service.baseUrl,
  fetch: (path, init) => fetch(new URL(path, service.baseUrl), init),
}));

describe('npm start: the site beside the API', () => {
  it('serves the built home page', async () => {
    const response = await fetch(service.baseUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('shows browsers the site’s 404 page and gives clients a problem', async () => {
    const page = await fetch(`${service.baseUrl}/no-such-page`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const problem = await fetch(`${service.baseUrl}/no-such-page`);
    expect(problem.status).toBe(404);
    expect(problem.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('honours WOS_DOCS_URL for problem types', async () => {
    const configured = sharedService('npmStartWithDocsUrl');
    const body = (await (await fetch(`${configured.baseUrl}/v1/nope`)).json()) as { type: string };
    expect(body.type).toBe('https://docs.example.org/api#error-not-found');
  });
});
