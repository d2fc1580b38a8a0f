/**
 * `npm run survey:places`: asks `find_tailwind_segments` about every
 * place in tests/fixtures/places/cycling-places.json, as an assistant would,
 * through the public endpoint with the embedded catalog and gazetteer and the
 * demo forecast at the current time. It prints how many places resolve to the
 * place a rider means (within the list's tolerance), how many answers hold
 * segments and how many hold headings instead, and how many offered windows
 * reach into darkness, judged by an independent solar formula (sun below
 * −6°, sampled every 5 minutes). A survey, not a test: the tests hold each rule.
 */
import { readFileSync } from 'node:fs';
import type { LatLon } from '../src/core/bearing.ts';
import { greatCircleM } from '../src/core/distance.ts';
import { forecastPointOf } from '../src/data/segments/segment-geometry.ts';
import { CIVIL_TWILIGHT_DEG, lowestSunDeg } from '../tests/support/solar-altitude.ts';
import { testDeps, testEndpoint } from '../tests/support/mcp-deps.ts';
import { call, readAnswer } from './mcp-calls.ts';

interface Place {
  readonly query: string;
  readonly country_code: string;
  readonly latitude: number;
  readonly longitude: number;
  readonly tolerance_km: number;
}
interface Window {
  readonly start: string;
  readonly end: string;
}
interface Found {
  readonly id: string;
  readonly best_window: Window | null;
}
interface Answer {
  readonly place: { latitude: number; longitude: number; country_code: string | null };
  readonly segments: readonly Found[];
  readonly nearest_beyond_radius: readonly Found[] | null;
  readonly headings: readonly { best_window: Window | null }[] | null;
}

const { places } = JSON.parse(
  readFileSync(new URL('../tests/fixtures/places/cycling-places.json', import.meta.url), 'utf8'),
) as { places: Place[] };
const deps = testDeps({ now: () => Date.now() });
const endpoint = testEndpoint(deps, { ratePerMinute: 1e9, rateBurst: 1e9 });

/** Whether a window dips below civil twilight at `point` (where the segment's forecast is read, or the place). */
function dark(point: LatLon, window: Window | null): boolean {
  if (window === null) return false;
  const lowest = lowestSunDeg(point, Date.parse(window.start) / 1000, Date.parse(window.end) / 1000);
  return lowest < CIVIL_TWILIGHT_DEG;
}

let meant = 0;
let withSegments = 0;
let withHeadings = 0;
let windows = 0;
let darkWindows = 0;
const misses: string[] = [];
for (const [i, place] of places.entries()) {
  const { headers, body } = call('2025-06-18', i + 1, 'tools/call', {
    name: 'find_tailwind_segments',
    arguments: { place: place.query },
  });
  const response = await endpoint(
    new Request('http://127.0.0.1:3000/mcp', {
      method: 'POST',
      headers: { ...headers, host: '127.0.0.1:3000' },
      body,
    }),
    { address: '127.0.0.1' },
  );
  const result = readAnswer(await response.text())['result'] as { structuredContent?: Answer } | undefined;
  const answer = result?.structuredContent;
  if (answer === undefined) {
    misses.push(`${place.query}: no answer`);
    continue;
  }
  const at = { lat: answer.place.latitude, lon: answer.place.longitude };
  const km = greatCircleM({ lat: place.latitude, lon: place.longitude }, at) / 1000;
  if (answer.place.country_code === place.country_code && km <= place.tolerance_km) meant += 1;
  else misses.push(`${place.query}: ${answer.place.country_code ?? '?'} ${km.toFixed(0)} km off`);
  if (answer.segments.length > 0) withSegments += 1;
  if (answer.headings !== null) withHeadings += 1;
  for (const found of [...answer.segments, ...(answer.nearest_beyond_radius ?? [])]) {
    windows += found.best_window ? 1 : 0;
    const segment = deps.catalog.get(found.id);
    if (segment === undefined) throw new Error(`Unknown segment ${found.id}`);
    if (dark(forecastPointOf(segment), found.best_window)) darkWindows += 1;
  }
  for (const heading of answer.headings ?? []) {
    windows += heading.best_window ? 1 : 0;
    if (dark(at, heading.best_window)) darkWindows += 1;
  }
}

console.log(`places asked:                 ${places.length}`);
console.log(`resolved to the place meant:  ${meant}`);
console.log(`answers holding segments:     ${withSegments}`);
console.log(`answers holding headings:     ${withHeadings}`);
console.log(`windows offered:              ${windows}`);
console.log(`windows reaching into dark:   ${darkWindows}`);
for (const miss of misses) console.log(`  miss: ${miss}`);
