/**
 * An offline build into the store (`segments:discover --osm … --into-store`) on each engine: a
 * build stopped halfway and started again ends with what an uninterrupted one writes, without
 * doing finished areas again; a newer build refreshes every area and keeps the ids of segments
 * whose ends did not move; an id another area holds is suffixed, not dropped; on-demand discovery
 * counts the built areas as mapped. The last cases hand the first build's areas to the store again
 * rather than discovering the extract again (`replay`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoveryPort } from '../../src/app/discovery.ts';
import { storeAreaSink } from '../../src/app/discovery-build.ts';
import { buildFromFile, type AreaSink, type BuiltArea } from '../../src/data/discovery/discover-files.ts';
import { loadCountryOf, type CountryOf } from '../../src/data/geocoding/nearest-country.ts';
import type { CurrentStore } from './contract-helpers.ts';

const ANDORRA = 'seed/osm/andorra.osm.pbf';
const NOW = 1_790_000_000;

export function describeDiscoveredBuild(current: CurrentStore): void {
  describe('discovered segments (an offline build into the store)', () => {
    let countryOf: CountryOf;
    const dir = mkdtempSync(join(tmpdir(), 'wos-build-store-'));
    let keys: string[] = [];
    beforeAll(async () => {
      countryOf = await loadCountryOf();
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const build = (sink: AreaSink) =>
      buildFromFile({
        osmFile: ANDORRA,
        demDir: 'seed/dem',
        sink,
        handTraced: [],
        countryOf: async () => countryOf,
        workers: 0,
        blockAreas: 1,
        tmpDir: dir,
      });

    /**
     * The areas of the first uninterrupted build, handed again to the sinks of the tests about the
     * store's side (refresh, suffixed ids): the extract's discovery is the same each time, and
     * running it again cost a few seconds of CPU per build on each engine.
     */
    const built: BuiltArea[] = [];
    async function replay(sink: AreaSink): Promise<void> {
      if (built.length === 0) throw new Error('no build to hand again: the first test did not run');
      const done = await sink.finished(built.map((area) => area.key));
      for (const area of built) if (!done.has(area.key)) await sink.area(structuredClone(area));
    }

    /** The build's rows, as a reader sees them (the write time aside, which the fixed clock sets). */
    async function content() {
      const { db } = current();
      const areas = await db
        .selectFrom('discovered_area')
        .select([
          'key',
          'status',
          'segment_count',
          'osm_timestamp',
          'osm_source',
          'elevation_source',
          'build',
        ])
        .where('key', 'in', keys)
        .orderBy('key')
        .execute();
      const segments = await db
        .selectFrom('discovered_segment')
        .select(['id', 'area_key', 'feature'])
        .where('area_key', 'in', keys)
        .orderBy('id')
        .execute();
      return { areas, segments };
    }

    async function clear() {
      const { db } = current();
      await db.deleteFrom('discovered_segment').where('area_key', 'in', keys).execute();
      await db.deleteFrom('discovered_area').where('key', 'in', keys).execute();
    }

    it('ends a stopped and restarted build with what an uninterrupted one writes, skipping finished areas', async () => {
      const first = storeAreaSink(current(), 'andorra#1', () => NOW);
      const whole = await build({
        finished: first.finished,
        area: async (area) => (built.push(structuredClone(area)), first.area(area)),
      });
      expect(whole.areas).toBeGreaterThan(2);
      keys = (
        await current()
          .db.selectFrom('discovered_area')
          .select('key')
          .where('build', '=', 'andorra#1')
          .execute()
      ).map((row) => row.key);
      expect(keys).toHaveLength(whole.areas);
      const uninterrupted = await content();
      expect(uninterrupted.segments.length).toBe(whole.segments);
      await clear();

      // Stopped while writing the third area: two are in, the third rolled back.
      const sink = storeAreaSink(current(), 'andorra#1', () => NOW);
      let writes = 0;
      await expect(
        build({
          finished: sink.finished,
          area: async (area) => {
            if (++writes === 3) throw new Error('killed');
            return sink.area(area);
          },
        }),
      ).rejects.toThrow('killed');
      expect((await content()).areas).toHaveLength(2);

      const written: string[] = [];
      const resumed = await build({
        finished: sink.finished,
        area: async (area) => {
          written.push(area.key);
          return sink.area(area);
        },
      });
      expect(resumed.skippedAreas).toBe(2);
      expect(written).toHaveLength(keys.length - 2);
      expect(await content()).toEqual(uninterrupted);
    });

    it('refreshes every area from a newer extract, keeping the ids of segments that did not move', async () => {
      // As if an older run had named them otherwise: the refresh must keep these ids, not the new names'.
      const { db } = current();
      for (const row of (await content()).segments) {
        const feature = JSON.parse(row.feature) as { properties: { id: string } };
        feature.properties.id = `${row.id}-was`;
        await db
          .updateTable('discovered_segment')
          .set({ id: `${row.id}-was`, feature: JSON.stringify(feature) })
          .where('id', '=', row.id)
          .execute();
      }
      const before = await content();
      const written: string[] = [];
      const sink = storeAreaSink(current(), 'andorra#2', () => NOW + 86_400);
      await replay({ finished: sink.finished, area: async (a) => (written.push(a.key), sink.area(a)) });
      expect(written.sort()).toEqual([...keys].sort());
      const after = await content();
      expect(after.areas.every((a) => a.build === 'andorra#2')).toBe(true);
      expect(after.segments.map((s) => s.id)).toEqual(before.segments.map((s) => s.id));
      expect(after.segments.every((s) => s.id.endsWith('-was'))).toBe(true);
    });

    it('suffixes an id another area already holds instead of dropping the segment', async () => {
      const { db } = current();
      await clear();
      await replay(storeAreaSink(current(), 'andorra#3', () => NOW));
      const [taken] = (await content()).segments;
      if (!taken) throw new Error('the build wrote no segment');
      // Another area (mapped on demand elsewhere) holds that id now.
      await db
        .updateTable('discovered_segment')
        .set({ area_key: 'a-elsewhere' })
        .where('id', '=', taken.id)
        .execute();
      await replay(storeAreaSink(current(), 'andorra#4', () => NOW));
      const ids = (await content()).segments.map((s) => s.id);
      expect(ids).not.toContain(taken.id);
      expect(ids.some((id) => id.startsWith(`${taken.id}-w`))).toBe(true);
      await db.deleteFrom('discovered_segment').where('area_key', '=', 'a-elsewhere').execute();
    });

    it('is counted as mapped by on-demand discovery, which never maps a built area again', async () => {
      const port = await discoveryPort(
        async () => current(),
        async () => undefined,
      )();
      const records = await port.areas(keys);
      expect(records).toHaveLength(keys.length);
      expect(records.every((r) => r.status === 'done' && r.prebuilt === true)).toBe(true);
      await clear();
    });
  });
}
