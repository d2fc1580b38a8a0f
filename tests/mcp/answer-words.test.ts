/**
 * Every text an assistant reads, scanned for words that disagree with the
 * figures: real answers of every public tool (demo forecast, in process),
 * then every summary builder over generated weather. A line never says
 * "dry" beside "wet"; every wind figure names its height; every time in a
 * text is a local time with its zone, never a bare ISO time; a flag is
 * explained in the one set of words of `FLAG_WORDS`.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseGpx } from '../../src/core/route/gpx.ts';
import { FLAG_WORDS, flagsOf, type RideFlag } from '../../src/core/rideable.ts';
import type { ToolContext } from '../../src/mcp/context.ts';
import { FindTailwindSegmentsInputSchema } from '../../src/mcp/schemas/find.ts';
import { GetRouteWindInputSchema } from '../../src/mcp/schemas/route.ts';
import { GetSegmentInputSchema, type GetSegmentOutput } from '../../src/mcp/schemas/segment.ts';
import { findTailwindSegments } from '../../src/mcp/tools/find-tailwind-segments.ts';
import { getRouteWind } from '../../src/mcp/tools/get-route-wind.ts';
import { getSegment } from '../../src/mcp/tools/get-segment.ts';
import { summarizeSegment } from '../../src/mcp/tools/public-summaries.ts';
import { summarizeWatchlist, summarizeWindows } from '../../src/mcp/tools/rider/rider-summaries.ts';
import { alertPayload } from '../../src/alerts/alert-delivery.ts';
import { testDeps } from '../support/mcp-deps.ts';

const context = {
  ...testDeps(),
  caller: { kind: 'anonymous' },
  urls: { mcp: 'http://localhost:3000/mcp' },
} as unknown as ToolContext;
const loop = parseGpx(
  readFileSync(fileURLToPath(new URL('../fixtures/routes/loop.gpx', import.meta.url)), 'utf8'),
).points.map((p) => ({ latitude: p.lat, longitude: p.lon, elevation_m: p.ele }));

/** The reasons a line is wrong, empty when it is fine. */
function problems(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split('\n')) {
    if (/\bdry\b/i.test(line) && /\bwet\b/i.test(line)) found.push(`dry beside wet: ${line}`);
    for (const match of line.matchAll(/km\/h/g)) {
      const at = match.index;
      const after = line.slice(at, at + 30);
      const clause = line.slice(0, at).split(/[;(]/).at(-1) ?? '';
      const named =
        /^km\/h( at 10 m| at rider height| on the flat| or more at 10 m)/.test(after) ||
        /(at 10 m|at rider height): peak [^;]*$/.test(clause);
      if (!named)
        found.push(`wind figure without its height: …${line.slice(Math.max(0, at - 40), at + 20)}…`);
    }
    if (/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(line)) found.push(`an ISO time in text: ${line}`);
    const zone = String.raw`(?:[A-Z]{2,5}|UTC(?:[+-]\d{1,2}(?::\d{2})?)?)`;
    const day = String.raw`(?:\w{3} \d{1,2} \w{3,4} )?`;
    const zoned = new RegExp(
      String.raw`\d{2}:\d{2}(?: ${zone})?–${day}\d{2}:\d{2} ${zone}|\d{2}:\d{2} ${zone}`,
      'g',
    );
    if (/\d{1,2}:\d{2}/.test(line.replace(zoned, ''))) found.push(`a clock time without its zone: ${line}`);
    for (const flag of Object.keys(FLAG_WORDS) as RideFlag[]) {
      const explained = new RegExp(`\\b${flag} = (.*?)(;|\\.$)`).exec(line);
      if (explained && explained[1] !== FLAG_WORDS[flag]) found.push(`${flag} explained otherwise: ${line}`);
    }
  }
  return found;
}

async function realAnswers(): Promise<{ name: string; text: string; data: unknown }[]> {
  const finds = [
    { place: 'Boulder' },
    { place: "Bourg-d'Oisans" },
    { latitude: -33.92, longitude: 18.42, radius_m: 50_000 },
    { latitude: 35.68, longitude: 139.76 },
    { latitude: 28.3, longitude: -16.6, include_darkness: true },
  ];
  const segments = ['fr-alpe-d-huez', 'be-oude-kwaremont', 'gb-box-hill', 'us-mount-lemmon'];
  const routes = [
    { points: loop.filter((_, i) => i % 4 === 0) },
    { points: loop.filter((_, i) => i % 4 === 0), include_darkness: true, power_w: 250 },
    {
      points: [
        { latitude: 45.0556, longitude: 6.0306, elevation_m: 720 },
        { latitude: 45.0921, longitude: 6.0703, elevation_m: 1850 },
      ],
    },
  ];
  return [
    ...(await Promise.all(
      finds.map(async (args) => {
        const a = await findTailwindSegments.run(FindTailwindSegmentsInputSchema.parse(args), context);
        return { name: `find ${JSON.stringify(args)}`, text: a.summary, data: a.data };
      }),
    )),
    ...(await Promise.all(
      segments.map(async (id) => {
        const a = await getSegment.run(GetSegmentInputSchema.parse({ segment_id: id }), context);
        return { name: `get_segment ${id}`, text: a.summary, data: a.data };
      }),
    )),
    ...(await Promise.all(
      routes.map(async (args, i) => {
        const a = await getRouteWind.run(GetRouteWindInputSchema.parse(args), context);
        return { name: `get_route_wind ${i}`, text: a.summary, data: a.data };
      }),
    )),
  ];
}

describe('words that agree with the figures', () => {
  it('holds in every real answer of the public tools', async () => {
    const answers = await realAnswers();
    expect(answers.length).toBeGreaterThan(10);
    for (const answer of answers) expect(problems(answer.text), answer.name).toEqual([]);
    // The scan has something to scan: local zones and both heights appear.
    const all = answers.map((a) => a.text).join('\n');
    expect(all).toMatch(/ (CET|MST|GMT|UTC\+2) /);
    expect(all).toMatch(/at rider height: peak/);
  });

  it('catches each kind of contradiction it is for', () => {
    expect(problems('Sat 28 Nov 08:00–10:00 CET, dry; watch out: wet')).toHaveLength(1);
    expect(problems('peak 6.8 km/h at 10 m (4.6 at rider height; mean 5.2 km/h, wind 3 km/h)')).toHaveLength(
      2,
    );
    expect(problems('best 2026-11-28T07:00:00Z')).toContainEqual(expect.stringMatching(/^an ISO time/));
    expect(problems('civil dusk 17:08')).toHaveLength(1);
    expect(problems('Flags: gusty = strong gusts.')).toHaveLength(1);
    expect(problems('Sat 28 Nov 21:00–Sun 29 Nov 01:00 CET, 55% chance of rain')).toEqual([]);
  });

  it('holds in every summary builder for any weather (property)', async () => {
    const base = (
      await getSegment.run(GetSegmentInputSchema.parse({ segment_id: 'fr-alpe-d-huez' }), context)
    ).data as GetSegmentOutput;
    const window = base.best_window;
    if (window === null) throw new Error('the demo forecast gives Alpe d’Huez no window');
    const weather = fc.record({
      mm: fc.option(fc.constantFrom(0, 0.05, 0.1, 0.3, 0.49), { nil: null }),
      pct: fc.option(fc.integer({ min: 0, max: 69 }), { nil: null }),
      gusts: fc.option(
        fc.double({ min: 0, max: 49.9, noNaN: true }).map((g) => Math.round(g * 10) / 10),
        {
          nil: null,
        },
      ),
      low: fc.integer({ min: -5, max: 35 }),
      spread: fc.integer({ min: 0, max: 8 }),
    });
    fc.assert(
      fc.property(weather, ({ mm, pct, gusts, low, spread }) => {
        const flags = flagsOf({
          daylight: true,
          windGustsKmh: gusts,
          temperatureC: low,
          precipitationMm: mm,
          precipitationProbabilityPct: pct,
        }).filter((f) => f !== 'dark');
        const w = {
          ...window,
          weather: {
            max_precipitation_mm: mm,
            max_precipitation_probability_pct: pct,
            min_temperature_c: low,
            max_temperature_c: low + spread,
            max_gusts_kmh: gusts,
          },
          flags: [...flags],
        };
        const segment = summarizeSegment({ ...base, best_window: w });
        const windows = summarizeWindows({
          segments: [
            {
              segment_id: base.segment.id,
              catalog_status: 'in_catalog',
              segment: null,
              best_window: w,
              window_status: 'found',
              record_s: null,
              estimate: null,
              estimate_status: 'no_record',
            },
          ],
          model: {
            name: 'm',
            reference: 'r',
            cda_m2: 0.32,
            crr: 0.005,
            mass_kg: 85,
            air_density_kg_m3: 1.2,
            drivetrain_efficiency: 0.976,
            wind_height_factor: 0.673,
            assumptions: [],
          },
          forecast: base.forecast,
          attribution: [],
          locked: [],
        } as unknown as Parameters<typeof summarizeWindows>[0]);
        for (const text of [segment, windows]) expect(problems(text), text).toEqual([]);
        if (flags.includes('wet')) expect(segment).toMatch(/wet = /);
      }),
      { numRuns: 150 },
    );
    const watchlist = summarizeWatchlist({
      access: { in_trial: true, trial_ends_at: '2026-12-05T10:20:00Z', pro_access: true },
      watchlist: [],
      recent_alerts: [
        {
          segment_id: 'fr-alpe-d-huez',
          segment_name: "Alpe d'Huez",
          window_start: window.start,
          window_end: window.end,
          time_zone: window.time_zone,
          window_start_local: window.start_local,
          window_end_local: window.end_local,
          peak_tailwind_kmh: 20,
          recorded_at: window.start,
          delivered_at: null,
        },
      ],
      locked: [],
    } as unknown as Parameters<typeof summarizeWatchlist>[0]);
    expect(problems(watchlist)).toEqual([]);
    const payload = alertPayload(
      {
        id: 'a',
        riderId: 'r',
        segmentId: 'fr-alpe-d-huez',
        windowStart: Date.parse(window.start) / 1000,
        windowEnd: Date.parse(window.end) / 1000,
        peakTailwindKmh: 20,
        createdAt: 0,
        deliveredAt: null,
        attempts: 0,
        lastError: null,
      } as unknown as Parameters<typeof alertPayload>[0],
      0,
      "Alpe d'Huez",
      window.time_zone,
    );
    expect(problems(payload.alert.window_text)).toEqual([]);
    expect(payload.alert.window_text).toMatch(/ CES?T$/);
  });
});
