/**
 * The compact node index and the block plan against plain models: a `Map` of locations, and
 * the rule that every area with roads lies in exactly one block.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  areaKeyOf,
  areaNumber,
  blockFinder,
  planBlocks,
  startsIn,
  withMargin,
} from '../../src/data/discovery/build-blocks.ts';
import { NodeIdCollector, NodeLocations } from '../../src/data/discovery/node-index.ts';
import { inBBox } from '../../src/core/discovery/osm-selection.ts';

const id = fc.oneof(fc.integer({ min: 1, max: 2 ** 31 }), fc.integer({ min: 2 ** 32, max: 2 ** 45 }));
const lat = fc.double({ min: -89.9, max: 89.9, noNaN: true });
const lon = fc.double({ min: -180, max: 179.9999, noNaN: true });

describe('the node index', () => {
  it('finds what a Map finds, for ids beyond 2³², in any order, to 10⁻⁷ degrees', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(id, lat, lon), { maxLength: 300 }),
        fc.array(id, { maxLength: 50 }),
        fc.boolean(),
        (nodes, strangers, sorted) => {
          const collector = new NodeIdCollector();
          const wanted = new Map<number, [number, number]>();
          nodes.forEach(([i, a, o], k) => {
            collector.push(i);
            collector.push(i); // ways share nodes
            if (k % 3 !== 0) wanted.set(i, [a, o]);
          });
          const index = new NodeLocations(collector.sorted());
          expect(index.size).toBe(new Set(nodes.map(([i]) => i)).size);
          const feed = [...wanted].sort(([a], [b]) => (sorted ? a - b : b - a));
          for (const [i, [a, o]] of feed) index.set(i, a, o);
          for (const s of strangers) if (!nodes.some(([i]) => i === s)) index.set(s, 1, 1);
          expect(index.located).toBe(wanted.size);
          for (const [i] of nodes) {
            const at = index.indexOf(i);
            const expected = wanted.get(i);
            if (expected === undefined) expect(at).toBe(-1);
            else {
              expect(Math.abs(index.latAt(at) - expected[0])).toBeLessThanOrEqual(0.6e-7);
              expect(Math.abs(index.lonAt(at) - expected[1])).toBeLessThanOrEqual(0.6e-7);
            }
          }
        },
      ),
    );
  });

  it('collects past a page (4 M ids) without losing one', () => {
    const collector = new NodeIdCollector();
    const n = (1 << 22) + 5;
    for (let i = n; i > 0; i--) collector.push(i * 3);
    const ids = collector.sorted();
    expect(ids.length).toBe(n);
    expect([ids[0], ids[n - 1]]).toEqual([3, n * 3]);
  });
});

describe('the block plan', () => {
  const perArea = (points: [number, number, number][]) => {
    const map = new Map<number, number>();
    for (const [a, o, n] of points) map.set(areaNumber(a, o), (map.get(areaNumber(a, o)) ?? 0) + n);
    return map;
  };

  it('puts every area with roads in exactly one block, halving blocks over the node limit', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(lat, lon, fc.integer({ min: 1, max: 500 })), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 100, max: 3000 }),
        (points, maxNodes) => {
          const areas = perArea(points);
          const blocks = planBlocks(areas, { maxNodes });
          const keys = blocks.flatMap((b) => b.areaKeys);
          expect(new Set(keys).size).toBe(keys.length);
          expect(new Set(keys)).toEqual(new Set(points.map(([a, o]) => areaKeyOf({ lat: a, lon: o }))));
          for (const block of blocks) {
            const side = block.core.north - block.core.south;
            if (block.nodes > maxNodes) expect(side).toBe(0.25);
            for (const [a, o] of points) {
              if (block.areaKeys.includes(areaKeyOf({ lat: a, lon: o })))
                expect(startsIn({ lat: a, lon: o }, block.core)).toBe(true);
            }
          }
          // Every point is read by the block that owns it, and only by blocks whose read box holds it.
          const find = blockFinder(blocks, areas);
          const core0 = { south: 0, west: 0, north: 0, east: 0 };
          for (const [a, o] of points) {
            const readers = find(a, o);
            const owner = blocks.find((b) => startsIn({ lat: a, lon: o }, b.core));
            expect(owner && readers.includes(owner.index)).toBe(true);
            for (const r of readers) expect(inBBox(a, o, blocks[r]?.read ?? core0)).toBe(true);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('widens a block by at least the margin on the ground, across the antimeridian too', () => {
    const core = { south: 60, west: 179.5, north: 60.25, east: 179.75 };
    const read = withMargin(core, 30_000);
    expect(read.south).toBeCloseTo(60 - 30_000 / 111_195, 6);
    expect(read.west).toBeLessThan(179.5 - 30_000 / (111_195 * Math.cos((60 * Math.PI) / 180)) + 1e-9);
    expect(read.east).toBeLessThan(0); // wrapped past 180°
    expect(inBBox(60.1, -179.8, read)).toBe(true);
    expect(inBBox(60.1, -179.6, read)).toBe(false);
  });
});
