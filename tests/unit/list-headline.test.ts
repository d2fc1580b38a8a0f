import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listHeadline } from '../../src/service/answer-words.ts';

describe('the headline of a list of segments near a place', () => {
  it('counts the segments within the radius', () => {
    expect(
      listHeadline({ placeName: 'Girona, ES', radiusKm: 25, withinRadius: true, distancesKm: [3, 9.4] }),
    ).toBe('2 segments within 25 km of Girona, ES');
    expect(
      listHeadline({ placeName: 'Girona, ES', radiusKm: 25, withinRadius: true, distancesKm: [3] }),
    ).toBe('1 segment within 25 km of Girona, ES');
  });

  it('says first that none lies within the radius, and how far the nearest are', () => {
    expect(
      listHeadline({
        placeName: 'Girona, ES',
        radiusKm: 25,
        withinRadius: false,
        distancesKm: [109.4, 109.7, 112.4],
      }),
    ).toBe('No segment within 25 km of Girona, ES: the 3 nearest are 109–112 km away');
    expect(
      listHeadline({ placeName: 'Tokyo, JP', radiusKm: 25, withinRadius: false, distancesKm: [86.2] }),
    ).toBe('No segment within 25 km of Tokyo, JP: the nearest is 86 km away');
    expect(
      listHeadline({ placeName: 'Ushuaia, AR', radiusKm: 25, withinRadius: false, distancesKm: [] }),
    ).toBe('No segment within 25 km of Ushuaia, AR');
  });

  it('never calls segments beyond the radius "within" it, whatever their distances', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 25.01, max: 300, noNaN: true }), { maxLength: 3 }),
        (distances) => {
          const line = listHeadline({
            placeName: 'P',
            radiusKm: 25,
            withinRadius: false,
            distancesKm: distances,
          });
          expect(line.startsWith('No segment within 25 km of P')).toBe(true);
        },
      ),
    );
  });
});
