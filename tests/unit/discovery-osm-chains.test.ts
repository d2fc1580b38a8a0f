import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chainRoads } from '../../src/core/discovery/road-chains.ts';
import type { OsmExtract, OsmNode, OsmTags, OsmWay } from '../../src/core/discovery/osm-types.ts';

/** About 111 m per 0.001° of latitude; longitudes at 45° N give about 79 m per 0.001°. */
const STEP = 0.001;

function extractOf(
  coords: Record<number, [number, number]>,
  ways: [number, number[], OsmTags][],
): OsmExtract {
  const nodes = new Map<number, OsmNode>();
  for (const [id, [lat, lon]] of Object.entries(coords)) nodes.set(Number(id), { id: Number(id), lat, lon });
  return {
    bbox: { south: 44, west: 6, north: 46, east: 8 },
    nodes,
    ways: ways.map(([id, wayNodes, tags]) => ({ id, nodes: wayNodes, tags })),
    relations: [],
    timestamp: null,
  };
}

const road = (name: string, extra: OsmTags = {}): OsmTags => ({ highway: 'secondary', name, ...extra });

/** Nodes 1..n in a row along a parallel at 45° N, heading east. */
function row(n: number, lat = 45): Record<number, [number, number]> {
  return Object.fromEntries(Array.from({ length: n }, (_, k) => [k + 1, [lat, 7 + k * STEP]]));
}

describe('chainRoads on drawn roads', () => {
  it('joins two ways of one name sharing an end', () => {
    const chains = chainRoads(
      extractOf(row(5), [
        [10, [1, 2, 3], road('Route du Col')],
        [11, [3, 4, 5], road('Route du Col')],
      ]),
    );
    expect(chains).toHaveLength(1);
    expect(chains[0]?.nodeIds).toEqual([1, 2, 3, 4, 5]);
    expect(chains[0]?.wayIds).toEqual([10, 11]);
    expect(chains[0]?.key).toBe('Route du Col');
    expect(chains[0]?.ref).toBeNull();
  });

  it('turns a way drawn the other way round', () => {
    const chains = chainRoads(
      extractOf(row(5), [
        [10, [1, 2, 3], road('A')],
        [11, [5, 4, 3], road('A')],
      ]),
    );
    expect(chains).toHaveLength(1);
    expect(chains[0]?.nodeIds).toEqual([1, 2, 3, 4, 5]);
  });

  it('follows a ref across name changes and takes the commonest name', () => {
    const chains = chainRoads(
      extractOf(row(7), [
        [10, [1, 2, 3], { highway: 'primary', ref: 'CG-2' }],
        [11, [3, 4, 5], { highway: 'primary', ref: 'CG-2', name: "Port d'Envalira" }],
        [12, [5, 6, 7], { highway: 'primary', ref: 'CG-2', name: "Port d'Envalira" }],
      ]),
    );
    expect(chains).toHaveLength(1);
    expect(chains[0]).toMatchObject({
      key: 'CG-2',
      ref: 'CG-2',
      name: "Port d'Envalira",
      wayIds: [10, 11, 12],
    });
  });

  it('does not join different names', () => {
    const chains = chainRoads(
      extractOf(row(5), [
        [10, [1, 2, 3], road('A')],
        [11, [3, 4, 5], road('B')],
      ]),
    );
    expect(chains.map((chain) => chain.key)).toEqual(['A', 'B']);
  });

  it('continues straight through a T junction; the branch is its own chain', () => {
    // West arm 1-2-3, east arm 3-4-5, branch south 3-6-7; the branch has the lowest id.
    const coords = { ...row(5), 6: [45 - STEP, 7 + 2 * STEP], 7: [45 - 2 * STEP, 7 + 2 * STEP] } as Record<
      number,
      [number, number]
    >;
    const chains = chainRoads(
      extractOf(coords, [
        [5, [3, 6, 7], road('A')],
        [10, [1, 2, 3], road('A')],
        [11, [3, 4, 5], road('A')],
      ]),
    );
    expect(chains).toHaveLength(2);
    const through = chains.find((chain) => chain.wayIds.length === 2);
    expect(through?.wayIds.toSorted()).toEqual([10, 11]);
    expect(chains.find((chain) => chain.wayIds.length === 1)?.wayIds).toEqual([5]);
  });

  it('ends at a roundabout and never loops round it', () => {
    const coords = {
      ...row(3),
      4: [45 + STEP, 7 + 3 * STEP],
      5: [45, 7 + 4 * STEP],
      6: [45 - STEP, 7 + 3 * STEP],
      7: [45, 7 + 5 * STEP],
      8: [45, 7 + 6 * STEP],
    } as Record<number, [number, number]>;
    const chains = chainRoads(
      extractOf(coords, [
        [10, [1, 2, 3], road('A')],
        [11, [3, 4, 5, 6, 3], road('A', { junction: 'roundabout' })],
        [12, [5, 7, 8], road('A')],
      ]),
    );
    expect(chains.map((chain) => chain.wayIds)).toEqual([[10], [12]]);
  });

  it('cuts a ring of ways of one name instead of looping', () => {
    const coords = { 1: [45, 7], 2: [45, 7 + STEP], 3: [45 + STEP, 7 + STEP], 4: [45 + STEP, 7] } as Record<
      number,
      [number, number]
    >;
    const chains = chainRoads(
      extractOf(coords, [
        [10, [1, 2], road('A')],
        [11, [2, 3], road('A')],
        [12, [3, 4], road('A')],
        [13, [4, 1], road('A')],
      ]),
    );
    for (const chain of chains) expect(new Set(chain.nodeIds).size).toBe(chain.nodeIds.length);
    expect(chains.flatMap((chain) => chain.wayIds).toSorted()).toEqual([10, 11, 12, 13]);
  });

  it('does not join across a 2 km gap, and skips a way with a node missing', () => {
    const coords = { ...row(3), 4: [45, 7 + 2 * STEP + 0.026], 5: [45, 7 + 2 * STEP + 0.027] } as Record<
      number,
      [number, number]
    >;
    const gap = chainRoads(
      extractOf(coords, [
        [10, [1, 2, 3], road('A')],
        [11, [3, 4, 5], road('A')],
      ]),
    );
    expect(gap.map((chain) => chain.wayIds)).toEqual([[10]]);
    const missing = chainRoads(
      extractOf(row(3), [
        [10, [1, 2], road('A')],
        [11, [2, 3, 99], road('A')],
      ]),
    );
    expect(missing.map((chain) => chain.wayIds)).toEqual([[10]]);
  });

  it('cuts a chain that would cross itself', () => {
    // 1→2→3 east, then the next way turns back north and west across the first segment.
    const coords = {
      1: [45, 7],
      2: [45, 7 + 2 * STEP],
      3: [45 + STEP, 7 + 2 * STEP],
      4: [45 + STEP, 7 + STEP],
      5: [45 - STEP, 7 + STEP],
    } as Record<number, [number, number]>;
    const chains = chainRoads(
      extractOf(coords, [
        [10, [1, 2, 3], road('A')],
        [11, [3, 4, 5], road('A')],
      ]),
    );
    expect(chains.map((chain) => chain.wayIds)).toEqual([[10], [11]]);
  });

  it('skips unnamed, unnumbered and unrideable ways', () => {
    const chains = chainRoads(
      extractOf(row(5), [
        [10, [1, 2], { highway: 'secondary' }],
        [11, [2, 3], { highway: 'secondary', ref: 'FIXME' }],
        [12, [3, 4], { highway: 'motorway', ref: 'A8' }],
        [13, [4, 5], { highway: 'tertiary', name: 'Chemin', surface: 'gravel' }],
      ]),
    );
    expect(chains).toEqual([]);
  });
});

describe('chainRoads on generated grids', () => {
  /** Ways along a small street grid, with few names so many share ends; some reversed. */
  const grid = fc
    .array(
      fc.record({
        from: fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 })),
        moves: fc.array(fc.constantFrom([0, 1], [1, 0], [0, -1], [-1, 0]), { minLength: 1, maxLength: 5 }),
        name: fc.constantFrom('A', 'B', 'C'),
      }),
      { minLength: 1, maxLength: 25 },
    )
    .map((specs) => {
      const coords: Record<number, [number, number]> = {};
      const ways: [number, number[], OsmTags][] = [];
      specs.forEach((spec, index) => {
        let [x, y] = spec.from;
        const ids = [x * 10 + y + 1];
        for (const [dx, dy] of spec.moves) {
          x = Math.min(4, Math.max(0, x + dx));
          y = Math.min(4, Math.max(0, y + dy));
          ids.push(x * 10 + y + 1);
        }
        ways.push([100 + index, ids, road(spec.name)]);
      });
      for (let x = 0; x <= 4; x++)
        for (let y = 0; y <= 4; y++) coords[x * 10 + y + 1] = [45 + y * STEP, 7 + x * STEP];
      return extractOf(coords, ways);
    });

  it('uses each way once, only in its own nodes, with neighbours adjacent in some way', () => {
    fc.assert(
      fc.property(grid, (extract) => {
        const chains = chainRoads(extract);
        const byId = new Map<number, OsmWay>(extract.ways.map((way) => [way.id, way]));
        const adjacent = new Set<string>();
        for (const way of extract.ways) {
          way.nodes.forEach((id, k) => {
            const next = way.nodes[k + 1];
            if (next !== undefined) adjacent.add(`${id}-${next}`).add(`${next}-${id}`);
          });
        }
        const used = chains.flatMap((chain) => chain.wayIds);
        expect(new Set(used).size).toBe(used.length);
        for (const chain of chains) {
          const own = new Set(chain.wayIds.flatMap((id) => byId.get(id)?.nodes ?? []));
          expect(new Set(chain.nodeIds).size).toBe(chain.nodeIds.length);
          chain.nodeIds.forEach((id, k) => {
            expect(own.has(id)).toBe(true);
            const next = chain.nodeIds[k + 1];
            if (next !== undefined) expect(adjacent.has(`${id}-${next}`)).toBe(true);
          });
          for (const id of chain.wayIds) expect(byId.get(id)?.tags.name).toBe(chain.key);
        }
      }),
    );
  });

  it('gives the same chains whatever the order of the ways', () => {
    fc.assert(
      fc.property(grid, fc.integer(), (extract, seed) => {
        const shuffled = [...extract.ways].sort(
          (a, b) => ((a.id * 7919 + seed) % 101) - ((b.id * 7919 + seed) % 101),
        );
        expect(chainRoads({ ...extract, ways: shuffled })).toEqual(chainRoads(extract));
      }),
    );
  });
});
