import { describe, expect, it } from 'vitest';
import { loadTownsIn } from '../../src/data/geocoding/gazetteer-towns.ts';

describe('the offline place list as settlements for discovery', () => {
  it('gives the towns inside a box, sized by their people, across the antimeridian too', async () => {
    const townsIn = await loadTownsIn();
    const andorra = townsIn({ south: 42.43, west: 1.42, north: 42.66, east: 1.79 });
    const pas = andorra.find((place) => place.name === 'Pas de la Casa');
    expect(pas).toMatchObject({ kind: 'town' });
    expect(andorra.find((place) => place.name === 'Andorra la Vella')?.kind).toBe('town');
    for (const place of andorra) {
      expect(place.lat).toBeGreaterThanOrEqual(42.43);
      expect(place.lon).toBeLessThanOrEqual(1.79);
    }
    // Chukotka straddles 180°: a box from 170° E to 170° W holds Anadyr and Provideniya.
    const chukotka = townsIn({ south: 50, west: 170, north: 70, east: -170 }).map((place) => place.name);
    expect(chukotka).toEqual(expect.arrayContaining(['Anadyr', 'Provideniya', 'Egvekinot']));
    expect(townsIn({ south: 0, west: -30, north: 1, east: -29 })).toEqual([]);
  });
});
