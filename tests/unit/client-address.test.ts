/**
 * What better-auth is told about the caller (`forSignIn`): the platform's
 * address in its header, a client's own copy never, and the request itself
 * handed on (no copy of its body) whenever its headers can be set.
 */
import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import {
  CLIENT_ADDRESS_HEADER,
  clientAddressOf,
  forSignIn,
  platformClientAddress,
} from '../../src/http/client-address.ts';

const post = (headers: Record<string, string> = {}) =>
  new Request('http://site.test/api/auth/sign-in/email', { method: 'POST', headers, body: '{"a":1}' });

describe('forSignIn', () => {
  it('sets the address on the request itself, replacing a copy the client sent', async () => {
    const request = post({ [CLIENT_ADDRESS_HEADER]: '203.0.113.66' });
    const handed = forSignIn(request, { address: '192.0.2.1' });
    expect(handed).toBe(request);
    expect(handed.headers.get(CLIENT_ADDRESS_HEADER)).toBe('192.0.2.1');
    expect(await handed.text()).toBe('{"a":1}');
  });

  it('removes a client copy when the platform named no address', () => {
    const handed = forSignIn(post({ [CLIENT_ADDRESS_HEADER]: '203.0.113.66' }), undefined);
    expect(handed.headers.has(CLIENT_ADDRESS_HEADER)).toBe(false);
  });

  it('wraps a request whose headers cannot change, keeping its method and body', async () => {
    const original = post({ [CLIENT_ADDRESS_HEADER]: '203.0.113.66' });
    const frozen = new Headers(original.headers);
    const locked = new Proxy(original, {
      get(target, key) {
        if (key === 'headers') {
          return new Proxy(frozen, {
            get(headers, name) {
              if (name === 'set' || name === 'delete') {
                return () => {
                  throw new TypeError('immutable');
                };
              }
              const value: unknown = Reflect.get(headers, name);
              return typeof value === 'function' ? value.bind(headers) : value;
            },
          });
        }
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const handed = forSignIn(locked, { address: '192.0.2.1' });
    expect(handed).not.toBe(locked);
    expect(handed.method).toBe('POST');
    expect(handed.headers.get(CLIENT_ADDRESS_HEADER)).toBe('192.0.2.1');
    expect(await handed.text()).toBe('{"a":1}');
  });
});

describe('the one client-address reader', () => {
  const nodeRequest = (headers: Record<string, string>, remoteAddress?: string) =>
    ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;

  it('names the socket on node:http, or the first X-Forwarded-For entry behind a trusted proxy', () => {
    const request = nodeRequest({ 'x-forwarded-for': '203.0.113.5, 10.0.0.1' }, '10.0.0.1');
    expect(clientAddressOf(request, false)).toBe('10.0.0.1');
    expect(clientAddressOf(request, true)).toBe('203.0.113.5');
    expect(clientAddressOf(nodeRequest({}), true)).toBe('unknown');
  });

  it("names Vercel's x-real-ip from web or Node headers, and nothing when it is absent", () => {
    expect(platformClientAddress(new Headers({ 'x-real-ip': '198.51.100.7' }))).toBe('198.51.100.7');
    expect(platformClientAddress({ 'x-real-ip': '198.51.100.7' })).toBe('198.51.100.7');
    expect(platformClientAddress(new Headers())).toBeUndefined();
    // A Node header named `get` is a value, not the web form's method.
    expect(platformClientAddress({ get: 'x', 'x-real-ip': '198.51.100.7' })).toBe('198.51.100.7');
    expect(platformClientAddress({ get: ['x', 'y'] })).toBeUndefined();
  });
});
