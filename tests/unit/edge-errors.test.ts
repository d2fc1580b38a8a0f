/**
 * An error the edge sends before a part sees the request takes the style the
 * path table gives the path: every part behind the MCP function is checked
 * here, so a new row cannot leave its edge answers in another shape.
 */
import { describe, expect, it, vi } from 'vitest';
import { edgeError } from '../../src/app/edge-errors.ts';
import { createMcpService } from '../../src/app/mcp-service.ts';
import { pathFacts } from '../../src/app/paths.ts';

const failure = {
  code: 'bad_request',
  detail: 'A header value is not valid.',
  hint: 'Send header values of visible ASCII characters only.',
  oauthError: 'invalid_request',
} as const;

describe('edgeError', () => {
  it.each([
    ['/mcp', 'json-rpc'],
    ['/mcp/rider/', 'json-rpc'],
    ['/mcp/other', 'problem'],
    ['/api/rider/me', 'problem'],
    ['/api/billing/webhook', 'problem'],
    ['/api/auth/sign-in/email', 'oauth'],
    ['/.well-known/oauth-protected-resource/mcp/rider', 'oauth'],
  ])('answers at %s in the %s style', (path, style) => {
    expect(pathFacts(path).errors).toBe(style);
    const { status, headers, body } = edgeError(path, failure, 'https://site.test/docs');
    expect(status).toBe(400);
    expect(headers['cache-control']).toBe('no-store');
    const parsed = JSON.parse(body) as Record<string, unknown>;
    if (style === 'problem') {
      expect(headers['content-type']).toBe('application/problem+json');
      expect(parsed).toMatchObject({
        type: 'https://site.test/docs#error-bad-request',
        status: 400,
        code: 'bad_request',
        instance: path,
        hint: failure.hint,
      });
    } else if (style === 'oauth') {
      expect(parsed).toEqual({
        error: 'invalid_request',
        error_description: `${failure.detail} ${failure.hint}`,
      });
    } else {
      expect(parsed).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: failure.detail } });
    }
  });

  it('says a 5xx at an MCP address as a JSON-RPC internal error, with Retry-After kept', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const service = createMcpService({
      publicEndpoint: () => Promise.reject(new Error('not used')),
      openRider: () => Promise.reject(new Error('database is down')),
    });
    const response = await service.handle(new Request('http://site.test/mcp/rider', { method: 'POST' }), {
      address: '192.0.2.1',
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('30');
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32603 } });
    log.mockRestore();
  });
});
