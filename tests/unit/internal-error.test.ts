import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiConfig } from '../../src/http/public-urls.ts';
import { createApiHandler } from '../../src/rest/handler.ts';

afterEach(() => vi.restoreAllMocks());

describe('an unexpected failure', () => {
  it('becomes a 500 internal_error problem that leaks nothing and is logged', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const broken: ApiConfig = {
      get siteUrl(): string {
        throw new Error('secret connection string');
      },
    };
    const response = await createApiHandler(broken)(new Request('http://api.test/v1/plans'));
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    expect(text).not.toMatch(/secret|Error:|at /);
    expect(JSON.parse(text)).toMatchObject({
      type: 'http://api.test/docs#error-internal-error',
      status: 500,
      code: 'internal_error',
      instance: '/v1/plans',
    });
    expect(log).toHaveBeenCalledOnce();
    expect(String(log.mock.calls[0]?.[2])).toContain('secret connection string');
  });
});
