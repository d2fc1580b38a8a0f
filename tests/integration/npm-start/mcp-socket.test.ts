import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FindTailwindSegmentsOutputSchema } from '../../../src/mcp/schemas/find.ts';
import { GetSegmentOutputSchema } from '../../../src/mcp/schemas/segment.ts';
import { connectClient, ERAS } from '../../support/mcp-client.ts';
import { sharedService } from '../../support/service.ts';

const service = sharedService();

describe.each(ERAS)('npm start serves the MCP server at /mcp, protocol %s', (era) => {
  let client: Client;
  beforeAll(async () => {
    client = await connectClient(`${service.baseUrl}/mcp`, era);
  });
  afterAll(() => client?.close());

  it("finds segments near Bourg-d'Oisans with the demo forecast, then reads one", async () => {
    const found = await client.callTool({
      name: 'find_tailwind_segments',
      arguments: { place: "Bourg-d'Oisans" },
    });
    const data = FindTailwindSegmentsOutputSchema.parse(found.structuredContent);
    expect(data.segments.length).toBeGreaterThanOrEqual(5);
    expect(data.forecast?.source).toBe('demo');
    const first = data.segments[0];
    const read = await client.callTool({ name: 'get_segment', arguments: { segment_id: first?.id } });
    const segment = GetSegmentOutputSchema.parse(read.structuredContent);
    expect(segment.segment.name).toBe(first?.name);
    expect(segment.locked[0]?.pricing_url).toBe(`${service.baseUrl}/pricing?plan=pro_monthly`);
  });
});

describe('the MCP address over a socket', () => {
  it('refuses a foreign Host header', async () => {
    const { request } = await import('node:http');
    const url = new URL(`${service.baseUrl}/mcp`);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: '/mcp',
          method: 'POST',
          headers: { host: 'evil.example.com', 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(403);
  });

  it('sends a browser that opens the address to the page that documents it', async () => {
    const page = await fetch(`${service.baseUrl}/mcp`, { headers: { accept: 'text/html,*/*' } });
    expect(page.status).toBe(200);
    expect(page.url).toBe(`${service.baseUrl}/docs/mcp`);
    expect(await page.text()).toContain('find_tailwind_segments');
  });
});
