import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OsmExtract, OsmNode, OsmTags } from '../../src/core/discovery/osm-types.ts';
import { buildRoadGraph, type RoadGraph } from '../../src/core/discovery/road-graph.ts';
import {
  buildStrokes,
  edgeOfStep,
  endOf,
  isAllowed,
  isForward,
  startOf,
  type Stroke,
} from '../../src/core/discovery/road-strokes.ts';

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

const road = (tags: OsmTags): OsmTags => ({ highway: 'secondary', ...tags });

/** Nodes `first`.. along a parallel at `lat`, heading east from `lon`. */
function row(first: number, n: number, lat = 45, lon = 7): Record<number, [number, number]> {
  return Object.fromEntries(Array.from({ length: n }, (_, k) => [first + k, [lat, lon + k * STEP]]));
}

/** The ways each stroke runs along, in riding order, each once. */
function waysOf(graph: RoadGraph, stroke: Stroke): number[] {
  const ways = stroke.steps.map((step) => graph.edges[edgeOfStep(step)]?.wayId ?? -1);
  return ways.filter((way, k) => way !== ways[k - 1]);
}

function strokesOf(extract: OsmExtract): { graph: RoadGraph; ways: number[][] } {
  const graph = buildRoadGraph(extract);
  return { graph, ways: buildStrokes(graph).map((stroke) => waysOf(graph, stroke)) };
}

describe('the road graph and the roads a rider follows through it', () => {
  it('follows one road across its ways, either way round, in both directions', () => {
    const { ways } = strokesOf(
      extractOf(row(1, 5), [
        [10, [1, 2, 3], road({ name: 'Carretera A' })],
        [11, [5, 4, 3], road({ name: 'Carretera A' })],
      ]),
    );
    expect(ways).toContainEqual([10, 11]);
    expect(ways).toContainEqual([11, 10]);
    expect(ways).toHaveLength(2);
  });

  it('goes on through a change of number and name at a parish line, straight on', () => {
    const { ways } = strokesOf(
      extractOf(row(1, 5), [
        [10, [1, 2, 3], road({ ref: 'CG-1', name: 'Avinguda A' })],
        [11, [3, 4, 5], road({ ref: 'CG-2' })],
      ]),
    );
    expect(ways).toContainEqual([10, 11]);
  });

  it('continues the through road at a T junction; the branch is a road of its own', () => {
    const { ways } = strokesOf(
      extractOf({ ...row(1, 5), 6: [45 + STEP, 7 + 2 * STEP], 7: [45 + 2 * STEP, 7 + 2 * STEP] }, [
        [10, [1, 2, 3], road({ ref: 'CS-1' })],
        [11, [3, 4, 5], road({ ref: 'CS-1' })],
        [12, [3, 6, 7], road({ ref: 'CS-9' })],
      ]),
    );
    expect(ways).toContainEqual([10, 11]);
    expect(ways).toContainEqual([12]);
  });

  it('goes straight through a small roundabout, contracted into one junction', () => {
    // A ring of four nodes 20 m from its middle at (45, 7.003); roads come in from the west and east.
    const d = 0.00018;
    const graph = buildRoadGraph(
      extractOf(
        {
          ...row(1, 3),
          20: [45, 7.003 - d],
          21: [45 + d, 7.003],
          22: [45, 7.003 + d],
          23: [45 - d, 7.003],
          ...row(30, 3, 45, 7.003 + d + STEP),
        },
        [
          [10, [1, 2, 3, 20], road({ ref: 'N1' })],
          [11, [20, 21, 22, 23, 20], { highway: 'secondary', junction: 'roundabout' }],
          [12, [22, 30, 31, 32], road({ ref: 'N1' })],
        ],
      ),
    );
    const ways = buildStrokes(graph).map((stroke) => waysOf(graph, stroke));
    expect(ways).toContainEqual([10, 12]);
    expect(graph.edges.some((edge) => edge.wayId === 11)).toBe(false);
    // The ring is ridden across on its own pieces: the contracted junction keeps them.
    expect([...graph.inner.values()].flat().length).toBeGreaterThan(0);
  });

  it('bridges a gap of a few metres in the drawing of one road, but not a 2 km gap or a missing node', () => {
    const joined = strokesOf(
      extractOf({ ...row(1, 3), ...row(4, 3, 45, 7 + 2 * STEP + 0.0004) }, [
        [10, [1, 2, 3], road({ ref: 'CG-2' })],
        [11, [4, 5, 6], road({ ref: 'CG-2' })],
      ]),
    );
    expect(joined.ways).toContainEqual([10, 11]);
    const apart = strokesOf(
      extractOf({ ...row(1, 3), ...row(4, 3, 45, 7.03) }, [
        [10, [1, 2, 3], road({ ref: 'CG-2' })],
        [11, [4, 5, 6], road({ ref: 'CG-2' })],
      ]),
    );
    expect(apart.ways).not.toContainEqual([10, 11]);
    const missing = buildRoadGraph(extractOf(row(1, 3), [[10, [1, 2, 99], road({ ref: 'X' })]]));
    expect(missing.edges).toEqual([]);
  });

  it('rides a split carriageway on the one-way of its direction', () => {
    // A two-way road from the west splits into two one-ways 30 m apart that meet again in the east.
    const gap = 0.00027;
    const graph = buildRoadGraph(
      extractOf(
        {
          ...row(1, 3),
          4: [45 + gap, 7 + 3 * STEP],
          5: [45 + gap, 7 + 4 * STEP],
          6: [45 - gap, 7 + 3 * STEP],
          7: [45 - gap, 7 + 4 * STEP],
          ...row(8, 3, 45, 7 + 5 * STEP),
        },
        [
          [10, [1, 2, 3], road({ ref: 'CG-2' })],
          [11, [3, 4, 5, 8], road({ ref: 'CG-2', oneway: 'yes' })],
          [12, [8, 7, 6, 3], road({ ref: 'CG-2', oneway: 'yes' })],
          [13, [8, 9, 10], road({ ref: 'CG-2' })],
        ],
      ),
    );
    const ways = buildStrokes(graph).map((stroke) => waysOf(graph, stroke));
    expect(ways).toContainEqual([10, 11, 13]);
    expect(ways).toContainEqual([13, 12, 10]);
    for (const stroke of buildStrokes(graph))
      for (const step of stroke.steps) expect(isAllowed(graph, step)).toBe(true);
  });

  it('keeps a short tunnel, marked, and leaves out one a bicycle should not ride', () => {
    const short = buildRoadGraph(
      extractOf(row(1, 4), [
        [10, [1, 2], road({ ref: 'CG-3' })],
        [11, [2, 3], road({ ref: 'CG-3', tunnel: 'yes' })],
        [12, [3, 4], road({ ref: 'CG-3' })],
      ]),
    );
    expect(short.edges.find((edge) => edge.wayId === 11)?.tunnel).toBe(true);
    const long = buildRoadGraph(
      extractOf({ 1: [45, 7], 2: [45, 7.013] }, [[11, [1, 2], road({ ref: 'CG-3', tunnel: 'yes' })]]),
    );
    expect(long.edges).toEqual([]);
  });

  it('follows an unnamed link of a main road, and a smaller road only nearly straight on', () => {
    const link = strokesOf(
      extractOf(row(1, 5), [
        [10, [1, 2, 3], road({ ref: 'CG-2', highway: 'primary' })],
        [11, [3, 4, 5], { highway: 'primary_link' }],
      ]),
    );
    expect(link.ways).toContainEqual([10, 11]);
    const lane = strokesOf(
      extractOf({ ...row(1, 3), 4: [45 + STEP, 7 + 3 * STEP], 5: [45 + 2 * STEP, 7 + 4 * STEP] }, [
        [10, [1, 2, 3], road({ ref: 'CG-2', highway: 'primary' })],
        [11, [3, 4, 5], { highway: 'residential', name: 'Carrer B' }],
      ]),
    );
    // A 45° turn onto a street is no way on for the main road.
    expect(lane.ways).not.toContainEqual([10, 11]);
  });
});

describe('strokes on generated street grids', () => {
  /** Ways along a small street grid, few names and classes, some one-way, some reversed. */
  const grid = fc
    .array(
      fc.record({
        from: fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 })),
        moves: fc.array(fc.constantFrom([0, 1], [1, 0], [0, -1], [-1, 0]), { minLength: 1, maxLength: 5 }),
        name: fc.constantFrom('A', 'B', 'C'),
        highway: fc.constantFrom('secondary', 'residential', 'primary_link'),
        oneway: fc.boolean(),
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
        const tags: OsmTags = {
          highway: spec.highway,
          name: spec.name,
          ...(spec.oneway ? { oneway: 'yes' } : {}),
        };
        ways.push([100 + index, ids, tags]);
      });
      for (let x = 0; x <= 4; x++)
        for (let y = 0; y <= 4; y++) coords[x * 10 + y + 1] = [45 + y * STEP, 7 + x * STEP];
      return extractOf(coords, ways);
    });

  it('puts every allowed step on exactly one stroke, joined end to end, never visiting a junction twice', () => {
    fc.assert(
      fc.property(grid, (extract) => {
        const graph = buildRoadGraph(extract);
        const strokes = buildStrokes(graph);
        const steps = strokes.flatMap((stroke) => stroke.steps);
        expect(new Set(steps).size).toBe(steps.length);
        const allowed = graph.edges.flatMap((edge) =>
          [edge.index * 2, edge.index * 2 + 1].filter((step) => isAllowed(graph, step)),
        );
        expect([...steps].sort((a, b) => a - b)).toEqual(allowed);
        for (const stroke of strokes) {
          const junctions = [
            startOf(graph, stroke.steps[0] as number),
            ...stroke.steps.map((s) => endOf(graph, s)),
          ];
          expect(new Set(junctions).size).toBe(junctions.length);
          stroke.steps.forEach((step, k) => {
            const next = stroke.steps[k + 1];
            if (next !== undefined) expect(startOf(graph, next)).toBe(endOf(graph, step));
            const edge = graph.edges[edgeOfStep(step)];
            expect(isForward(step) ? edge?.forward : edge?.backward).toBe(true);
          });
        }
      }),
    );
  });

  it('gives the same strokes whatever the order of the ways', () => {
    fc.assert(
      fc.property(grid, fc.integer(), (extract, seed) => {
        const shuffled = [...extract.ways].sort(
          (a, b) => ((a.id * 7919 + seed) % 101) - ((b.id * 7919 + seed) % 101),
        );
        expect(buildStrokes(buildRoadGraph({ ...extract, ways: shuffled }))).toEqual(
          buildStrokes(buildRoadGraph(extract)),
        );
      }),
    );
  });
});
