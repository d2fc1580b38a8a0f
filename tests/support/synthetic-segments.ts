import type { LatLon } from '../../src/core/bearing.ts';
import { roundHalfAway } from '../../src/core/round.ts';
import { polylineLengthM } from '../../src/data/segments/segment-geometry.ts';
import type { Segment } from '../../src/data/segments/types.ts';

/** [west, south, east, north] boxes over mostly-land riding regions, so benchmark density is realistic. */
const REGIONS: readonly (readonly [number, number, number, number, string])[] = [
  [-9, 37, -1, 43.5, 'ES'], // Iberia
  [-1.5, 43.3, 7.5, 50.5, 'FR'],
  [6, 44, 16, 47, 'IT'], // Alps and northern Italy
  [8.5, 38, 16.5, 44, 'IT'], // Italian peninsula
  [6, 47, 15, 54.5, 'DE'],
  [2.5, 50, 6.5, 53.5, 'BE'], // Benelux
  [-5.5, 50.2, 1.5, 55, 'GB'],
  [-123.5, 33, -116.5, 41, 'US'], // California
  [-106, 37, -104, 41, 'US'], // Colorado Front Range
  [-80, 38.5, -70.5, 45, 'US'], // north-east
  [-90, 30, -82, 36, 'US'], // south-east
  [-80, 43, -71, 46.5, 'CA'], // Ontario and Quebec
];

/** mulberry32: a tiny seeded generator, so the same seed gives the same catalog on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function walk(random: () => number, start: LatLon, points: number): LatLon[] {
  const polyline: LatLon[] = [start];
  let heading = random() * 2 * Math.PI;
  let { lat, lon } = start;
  while (polyline.length < points) {
    heading += (random() - 0.5) * 1.2;
    const stepM = 100 + random() * 500;
    lat += (stepM * Math.cos(heading)) / 111_320;
    lon += (stepM * Math.sin(heading)) / (111_320 * Math.cos((lat * Math.PI) / 180));
    polyline.push({ lat: roundHalfAway(lat, 5), lon: roundHalfAway(lon, 5) });
  }
  return polyline;
}

/**
 * A deterministic synthetic catalog for benchmarks and property tests: the
 * real catalog is small, but an operator's import may not be, and the spatial
 * index must stay fast at 1,000,000 entries. Ids are `synthetic-<n>`, ranks
 * 1..count, and every entry says it is synthetic.
 */
export function generateSegments(count: number, seed = 1): Segment[] {
  return [...generateSegmentStream(count, seed)];
}

/**
 * The same segments as {@link generateSegments}, one at a time, so a
 * million of them can be packed without holding them all as objects.
 */
export function* generateSegmentStream(count: number, seed = 1): Generator<Segment> {
  const random = seededRandom(seed);
  for (let n = 1; n <= count; n++) {
    const [west, south, east, north, country] = REGIONS[Math.floor(random() * REGIONS.length)] ?? [
      0,
      0,
      1,
      1,
      'FR',
    ];
    const start = {
      lat: roundHalfAway(south + random() * (north - south), 5),
      lon: roundHalfAway(west + random() * (east - west), 5),
    };
    const polyline = walk(random, start, 5 + Math.floor(random() * 36));
    const distanceM = Math.round(polylineLengthM(polyline));
    const averageGradePct = roundHalfAway(random() * 12, 1);
    const netRiseM = (distanceM * averageGradePct) / 100;
    yield {
      id: `synthetic-${n}`,
      name: `Synthetic segment ${n}`,
      aliases: [],
      countryCode: country,
      polyline,
      distanceM,
      averageGradePct,
      elevationGainM: Math.round(netRiseM * (1 + random() * 0.1)),
      popularityRank: n,
      source: 'Synthetic, generated for benchmarks',
      license: 'CC0-1.0',
    };
  }
}
