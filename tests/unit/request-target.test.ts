import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApiReplier } from '../../src/rest/handler.ts';
import { byteLength, utf8Length } from '../../src/rest/headers.ts';
import { TargetReader } from '../../src/rest/request-target.ts';

const NAMES = [
  'wind_speed_kmh',
  'wind_direction_deg',
  'segment_bearing_deg',
  'start_lat',
  'start_lon',
  'end_lat',
  'end_lon',
] as const;

/** Pieces a hostile or careless client puts in a URL: escapes, `+`, dots, fragments, spaces, non-ASCII. */
const hostile = fc.constantFrom(
  '%',
  '%41',
  '%2e',
  '%3D',
  '%26',
  '+',
  '#',
  '?',
  '&',
  '=',
  ' ',
  '\t',
  '\n',
  '\\',
  '/',
  '.',
  '..',
  'é',
  '\u{1F6B4}',
  '\uD800',
  '-',
  'e',
  'E',
  '0x1',
  'Infinity',
  'NaN',
);
const decimal = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -400, max: 400 }).map(String),
  fc.integer({ min: -400, max: 400 }).map(String),
  fc.constantFrom('', '1e2', '-0', '.5', '5.', '00', '1e400', '-360.0000'),
);
const text = fc
  .array(fc.oneof(hostile, fc.string({ maxLength: 3 }), decimal), { maxLength: 4 })
  .map((parts) => parts.join(''));
const name = fc.oneof(
  fc.constantFrom(...NAMES),
  fc.constantFrom(...NAMES).map((n) => n.replace('_', '%5F')),
  text,
);
const value = fc.oneof({ weight: 3, arbitrary: decimal }, { weight: 1, arbitrary: text });
const query = fc
  .array(
    fc.oneof(
      fc.tuple(name, value).map(([n, v]) => `${n}=${v}`),
      name,
      text,
    ),
    { maxLength: 9 },
  )
  .map((pairs) => pairs.join('&'));
const host = fc.oneof(
  fc.constantFrom(
    '127.0.0.1:4321',
    'localhost',
    'API.Example.org',
    'example.org:80',
    '999.1.1.1',
    '[::1]:8080',
    'a..b',
  ),
  fc.constantFrom('a@b', 'x:99999', 'host name', 'h%41st', ''),
);
const path = fc.oneof(
  fc.constantFrom('/v1/tailwind', '/v1/bearing', '/v1/plans', '/health', '/openapi.json', '/v1', '/'),
  fc.constantFrom('/v1/./tailwind', '/v1//tailwind', '/v1/%74ailwind', '/V1/tailwind', '/v1/tailwind/'),
  text.map((t) => `/${t}`),
);
const href = fc
  .tuple(fc.constantFrom('http://', 'https://'), host, path, fc.option(query), fc.option(text))
  .map(
    ([scheme, h, p, q, fragment]) =>
      `${scheme}${h}${p}${q === null ? '' : `?${q}`}${fragment === null ? '' : `#${fragment}`}`,
  );

describe('TargetReader', () => {
  it('reads a plain target exactly as the URL parser and URLSearchParams do, and leaves the rest to them', () => {
    const reader = new TargetReader();
    fc.assert(
      fc.property(href, (spelled) => {
        const quick = reader.read(spelled);
        if (quick === undefined) return;
        const url = URL.parse(spelled);
        expect(url).not.toBeNull();
        expect(quick.origin).toBe(url?.origin);
        expect(quick.pathname).toBe(url?.pathname);
        const names = new Set(['', ...NAMES, ...(url?.searchParams.keys() ?? [])]);
        for (const n of names) expect(quick.params.getAll(n)).toEqual(url?.searchParams.getAll(n));
      }),
      { numRuns: 3000 },
    );
  });

  it('takes the plain road for the ordinary spelling of an API call', () => {
    const quick = new TargetReader().read(
      'http://LocalHost:80/v1/tailwind?wind_speed_kmh=20&&x&wind_speed_kmh=1e2',
    );
    expect(quick?.origin).toBe('http://localhost');
    expect(quick?.pathname).toBe('/v1/tailwind');
    expect(quick?.params.getAll('wind_speed_kmh')).toEqual(['20', '1e2']);
    expect(quick?.params.getAll('x')).toEqual(['']);
  });
});

describe('the replier on both roads', () => {
  // Escaping one letter of the query forces the URL parser's road; the answer must not change by a byte.
  const escaped = (spelled: string) =>
    spelled.replace(
      /\?([^#]*?)([a-z])/,
      (_m, before: string, letter: string) => `?${before}%${letter.charCodeAt(0).toString(16)}`,
    );

  it('gives byte-identical answers, zod deciding every refusal, for random and hostile queries', () => {
    const replier = createApiReplier({}, { memo: 0 });
    const target = fc.tuple(fc.constantFrom('/v1/tailwind', '/v1/bearing'), query);
    fc.assert(
      fc.property(target, fc.constantFrom('GET', 'HEAD'), ([p, q], method) => {
        const plain = `http://127.0.0.1:4321${p}?${q}`;
        const slow = escaped(plain);
        fc.pre(slow !== plain && new TargetReader().read(plain) !== undefined);
        expect(new TargetReader().read(slow)).toBeUndefined();
        expect(replier(method, plain)).toEqual(replier(method, slow));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('utf8Length and byteLength', () => {
  for (const [name, count] of [
    ['utf8Length', utf8Length],
    ['byteLength', byteLength],
  ] as const) {
    it(`${name} is the length of the UTF-8 encoding, lone surrogates included`, () => {
      const encoder = new TextEncoder();
      fc.assert(
        fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), (a, b) => {
          expect(count(a + b)).toBe(encoder.encode(a + b).byteLength);
        }),
      );
    });
  }
});
