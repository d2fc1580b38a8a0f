import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { routeShape } from '../../core/route/route-loop.ts';
import { formatFeatureCollection, parseSegmentCollection, segmentToFeature } from './geojson.ts';
import { parseGpx, summarizeTrack } from './gpx-track.ts';
import { loadEmbeddedSegments, SEGMENTS_FILE_ENV } from './load.ts';
import { slugify } from './slug.ts';
import { writePackedCatalog } from './pack.ts';
import { indexPathFor } from './pack-file.ts';
import type { Segment } from './types.ts';

/** Where imports go unless `--out` says otherwise; the operator then sets `WOS_SEGMENTS_FILE` to it. */
export const DEFAULT_IMPORT_FILE = 'segments.local.geojson';

/** We cannot know the licence of an operator's file, so we say so rather than guess. */
export const DEFAULT_IMPORT_LICENSE = 'Operator-supplied; licence not stated';

export interface ImportOptions {
  /** Catalog file to create or extend. */
  readonly out: string;
  /** GPX only: the id, name, ISO country code and popularity rank of the new segment. */
  readonly id?: string | undefined;
  readonly name?: string | undefined;
  readonly country?: string | undefined;
  readonly rank?: number | undefined;
  readonly license?: string | undefined;
  /**
   * A new catalog file holds only what is imported, replacing the built-in
   * catalog when served; by default it starts as a copy of the built-in one,
   * so what is imported extends it. An existing file is extended either way.
   */
  readonly replace?: boolean | undefined;
  /** The import date written into `source`; tests pin it. */
  readonly now?: Date | undefined;
}

export interface ImportReport {
  readonly outPath: string;
  /** The packed index written next to `outPath`: the file the server should be given. */
  readonly indexPath: string;
  readonly created: boolean;
  /** Built-in segments the new file started with (0 with `replace`, or when the file existed). */
  readonly builtIn: number;
  readonly added: readonly Segment[];
  /** Segments in the file after the import. */
  readonly total: number;
}

function fail(message: string): never {
  throw new Error(message);
}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    return fail(`Cannot read ${what} ${path}: ${(error as Error).message}`);
  }
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    return fail(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

function validate(json: unknown, label: string): Segment[] {
  return parseSegmentCollection(json, `Invalid ${label}`);
}

function fromGpx(
  text: string,
  fileName: string,
  source: string,
  license: string,
  options: ImportOptions,
  nextRank: number,
): Segment[] {
  const country =
    options.country?.trim().toUpperCase() ??
    fail('A GPX import needs --country XX (ISO 3166-1 alpha-2, e.g. FR)');
  const track = parseGpx(text);
  const summary = summarizeTrack(track.points);
  const name = options.name?.trim() || track.name || basename(fileName, extname(fileName));
  const id = options.id?.trim() || slugify(country, name);
  const aliases = track.name !== undefined && track.name !== name ? [track.name] : [];
  const segment: Segment = {
    id,
    name,
    aliases,
    countryCode: country,
    polyline: summary.polyline,
    distanceM: summary.distanceM,
    averageGradePct: summary.averageGradePct,
    elevationGainM: summary.elevationGainM,
    popularityRank: options.rank ?? nextRank,
    source,
    license,
  };
  return validate(formatAsCollection([segmentToFeature(segment)]), `segment made from ${fileName}`);
}

function formatAsCollection(features: readonly unknown[]): unknown {
  return { type: 'FeatureCollection', features };
}

/** GeoJSON features may omit `source` and `license`; the import fills them in, keeping any given. */
function fromGeoJson(
  text: string,
  path: string,
  source: string,
  license: string,
  options: ImportOptions,
): Segment[] {
  const flags = (['id', 'name', 'country', 'rank'] as const).filter((flag) => options[flag] !== undefined);
  if (flags.length > 0)
    fail(`--${flags.join(', --')} only apply to a GPX import; set them in the GeoJSON file`);
  const json = parseJson(text, path) as { features?: unknown };
  if (Array.isArray(json?.features)) {
    json.features = json.features.map((feature: unknown) => {
      const f = feature as { properties?: unknown } | null;
      if (typeof f !== 'object' || f === null || typeof f.properties !== 'object' || f.properties === null)
        return feature;
      return { ...f, properties: { source, license, ...f.properties } };
    });
  }
  return validate(json, path);
}

/**
 * Converts a GPX file (one segment) or validates a GeoJSON catalog, and
 * appends the result to the operator's catalog file. Nothing is written if
 * any id is already taken or any entry is invalid, so a failed import never
 * leaves a half-merged file; the write goes through a temporary file and a
 * rename for the same reason. The merged catalog is then packed into the
 * index the server loads (`indexPathFor`), so validation happens here once
 * and never at start-up. The file is rewritten in the catalog's own
 * layout (extra properties and third coordinates are not kept).
 */
export function importSegmentFile(inputPath: string, options: ImportOptions): ImportReport {
  const input = resolve(inputPath);
  const outPath = resolve(options.out);
  const fileName = basename(input);
  const date = (options.now ?? new Date()).toISOString().slice(0, 10);
  const source = `Imported by the operator from ${fileName} on ${date}`;
  const license = options.license?.trim() || DEFAULT_IMPORT_LICENSE;

  const created = !existsSync(outPath);
  // A new file starts from the built-in catalog (so the import extends it) unless told to replace it.
  const builtIn = created && options.replace !== true ? loadEmbeddedSegments() : [];
  const existing = created
    ? [...builtIn]
    : validate(parseJson(readText(outPath, 'catalog'), outPath), `existing catalog ${outPath}`);
  const nextRank = existing.reduce((max, s) => Math.max(max, s.popularityRank), 0) + 1;

  const extension = extname(input).toLowerCase();
  const isGpx = extension === '.gpx';
  if (!isGpx && extension !== '.geojson' && extension !== '.json') {
    fail(`Cannot import ${fileName}: expected a .gpx, .geojson or .json file`);
  }
  const text = readText(input, 'input');
  const added = isGpx
    ? fromGpx(text, fileName, source, license, options, nextRank)
    : fromGeoJson(text, input, source, license, options);

  // A loop or out-and-back has no one direction: as a segment its tailwind alert could never fire.
  const closed = added.filter((s) => routeShape(s.polyline).shape !== 'point_to_point').map((s) => s.id);
  if (closed.length > 0) {
    fail(
      `Not imported: ${closed.map((id) => `"${id}"`).join(', ')} ends where it starts (a loop or an ` +
        'out-and-back), so its tailwind comes to about 0 in any wind and an alert on it could never fire; ' +
        'import a climb or one-way stretch of it instead (riders judge whole loops with get_route_wind)',
    );
  }
  const taken = new Set(existing.map((s) => s.id));
  const clashes = added.filter((s) => taken.has(s.id)).map((s) => s.id);
  if (clashes.length > 0) {
    fail(
      `Not imported: id ${clashes.map((id) => `"${id}"`).join(', ')} already in ${outPath}; choose another id (--id for GPX)`,
    );
  }
  const merged = [...existing, ...added];
  const features = merged.map(segmentToFeature);
  validate(formatAsCollection(features), `merged catalog ${outPath}`);
  const temporary = `${outPath}.${process.pid}.tmp`;
  writeFileSync(temporary, formatFeatureCollection(features));
  renameSync(temporary, outPath);
  // Validated just above, so the index skips a second check.
  const indexPath = indexPathFor(outPath);
  writePackedCatalog(indexPath, merged, { validate: false });
  return { outPath, indexPath, created, builtIn: builtIn.length, added, total: merged.length };
}

/** What the import command prints, so the operator sees each figure and the next step. */
export function describeImport(report: ImportReport): string {
  const lines = report.added.map(
    (s) =>
      `  + ${s.id}: ${s.name} (${s.countryCode}), ${(s.distanceM / 1000).toFixed(1)} km, ${s.averageGradePct} %, ` +
      `${s.elevationGainM} m climbing, ${s.polyline.length} points, rank ${s.popularityRank}`,
  );
  const what = !report.created
    ? 'extends the catalog already in it'
    : report.builtIn > 0
      ? `extends the built-in catalog (its ${report.builtIn} segments are in the file)`
      : 'replaces the built-in catalog (--replace: only what is imported is served)';
  return [
    `${report.created ? 'Created' : 'Updated'} ${report.outPath}: added ${report.added.length} segment(s), ${report.total} in the file; it ${what}.`,
    ...lines,
    `Packed index: ${report.indexPath} (after editing the catalog by hand: npm run segments:import -- --pack ${report.outPath})`,
    `Serve it with: ${SEGMENTS_FILE_ENV}=${report.indexPath} npm start`,
  ].join('\n');
}
