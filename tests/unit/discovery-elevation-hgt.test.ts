import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { DiscoveryError } from '../../src/data/discovery/discovery-error.ts';
import { HGT_VOID, hgtElevationSource, hgtTileName } from '../../src/data/discovery/hgt-elevation.ts';

const SEED = join(import.meta.dirname, '../../seed/dem');
const SIDE = 1201;

/** The posts of a seed tile, decoded here independently of the source (big-endian int16, rows north to south). */
function seedPosts(name: string): Int16Array {
  const [bytes] = Object.values(unzipSync(readFileSync(join(SEED, `${name}.hgt.zip`))));
  if (!bytes) throw new Error(`no .hgt in ${name}.hgt.zip`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Int16Array.from({ length: SIDE * SIDE }, (_, i) => view.getInt16(i * 2, false));
}

const andorra = seedPosts('N42E001');
const post = (row: number, col: number) => andorra[row * SIDE + col] ?? HGT_VOID;
/** The coordinate of a post of N42E001: row 0 is 43° N, column 0 is 1° E, 3″ apart. */
const postPoint = (row: number, col: number) => ({ lat: 43 - row / (SIDE - 1), lon: 1 + col / (SIDE - 1) });

/** How many of the four posts of the cell whose north-west post is (row, col) are void. */
function voidsOf(row: number, col: number): number {
  return [post(row, col), post(row, col + 1), post(row + 1, col), post(row + 1, col + 1)].filter(
    (h) => h === HGT_VOID,
  ).length;
}

/** The first `limit` cells of N42E001 (by north-west post) with all four posts void, or some. */
function cells(kind: 'void' | 'mixed', limit: number): { row: number; col: number }[] {
  const found: { row: number; col: number }[] = [];
  for (let row = 0; row < SIDE - 1 && found.length < limit; row++) {
    for (let col = 0; col < SIDE - 1 && found.length < limit; col++) {
      const voids = voidsOf(row, col);
      if (kind === 'void' ? voids === 4 : voids % 4 !== 0) found.push({ row, col });
    }
  }
  return found;
}

/** Cells with four valid posts, drawn at random over the whole tile (voids are under 1 % of it). */
const validCell = fc
  .record({ row: fc.integer({ min: 0, max: SIDE - 2 }), col: fc.integer({ min: 0, max: SIDE - 2 }) })
  .filter(({ row, col }) => voidsOf(row, col) === 0);

const scratch = mkdtempSync(join(tmpdir(), 'hgt-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes a synthetic tile whose post (row, col) is `height(row, col)`, big-endian. */
function writeTile(
  dir: string,
  file: string,
  side: number,
  height: (row: number, col: number) => number,
): void {
  const bytes = new Uint8Array(side * side * 2);
  const view = new DataView(bytes.buffer);
  for (let row = 0; row < side; row++) {
    for (let col = 0; col < side; col++) view.setInt16((row * side + col) * 2, height(row, col), false);
  }
  writeFileSync(join(dir, file), bytes);
}

describe('hgtTileName', () => {
  it('names the tile by its south-west corner, in all four hemispheres', () => {
    expect(hgtTileName({ lat: 42.5063, lon: 1.5218 })).toBe('N42E001');
    expect(hgtTileName({ lat: -28.2, lon: -71.3 })).toBe('S29W072');
    expect(hgtTileName({ lat: 0.5, lon: -0.5 })).toBe('N00W001');
    expect(hgtTileName({ lat: -0.5, lon: 179.9 })).toBe('S01E179');
    expect(hgtTileName({ lat: 43, lon: 7 })).toBe('N43E007');
  });
});

describe('hgtElevationSource on the seed tiles', () => {
  const source = hgtElevationSource(SEED);

  // Measured from the SRTM3 tiles with this source (3″ posts, about 90 m): SRTM smooths peaks, so
  // Coma Pedrosa reads 2,887 m at the point and its highest post nearby is 2,911 m, against the
  // surveyed 2,942 m; the tolerances below allow that and would still catch a swapped row order.
  it.each([
    { place: 'Andorra la Vella, in the Valira valley', lat: 42.5063, lon: 1.5218, min: 980, max: 1080 },
    { place: "Port d'Envalira, the road's top", lat: 42.54, lon: 1.722, min: 2340, max: 2440 },
    { place: 'Pic de Coma Pedrosa, the highest summit', lat: 42.591, lon: 1.444, min: 2850, max: 2950 },
    { place: 'Monaco, off Port Hercule', lat: 43.735, lon: 7.425, min: 0, max: 30 },
  ])('reads a height of $place between $min and $max m', async ({ lat, lon, min, max }) => {
    const [height] = await source.elevations([{ lat, lon }]);
    expect(height).toBeGreaterThanOrEqual(min);
    expect(height).toBeLessThanOrEqual(max);
  });

  it('answers several points across tiles in the order asked and names the resolution it read', async () => {
    const points = [
      { lat: 43.735, lon: 7.425 },
      { lat: 42.591, lon: 1.444 },
      { lat: 42.5063, lon: 1.5218 },
    ];
    const together = await source.elevations(points);
    const alone = await Promise.all(points.map(async (p) => (await source.elevations([p]))[0]));
    expect(together).toEqual(alone);
    expect(together[1]).toBeGreaterThan(together[2] ?? Infinity);
    expect(source.label).toBe('NASA SRTM 3″ tiles (public domain)');
  });

  it('answers an empty list with an empty list', async () => {
    await expect(source.elevations([])).resolves.toEqual([]);
  });

  it('equals the post exactly at a post, on the tile edges too', async () => {
    await fc.assert(
      fc.asyncProperty(validCell, async ({ row, col }) => {
        const [height] = await source.elevations([postPoint(row, col)]);
        expect(height).toBeCloseTo(post(row, col), 6);
      }),
    );
  });

  it('reads the northern and eastern edges from this tile when the neighbour is missing', async () => {
    const edges = [
      [0, 0],
      [0, 1200],
      [1200, 1200],
      [0, 600],
      [600, 1200],
    ] as const;
    for (const [row, col] of edges) expect(post(row, col)).not.toBe(HGT_VOID);
    const heights = await source.elevations(edges.map(([row, col]) => postPoint(row, col)));
    heights.forEach((height, i) => {
      const [row, col] = edges[i] ?? [0, 0];
      expect(height).toBeCloseTo(post(row, col), 6);
    });
  });

  it('lies between the lowest and highest of the four posts around a point', async () => {
    await fc.assert(
      fc.asyncProperty(
        validCell,
        // Inside the cell: on its edge the point may be read from the neighbouring cell, which is a post test.
        fc.double({ min: 0.001, max: 0.999, noNaN: true }),
        fc.double({ min: 0.001, max: 0.999, noNaN: true }),
        async ({ row, col }, fy, fx) => {
          const corner = postPoint(row, col);
          const point = { lat: corner.lat - fy / (SIDE - 1), lon: corner.lon + fx / (SIDE - 1) };
          const [height] = await source.elevations([point]);
          const posts = [post(row, col), post(row, col + 1), post(row + 1, col), post(row + 1, col + 1)];
          expect(height).toBeGreaterThanOrEqual(Math.min(...posts) - 1e-6);
          expect(height).toBeLessThanOrEqual(Math.max(...posts) + 1e-6);
        },
      ),
    );
  });

  it('fills a void post from the valid posts of its cell', async () => {
    const mixed = cells('mixed', 50);
    expect(mixed.length).toBeGreaterThan(0);
    for (const { row, col } of mixed) {
      const corner = postPoint(row, col);
      const [height] = await source.elevations([
        { lat: corner.lat - 0.5 / 1200, lon: corner.lon + 0.5 / 1200 },
      ]);
      const valid = [post(row, col), post(row, col + 1), post(row + 1, col), post(row + 1, col + 1)].filter(
        (h) => h !== HGT_VOID,
      );
      // At the cell's centre every post weighs the same, so the fill is the mean of the valid ones.
      expect(height).toBeCloseTo(valid.reduce((a, b) => a + b, 0) / valid.length, 6);
    }
  });

  it('refuses a point whose four posts are all void, in one sentence', async () => {
    const [cell] = cells('void', 1);
    if (!cell) throw new Error('the seed tile has no all-void cell');
    const corner = postPoint(cell.row, cell.col);
    const error = await source
      .elevations([{ lat: corner.lat - 0.5 / 1200, lon: corner.lon + 0.5 / 1200 }])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiscoveryError);
    expect(error).toMatchObject({
      failure: 'refused',
      message: expect.stringMatching(/^The elevation tile N42E001 has no height near .* \(void\)\.$/),
    });
  });

  it('refuses a point with no tile in the folder, naming the tile and the folder', async () => {
    await expect(
      source.elevations([
        { lat: 42.5, lon: 1.5 },
        { lat: 44.1, lon: 7.2 },
      ]),
    ).rejects.toMatchObject({
      name: 'DiscoveryError',
      failure: 'refused',
      message: `No elevation tile N44E007 in ${SEED}.`,
    });
  });

  it('refuses a point that is not on the globe', async () => {
    await expect(source.elevations([{ lat: Number.NaN, lon: 1.5 }])).rejects.toMatchObject({
      failure: 'refused',
    });
    await expect(source.elevations([{ lat: 91, lon: 1.5 }])).rejects.toMatchObject({ failure: 'refused' });
  });

  it('reports an aborted lookup as a time-out', async () => {
    await expect(source.elevations([{ lat: 42.5, lon: 1.5 }], AbortSignal.abort())).rejects.toMatchObject({
      failure: 'timeout',
    });
  });
});

describe('hgtElevationSource on synthetic tiles', () => {
  /** A height that differs at every post and is negative in places, like the Dead Sea shore. */
  const synthetic = (row: number, col: number) => ((row * 7919 + col * 104_729) % 6001) - 500;

  it('reads an unzipped SRTM1 tile in the southern and western hemispheres, rows north to south', async () => {
    const dir = mkdtempSync(join(scratch, 'srtm1-'));
    writeTile(dir, 'S29W072.hgt', 3601, synthetic);
    const source = hgtElevationSource(dir);
    // S29W072 spans 29° S to 28° S and 72° W to 71° W; row 0 is 28° S, column 0 is 72° W, 1″ apart.
    const heights = await source.elevations([
      { lat: -28 - 1 / 3600, lon: -72 },
      { lat: -29, lon: -71 - 1 / 3600 },
      { lat: -28.5, lon: -71.5 },
    ]);
    expect(heights[0]).toBeCloseTo(synthetic(1, 0), 6);
    expect(heights[1]).toBeCloseTo(synthetic(3600, 3599), 6);
    expect(heights[2]).toBeCloseTo(synthetic(1800, 1800), 6);
    expect(source.label).toBe('NASA SRTM 1″ tiles (public domain)');
  });

  it('names both resolutions when it has read both', async () => {
    const dir = mkdtempSync(join(scratch, 'mixed-'));
    writeTile(dir, 'N10E010.hgt', 3601, () => 10);
    writeTile(dir, 'N10E011.hgt', 1201, () => 20);
    const source = hgtElevationSource(dir);
    expect(source.label).toBe('NASA SRTM tiles (public domain)');
    await expect(
      source.elevations([
        { lat: 10.5, lon: 10.5 },
        { lat: 10.5, lon: 11.5 },
      ]),
    ).resolves.toEqual([10, 20]);
    expect(source.label).toBe('NASA SRTM 1″ and 3″ tiles (public domain)');
  });

  it('interpolates bilinearly inside a cell', async () => {
    const dir = mkdtempSync(join(scratch, 'plane-'));
    // Heights rise 1 m per post eastwards and 2 m per post southwards: a plane, which bilinear keeps exact.
    writeTile(dir, 'N00E000.hgt', 1201, (row, col) => col + 2 * row);
    const source = hgtElevationSource(dir);
    const [height] = await source.elevations([{ lat: 1 - 10.25 / 1200, lon: 20.5 / 1200 }]);
    expect(height).toBeCloseTo(20.5 + 2 * 10.25, 6);
  });

  it('fills a void post with zero weight from its valid neighbours', async () => {
    const dir = mkdtempSync(join(scratch, 'void-'));
    writeTile(dir, 'N01E001.hgt', 1201, (row, col) => (row === 600 && col === 600 ? HGT_VOID : 100 + col));
    const source = hgtElevationSource(dir);
    // 1.5° N 1.5° E is exactly the void post (row 600, column 600): its three neighbours in the cell all weigh 0.
    const [height] = await source.elevations([{ lat: 1.5, lon: 1.5 }]);
    expect(height).toBeCloseTo((701 + 700 + 701) / 3, 6);
  });

  it('calls a file of the wrong size malformed and a zip without a tile malformed', async () => {
    const dir = mkdtempSync(join(scratch, 'bad-'));
    writeFileSync(join(dir, 'N05E005.hgt'), new Uint8Array(1000));
    writeFileSync(join(dir, 'N06E006.hgt.zip'), zipSync({ 'readme.txt': new Uint8Array([104, 105]) }));
    writeFileSync(join(dir, 'N07E007.hgt.zip'), new Uint8Array([1, 2, 3]));
    const source = hgtElevationSource(dir);
    await expect(source.elevations([{ lat: 5.5, lon: 5.5 }])).rejects.toMatchObject({
      failure: 'malformed',
      message: `The elevation tile N05E005 in ${dir} has 1000 bytes, neither SRTM1 (3601²) nor SRTM3 (1201²).`,
    });
    await expect(source.elevations([{ lat: 6.5, lon: 6.5 }])).rejects.toMatchObject({ failure: 'malformed' });
    await expect(source.elevations([{ lat: 7.5, lon: 7.5 }])).rejects.toMatchObject({ failure: 'malformed' });
  });

  it('finds a tile added to the folder after a miss', async () => {
    const dir = mkdtempSync(join(scratch, 'late-'));
    const source = hgtElevationSource(dir);
    await expect(source.elevations([{ lat: 2.5, lon: 2.5 }])).rejects.toMatchObject({ failure: 'refused' });
    writeTile(dir, 'N02E002.hgt', 1201, () => 321);
    await expect(source.elevations([{ lat: 2.5, lon: 2.5 }])).resolves.toEqual([321]);
  });
});
