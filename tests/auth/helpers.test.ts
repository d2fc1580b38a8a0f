/**
 * The small pure pieces around the library: the DCR defaults for MCP
 * clients, the Bearer challenge syntax, the disconnect path and the stored
 * scope lists. Property tests, since their inputs come from strangers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerChallenge } from '../../src/auth/challenge.ts';
import { withNativeDefaults } from '../../src/auth/registration.ts';
import { disconnectTarget } from '../../src/account/account-api.ts';
import { readDate, readList } from '../../src/store/auth-tables.ts';

const loopback = fc
  .tuple(fc.constantFrom('localhost', '127.0.0.1', '[::1]'), fc.integer({ min: 1, max: 65535 }), fc.webPath())
  .map(([host, port, path]) => `http://${host}:${port}${path}`);

describe('withNativeDefaults', () => {
  it('marks clients with only loopback redirects as native, unless they said otherwise', () => {
    fc.assert(
      fc.property(
        fc.array(loopback, { minLength: 1, maxLength: 3 }),
        fc.option(fc.constantFrom('web', 'native')),
        (uris, type) => {
          const body = { redirect_uris: uris, ...(type === null ? {} : { application_type: type }) };
          expect(withNativeDefaults(body)).toMatchObject({
            application_type: type ?? 'native',
            redirect_uris: uris,
          });
        },
      ),
    );
  });

  it('leaves a client with any non-loopback redirect as it registered', () => {
    fc.assert(
      fc.property(
        fc.array(loopback, { maxLength: 2 }),
        fc.webUrl({ validSchemes: ['https'] }),
        (uris, web) => {
          const result = withNativeDefaults({ redirect_uris: [...uris, web] }) as Record<string, unknown>;
          expect(result['application_type']).toBeUndefined();
        },
      ),
    );
  });

  it('adds refresh_token only when grant_types is absent, and passes non-objects through', () => {
    expect(withNativeDefaults({})).toEqual({ grant_types: ['authorization_code', 'refresh_token'] });
    expect(withNativeDefaults({ grant_types: ['authorization_code'] })).toEqual({
      grant_types: ['authorization_code'],
    });
    for (const value of [null, 'x', 3, ['a']]) expect(withNativeDefaults(value)).toBe(value);
  });
});

describe('bearerChallenge', () => {
  it('always yields well-formed RFC 6750 parameters, whatever the values hold', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom('error', 'scope', 'resource_metadata', 'error_description'),
          fc.string({ unit: 'binary' }),
        ),
        (params) => {
          const header = bearerChallenge(params);
          expect(header).toMatch(/^Bearer (?:[a-z_]+="[\x20\x21\x23-\x5b\x5d-\x7e]*"(?:, |$))*$/);
          expect(header.match(/="/g)?.length ?? 0).toBe(Object.keys(params).length);
        },
      ),
    );
  });
});

describe('disconnectTarget', () => {
  it('reads back any client id the settings page encodes into the path', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: 'binary' }), (id) => {
        expect(disconnectTarget(`/api/rider/connections/${encodeURIComponent(id)}/disconnect`)).toBe(id);
      }),
    );
  });

  it('answers undefined for other paths', () => {
    for (const path of [
      '/api/rider/connections//disconnect',
      '/api/rider/connections/a/b/disconnect',
      '/api/rider/connections/%E0/disconnect',
      '/api/rider/me',
    ]) {
      expect(disconnectTarget(path), path).toBeUndefined();
    }
  });
});

describe('stored values', () => {
  it('reads scope lists as SQLite (JSON text), PostgreSQL (arrays) and tokens (spaces) store them', () => {
    expect(readList('["rider:read","offline_access"]')).toEqual(['rider:read', 'offline_access']);
    expect(readList(['rider:read'])).toEqual(['rider:read']);
    expect(readList('rider:read rider:write')).toEqual(['rider:read', 'rider:write']);
    expect(readList(null)).toEqual([]);
  });

  it('reads dates as Date, ISO text or milliseconds, and null when unreadable', () => {
    const iso = '2026-11-22T02:14:48Z';
    expect(readDate(new Date(iso))).toBe(iso);
    expect(readDate('2026-11-22T02:14:48.123Z')).toBe(iso);
    expect(readDate(Date.parse(iso))).toBe(iso);
    expect(readDate('never')).toBeNull();
  });
});
