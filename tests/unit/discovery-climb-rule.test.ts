import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CLIMB_RULE,
  findClimbs,
  reverseProfile,
  smoothProfile,
  type ClimbSpan,
  type Profile,
} from '../../src/core/discovery/climb-rule.ts';

/** A piece of road: its length in metres and its grade in percent. */
type Piece = readonly [lengthM: number, gradePct: number];

/**
 * A profile sampled every `spacingM` (plus each piece's ends, as a DEM
 * sampler along a polyline would give), from a base height of 400 m, with an
 * optional height noise per sample. Pieces of no length are left out.
 */
function road(pieces: readonly Piece[], spacingM: number, noise: (i: number) => number = () => 0): Profile {
  const corners = [{ d: 0, h: 400 }];
  for (const [length, grade] of pieces) {
    if (length <= 0) continue;
    const last = corners[corners.length - 1] ?? { d: 0, h: 400 };
    corners.push({ d: last.d + length, h: last.h + (length * grade) / 100 });
  }
  const total = corners[corners.length - 1]?.d ?? 0;
  const distances = new Set<number>(corners.map((c) => c.d));
  for (let d = 0; d < total; d += spacingM) distances.add(d);
  const distanceM = [...distances].sort((a, b) => a - b);
  const heightAt = (d: number): number => {
    for (let k = 1; k < corners.length; k++) {
      const a = corners[k - 1];
      const b = corners[k];
      if (a !== undefined && b !== undefined && d <= b.d)
        return a.h + ((b.h - a.h) * (d - a.d)) / (b.d - a.d || 1);
    }
    return corners[corners.length - 1]?.h ?? 400;
  };
  return { distanceM, elevationM: distanceM.map((d, i) => heightAt(d) + noise(i)) };
}

/** A repeatable pseudo-random noise in [-amplitude, amplitude] (fast-check gives the seed). */
function noiseOf(seed: number, amplitude: number): (i: number) => number {
  return (i) => {
    const x = Math.sin((i + 1) * 12.9898 + seed * 78.233) * 43758.5453;
    return (x - Math.floor(x) - 0.5) * 2 * amplitude;
  };
}

/** Distance where piece `k` starts. */
function startOf(pieces: readonly Piece[], k: number): number {
  return pieces.slice(0, k).reduce((sum, [length]) => sum + length, 0);
}

function span(profile: Profile, climb: ClimbSpan): { from: number; to: number } {
  return { from: profile.distanceM[climb.startIndex] ?? NaN, to: profile.distanceM[climb.endIndex] ?? NaN };
}

const spacing = fc.integer({ min: 10, max: 90 });
/** How far a climb's ends may land from the construction's corners: the smoothing blurs them, a sample quantises them. */
const endSlack = (spacingM: number): number => CLIMB_RULE.smoothingM / 2 + spacingM;
/**
 * Net rise a ramp of this grade loses to the smoothing, metres: the window
 * rounds each of its two corners by grade × window / 8; plus a sample's worth
 * of grade and a margin for rounding.
 */
const riseSlack = (gradePct: number, spacingM: number): number =>
  (gradePct / 100) * (CLIMB_RULE.smoothingM / 4 + spacingM) + 0.5;

describe('findClimbs on constructed roads', () => {
  it('finds a clean ramp once, from where it starts to its top, with its figures', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 1200, max: 8000 }),
        fc.double({ min: 4, max: 15, noNaN: true }),
        fc.integer({ min: 0, max: 3000 }),
        spacing,
        (leadIn, length, grade, runOut, spacingM) => {
          fc.pre((length * grade) / 100 >= 55);
          const pieces: Piece[] = [
            [leadIn, 0],
            [length, grade],
            [runOut, 0],
          ];
          const profile = road(pieces, spacingM);
          const climbs = findClimbs(profile);
          expect(climbs).toHaveLength(1);
          const [climb] = climbs as [ClimbSpan];
          const { from, to } = span(profile, climb);
          expect(Math.abs(from - leadIn)).toBeLessThanOrEqual(endSlack(spacingM));
          expect(Math.abs(to - (leadIn + length))).toBeLessThanOrEqual(endSlack(spacingM));
          const rise = (length * grade) / 100;
          expect(Math.abs(climb.netRiseM - rise)).toBeLessThanOrEqual(riseSlack(grade, spacingM));
          expect(climb.gainM).toBeCloseTo(climb.netRiseM, 6);
          // Each end may be off by its slack, and the rise is short by the rounded corners.
          expect(Math.abs(climb.averageGradePct - grade)).toBeLessThanOrEqual(
            (grade * 2 * endSlack(spacingM) + riseSlack(grade, spacingM) * 100) / length,
          );
          expect(climb.maxGradePct).toBeCloseTo(grade, 2);
          expect(climb.lengthM).toBeCloseTo(to - from, 9);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('counts a road ending at its top (a summit road or a dead end)', () => {
    const profile = road(
      [
        [1000, 0],
        [3000, 7],
      ],
      30,
    );
    const climbs = findClimbs(profile);
    expect(climbs).toHaveLength(1);
    expect(climbs[0]?.endIndex).toBe(profile.distanceM.length - 1);
    expect(Math.abs((climbs[0]?.netRiseM ?? 0) - 210)).toBeLessThanOrEqual(riseSlack(7, 30));
  });

  it('keeps a climb whole across a dip under the tolerance', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1200, max: 3000 }),
        fc.double({ min: 5, max: 10, noNaN: true }),
        fc.double({ min: 1, max: 8, noNaN: true }),
        spacing,
        (rampM, grade, dipM, spacingM) => {
          const pieces: Piece[] = [
            [1000, 0],
            [rampM, grade],
            [200, (-dipM / 200) * 100],
            [rampM, grade],
            [1000, 0],
          ];
          const profile = road(pieces, spacingM);
          const climbs = findClimbs(profile);
          expect(climbs).toHaveLength(1);
          const { from, to } = span(profile, climbs[0] as ClimbSpan);
          expect(Math.abs(from - 1000)).toBeLessThanOrEqual(endSlack(spacingM));
          expect(Math.abs(to - startOf(pieces, 4))).toBeLessThanOrEqual(endSlack(spacingM));
          expect(climbs[0]?.gainM).toBeGreaterThanOrEqual((climbs[0]?.netRiseM ?? Infinity) - 1e-9);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('counts the ascent regained after a tolerated dip in the total ascent, not in the net rise', () => {
    const climbs = findClimbs(
      road(
        [
          [1000, 0],
          [2000, 5],
          [600, (-8 / 600) * 100],
          [2000, 5],
          [1000, 0],
        ],
        30,
      ),
    );
    expect(climbs).toHaveLength(1);
    const regained = (climbs[0]?.gainM ?? 0) - (climbs[0]?.netRiseM ?? 0);
    // The 8 m dip, its corners rounded by the smoothing.
    expect(regained).toBeGreaterThan(4);
    expect(regained).toBeLessThanOrEqual(8);
    expect(Math.abs((climbs[0]?.netRiseM ?? 0) - 192)).toBeLessThanOrEqual(riseSlack(5, 30));
  });

  /** The descent that ends a climb which has gained `riseM` (the rule's proportional dip tolerance). */
  const toleranceAfter = (riseM: number) =>
    Math.max(CLIMB_RULE.dipToleranceM, Math.min(CLIMB_RULE.maxDipM, CLIMB_RULE.dipShare * riseM));

  it('splits a climb at a descent over the tolerance for the height gained', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1200, max: 3000 }),
        fc.double({ min: 5, max: 10, noNaN: true }),
        fc.double({ min: 1.3, max: 2, noNaN: true }),
        spacing,
        (rampM, grade, over, spacingM) => {
          // The drop clears the tolerance after the first ramp's rise by a margin the smoothing cannot eat.
          const dropM = toleranceAfter((rampM * grade) / 100) * over + 5;
          const pieces: Piece[] = [
            [1000, 0],
            [rampM, grade],
            [400, (-dropM / 400) * 100],
            [rampM, grade],
            [1000, 0],
          ];
          const profile = road(pieces, spacingM);
          const climbs = findClimbs(profile);
          expect(climbs).toHaveLength(2);
          const first = span(profile, climbs[0] as ClimbSpan);
          const second = span(profile, climbs[1] as ClimbSpan);
          expect(Math.abs(first.to - startOf(pieces, 2))).toBeLessThanOrEqual(endSlack(spacingM));
          expect(Math.abs(second.from - startOf(pieces, 3))).toBeLessThanOrEqual(endSlack(spacingM));
          for (const climb of climbs) {
            // A corner into a descent is sharper, so rounded more: grade change × window / 8.
            const dropGrade = (dropM / 400) * 100;
            expect(Math.abs(climb.netRiseM - (rampM * grade) / 100)).toBeLessThanOrEqual(
              riseSlack(grade + dropGrade, spacingM),
            );
          }
        },
      ),
    );
  });

  it('keeps a long climb whole across a dip small beside the height it has gained (a col past a collet)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4000, max: 8000 }),
        fc.double({ min: 5, max: 9, noNaN: true }),
        fc.double({ min: 0.3, max: 0.8, noNaN: true }),
        spacing,
        (rampM, grade, share, spacingM) => {
          // Coll d'Ordino from Canillo: 430 m up to the Collet de Montaup, 33 m down, 60 m up to the col.
          const riseM = (rampM * grade) / 100;
          const dropM = Math.max(CLIMB_RULE.dipToleranceM + 5, toleranceAfter(riseM) * share);
          const pieces: Piece[] = [
            [500, 0],
            [rampM, grade],
            [600, (-dropM / 600) * 100],
            [1200, ((dropM + 40) / 1200) * 100],
            [800, -6],
          ];
          const profile = road(pieces, spacingM);
          const climbs = findClimbs(profile);
          expect(climbs).toHaveLength(1);
          const whole = span(profile, climbs[0] as ClimbSpan);
          // From the ramp's foot to the col, past the dip: the top is the highest point.
          expect(Math.abs(whole.from - startOf(pieces, 1))).toBeLessThanOrEqual(endSlack(spacingM));
          expect(Math.abs(whole.to - startOf(pieces, 4))).toBeLessThanOrEqual(endSlack(spacingM));
        },
      ),
    );
  });

  it('looks again at what the trim cut: a ramp before a long flat lead-in is a climb of its own', () => {
    const pieces: Piece[] = [
      [500, 0],
      [1500, 5],
      [3000, 0.4],
      [3000, 12],
      [500, 0],
    ];
    const profile = road(pieces, 25);
    const climbs = findClimbs(profile);
    expect(climbs).toHaveLength(2);
    const [first, second] = climbs.map((climb) => span(profile, climb));
    expect(Math.abs((first?.from ?? 0) - startOf(pieces, 1))).toBeLessThanOrEqual(endSlack(25));
    expect(Math.abs((second?.to ?? 0) - startOf(pieces, 4))).toBeLessThanOrEqual(endSlack(25));
  });

  it('finds no climb on a descent, and the climb on its reverse', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1500, max: 8000 }),
        fc.double({ min: 4, max: 12, noNaN: true }),
        spacing,
        (length, grade, spacingM) => {
          const descent = road(
            [
              [500, 0],
              [length, -grade],
              [500, 0],
            ],
            spacingM,
          );
          expect(findClimbs(descent)).toEqual([]);
          const reversed = reverseProfile(descent);
          const climbs = findClimbs(reversed);
          expect(climbs).toHaveLength(1);
          expect(Math.abs((climbs[0]?.netRiseM ?? 0) - (length * grade) / 100)).toBeLessThanOrEqual(
            riseSlack(grade, spacingM),
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it('finds no climb in a few metres of noise on flat ground or on a road too gentle to be a climb', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2000, max: 20_000 }),
        fc.double({ min: 0, max: 1.5, noNaN: true }),
        fc.double({ min: 0, max: 5, noNaN: true }),
        fc.integer(),
        spacing,
        (length, grade, amplitude, seed, spacingM) => {
          const profile = road([[length, grade]], spacingM, noiseOf(seed, amplitude));
          expect(findClimbs(profile)).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('finds a climb through DEM-like noise of a few metres', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 4, noNaN: true }), fc.integer(), (amplitude, seed) => {
        const profile = road(
          [
            [2000, 0],
            [4000, 6],
            [2000, 0],
          ],
          30,
          noiseOf(seed, amplitude),
        );
        const climbs = findClimbs(profile);
        expect(climbs).toHaveLength(1);
        expect(Math.abs((climbs[0]?.netRiseM ?? 0) - 240)).toBeLessThanOrEqual(
          2 * amplitude + riseSlack(6, 30),
        );
        expect(Math.abs((climbs[0]?.lengthM ?? 0) - 4000)).toBeLessThanOrEqual(400);
      }),
      { numRuns: 100 },
    );
  });

  it('joins two ramps across a short plateau and splits them across a long one', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 8000, max: 15_000 }),
        (shortM, longM) => {
          const ramps = (plateauM: number): Piece[] => [
            [1000, 0],
            [1500, 7],
            [plateauM, 0],
            [1500, 7],
            [1000, 0],
          ];
          const joined = findClimbs(road(ramps(shortM), 30));
          expect(joined).toHaveLength(1);
          expect(joined[0]?.netRiseM).toBeCloseTo(210, -1);
          const split = findClimbs(road(ramps(longM), 30));
          expect(split).toHaveLength(2);
          for (const climb of split) {
            expect(Math.abs(climb.netRiseM - 105)).toBeLessThanOrEqual(riseSlack(7, 30));
            expect(Math.abs(climb.lengthM - 1500)).toBeLessThanOrEqual(CLIMB_RULE.smoothingM);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps a steep ramp at the end of a long gentle approach, without the approach', () => {
    const pieces: Piece[] = [
      [10_000, 1.5],
      [1500, 9],
      [500, 0],
    ];
    const profile = road(pieces, 30);
    const climbs = findClimbs(profile);
    expect(climbs).toHaveLength(1);
    const { from, to } = span(profile, climbs[0] as ClimbSpan);
    // The whole 11.5 km averages 2.5 %, under the rule; the part that meets it ends at the top.
    expect(Math.abs(to - 11_500)).toBeLessThanOrEqual(endSlack(30));
    expect(from).toBeLessThan(10_000);
    expect(climbs[0]?.averageGradePct).toBeGreaterThanOrEqual(CLIMB_RULE.minAverageGradePct);
  });

  it('refuses a ramp too short, too low or too shallow', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          // Under 1 km, however steep.
          fc.tuple(fc.integer({ min: 200, max: 850 }), fc.double({ min: 6, max: 15, noNaN: true })),
          // Long enough and steep enough, but under 50 m of rise.
          fc.tuple(fc.integer({ min: 1200, max: 1400 }), fc.double({ min: 3.1, max: 3.4, noNaN: true })),
          // Long and high, but under 3 %.
          fc.tuple(fc.integer({ min: 3000, max: 15_000 }), fc.double({ min: 0.5, max: 2.7, noNaN: true })),
        ),
        spacing,
        ([length, grade], spacingM) => {
          // Short means short after the smoothing and the sampling have blurred both ends (a seed found
          // 832 m at 6.3 % with 77 m samples read as a climb just over 1 km).
          const short = length + 2 * endSlack(spacingM) < CLIMB_RULE.minLengthM;
          fc.pre((length * grade) / 100 < 48 || short || grade < 2.8);
          const profile = road(
            [
              [2000, 0],
              [length, grade],
              [2000, 0],
            ],
            spacingM,
          );
          expect(findClimbs(profile)).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('follows a stricter or looser rule given in place of the default', () => {
    const profile = road(
      [
        [1000, 0],
        [800, 8],
        [1000, 0],
      ],
      30,
    );
    expect(findClimbs(profile)).toEqual([]);
    const looser = findClimbs(profile, { ...CLIMB_RULE, minLengthM: 500 });
    expect(looser).toHaveLength(1);
    expect(Math.abs((looser[0]?.netRiseM ?? 0) - 64)).toBeLessThanOrEqual(riseSlack(8, 30));
    expect(findClimbs(profile, { ...CLIMB_RULE, minLengthM: 500, minAverageGradePct: 9 })).toEqual([]);
  });
});

/** Random roads of ups, downs and flats, with noise: what the invariants are checked on. */
const randomRoad = fc
  .record({
    pieces: fc.array(
      fc.tuple(fc.integer({ min: 50, max: 2500 }), fc.double({ min: -12, max: 12, noNaN: true })),
      {
        minLength: 1,
        maxLength: 12,
      },
    ),
    spacingM: fc.integer({ min: 20, max: 120 }),
    amplitude: fc.double({ min: 0, max: 6, noNaN: true }),
    seed: fc.integer(),
  })
  .map(({ pieces, spacingM, amplitude, seed }) => road(pieces, spacingM, noiseOf(seed, amplitude)));

describe('findClimbs invariants', () => {
  it('gives spans within the profile, in order, not overlapping, each meeting the rule, with consistent figures', () => {
    fc.assert(
      fc.property(randomRoad, (profile) => {
        const smooth = smoothProfile(profile, CLIMB_RULE.smoothingM);
        const climbs = findClimbs(profile);
        let previousEnd = 0;
        for (const climb of climbs) {
          expect(climb.startIndex).toBeGreaterThanOrEqual(previousEnd);
          expect(climb.endIndex).toBeGreaterThan(climb.startIndex);
          expect(climb.endIndex).toBeLessThan(profile.distanceM.length);
          previousEnd = climb.endIndex;
          const from = smooth.distanceM[climb.startIndex] ?? NaN;
          const to = smooth.distanceM[climb.endIndex] ?? NaN;
          expect(climb.lengthM).toBeCloseTo(to - from, 6);
          expect(climb.netRiseM).toBeCloseTo(
            (smooth.elevationM[climb.endIndex] ?? NaN) - (smooth.elevationM[climb.startIndex] ?? NaN),
            6,
          );
          expect(climb.lengthM).toBeGreaterThanOrEqual(CLIMB_RULE.minLengthM);
          expect(climb.netRiseM).toBeGreaterThanOrEqual(CLIMB_RULE.minGainM);
          expect(climb.averageGradePct).toBeGreaterThanOrEqual(CLIMB_RULE.minAverageGradePct);
          expect(climb.averageGradePct).toBeCloseTo((climb.netRiseM / climb.lengthM) * 100, 9);
          expect(climb.gainM).toBeGreaterThanOrEqual(climb.netRiseM - 1e-9);
          expect(climb.maxGradePct).toBeGreaterThanOrEqual(climb.averageGradePct - 1e-9);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('finds the same climbs on a profile whose distances start elsewhere than 0', () => {
    fc.assert(
      fc.property(randomRoad, fc.integer({ min: 1, max: 100_000 }), (profile, offset) => {
        const shifted = { ...profile, distanceM: profile.distanceM.map((d) => d + offset) };
        const a = findClimbs(profile).map((c) => [c.startIndex, c.endIndex]);
        const b = findClimbs(shifted).map((c) => [c.startIndex, c.endIndex]);
        expect(b).toEqual(a);
      }),
      { numRuns: 100 },
    );
  });
});

describe('smoothProfile', () => {
  it('keeps length, distances and endpoints, stays within the heights, and leaves a straight ramp as it is', () => {
    fc.assert(
      fc.property(randomRoad, fc.integer({ min: 0, max: 500 }), (profile, windowM) => {
        const smooth = smoothProfile(profile, windowM);
        expect(smooth.distanceM).toEqual(profile.distanceM);
        expect(smooth.elevationM).toHaveLength(profile.elevationM.length);
        expect(smooth.elevationM[0]).toBe(profile.elevationM[0]);
        expect(smooth.elevationM.at(-1)).toBe(profile.elevationM.at(-1));
        expect(Math.min(...smooth.elevationM)).toBeGreaterThanOrEqual(Math.min(...profile.elevationM) - 1e-9);
        expect(Math.max(...smooth.elevationM)).toBeLessThanOrEqual(Math.max(...profile.elevationM) + 1e-9);
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(
        fc.double({ min: -15, max: 15, noNaN: true }),
        spacing,
        fc.integer({ min: 0, max: 500 }),
        (grade, spacingM, windowM) => {
          const ramp = road([[3000, grade]], spacingM);
          const smooth = smoothProfile(ramp, windowM);
          const worst = Math.max(
            ...smooth.elevationM.map((h, i) => Math.abs(h - (ramp.elevationM[i] ?? NaN))),
          );
          expect(worst).toBeLessThan(1e-6);
        },
      ),
    );
  });

  it('flattens a spike to its share of the window', () => {
    const profile = { distanceM: [0, 100, 200, 300, 400], elevationM: [0, 0, 30, 0, 0] };
    const smooth = smoothProfile(profile, 200);
    // Mean of the triangle 0→30→0 (100 m each side) over the 200 m around its peak: 15 m.
    expect(smooth.elevationM[2]).toBeCloseTo(15, 9);
    expect(smoothProfile(profile, 0).elevationM).toEqual(profile.elevationM);
  });
});

describe('reverseProfile', () => {
  it('re-bases distances from the other end and reverses the heights; twice is the original', () => {
    fc.assert(
      fc.property(randomRoad, (profile) => {
        const reversed = reverseProfile(profile);
        expect(reversed.distanceM[0]).toBe(0);
        expect(reversed.distanceM.at(-1)).toBeCloseTo(
          (profile.distanceM.at(-1) ?? 0) - (profile.distanceM[0] ?? 0),
          6,
        );
        expect(reversed.elevationM).toEqual([...profile.elevationM].reverse());
        const back = reverseProfile(reversed);
        const first = profile.distanceM[0] ?? 0;
        const worst = Math.max(
          ...back.distanceM.map((d, i) => Math.abs(d - ((profile.distanceM[i] ?? NaN) - first))),
        );
        expect(worst).toBeLessThan(1e-6);
      }),
      { numRuns: 100 },
    );
  });
});

describe('bad input', () => {
  it('says what is wrong with a malformed profile or rule', () => {
    expect(() => findClimbs({ distanceM: [0, 10], elevationM: [1] })).toThrow(/one elevation per distance/);
    expect(() => findClimbs({ distanceM: [0, 10, 5], elevationM: [1, 2, 3] })).toThrow(/must not decrease/);
    expect(() => findClimbs({ distanceM: [0, Number.NaN], elevationM: [1, 2] })).toThrow(/finite/);
    expect(() =>
      findClimbs({ distanceM: [0, 10], elevationM: [1, 2] }, { ...CLIMB_RULE, smoothingM: -1 }),
    ).toThrow(/smoothingM/);
    expect(() => smoothProfile({ distanceM: [0], elevationM: [1] }, Number.POSITIVE_INFINITY)).toThrow(
      /window/,
    );
  });

  it('finds nothing in an empty or one-sample profile', () => {
    expect(findClimbs({ distanceM: [], elevationM: [] })).toEqual([]);
    expect(findClimbs({ distanceM: [0], elevationM: [100] })).toEqual([]);
  });
});
