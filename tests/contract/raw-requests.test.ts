import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { sharedService } from '../support/service.ts';

const service = sharedService();

/** Sends bytes no fetch client would, and reads the whole answer. */
function raw(request: string): Promise<string> {
  const { port } = new URL(service.baseUrl);
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(request));
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

const status = (answer: string) => Number(answer.split(' ', 2)[1]);

describe('npm start: request lines no browser sends', () => {
  it('answers an absolute-form request line like the origin-form one', async () => {
    const answer = await raw(
      'GET http://proxy.example/v1/tailwind?wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80 HTTP/1.1\r\nHost: proxy.example\r\nConnection: close\r\n\r\n',
    );
    expect(status(answer)).toBe(200);
    expect(answer).toContain('"signed_tailwind_kmh":19.7');
  });

  it('answers a Host header that makes no URL with a problem, and keeps serving', async () => {
    const answer = await raw('GET /v1/plans HTTP/1.1\r\nHost: bad host\r\nConnection: close\r\n\r\n');
    expect([400, 404]).toContain(status(answer));
    expect((await fetch(`${service.baseUrl}/health`)).status).toBe(200);
  });

  it('answers a bad Host header on a site page with a 400, not a dropped connection', async () => {
    const answer = await raw('GET /docs HTTP/1.1\r\nHost: bad host\r\nConnection: close\r\n\r\n');
    expect(status(answer)).toBe(400);
  });

  it('answers OPTIONS * without failing', async () => {
    const answer = await raw('OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(status(answer)).toBeLessThan(500);
    expect((await fetch(`${service.baseUrl}/health`)).status).toBe(200);
  });
});
