import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EnsembleSample } from '../../src/core/ensemble-chance.ts';
import { DEFAULT_POWER_PARAMS } from '../../src/core/power-model.ts';
import { startGainChance, type StartChanceInput } from '../../src/core/route/route-chance.ts';
import type { RouteLeg } from '../../src/core/route/route-geometry.ts';
import { rideTimeS, stillAirSchedule } from '../../src/core/route/route-ride.ts';

/** 20 km due north then 10 km due east, flat. */
const legs: RouteLeg[] = [
  { fromKm: 0, lengthM: 20_000, bearingDeg: 0, gradePct: 0, mid: { lat: 45.09, lon: 6 } },
  { fromKm: 20, lengthM: 10_000, bearingDeg: 90, gradePct: 0, mid: { lat: 45.18, lon: 6.06 } },
];
const POWER = 200;
const schedule = stillAirSchedule(legs, POWER, DEFAULT_POWER_PARAMS);
const stillAirS = rideTimeS(legs, POWER, [0, 0], DEFAULT_POWER_PARAMS);

function input(members: readonly { speed: number; direction: number }[], hours = 4): StartChanceInput {
  const byHour = new Map<number, EnsembleSample>();
  for (let h = 0; h < hours; h++) {
    byHour.set(h * 3600, {
      time: h * 3600,
      speedKmh: members.map((m) => m.speed),
      directionDeg: members.map((m) => m.direction),
    });
  }
  return {
    legs,
    legSample: [0, 0],
    midS: schedule.midS,
    ensemble: [byHour],
    powerW: POWER,
    params: DEFAULT_POWER_PARAMS,
    stillAirS,
  };
}

describe('chance that a ride gains time against still air', () => {
  it('counts the members whose ride is faster, each riding its own wind', () => {
    // From the south-west: a push on both legs. From the north-east: against on both. From the east on
    // a 20 km north + 10 km east route: a pure headwind on the shorter leg only.
    const chance = startGainChance(
      input([
        { speed: 20, direction: 225 },
        { speed: 20, direction: 45 },
        { speed: 15, direction: 90 },
        { speed: 30, direction: 200 },
      ]),
      0,
    );
    expect(chance).toEqual({ reaching: 2, members: 4, chance: 0.5 });
  });

  it('equals the share of members with a shorter ride time, computed member by member', () => {
    const member = fc.record({
      speed: fc.integer({ min: 0, max: 60 }),
      direction: fc.integer({ min: 0, max: 359 }),
    });
    fc.assert(
      fc.property(fc.array(member, { minLength: 1, maxLength: 51 }), (members) => {
        const chance = startGainChance(input(members), 0);
        const faster = members.filter((m) => {
          const along = legs.map(
            (leg) => m.speed * Math.cos(((m.direction + 180 - leg.bearingDeg) * Math.PI) / 180),
          );
          return rideTimeS(legs, POWER, along, DEFAULT_POWER_PARAMS) < stillAirS;
        }).length;
        expect(chance?.reaching).toBe(faster);
        expect(chance?.members).toBe(members.length);
      }),
    );
  });

  it('gives no chance when the ride runs past the ensemble or a place has none', () => {
    // Start so the first leg is ridden in hour 0 and the second in hour 1, which the ensemble lacks.
    const start = 3600 - (schedule.midS[1] ?? 0) + 60;
    expect(Math.floor((start + (schedule.midS[0] ?? 0)) / 3600)).toBe(0);
    expect(startGainChance(input([{ speed: 20, direction: 180 }], 2), start)).not.toBeNull();
    expect(startGainChance(input([{ speed: 20, direction: 180 }], 1), start)).toBeNull();
    expect(startGainChance({ ...input([{ speed: 20, direction: 180 }]), ensemble: [null] }, 0)).toBeNull();
  });
});
