/**
 * A forecast hour set: one run of hours with an explicit name.
 *
 * What is derived from forecast hours (a segment's wind and best window, its
 * answer forms) is remembered by this name (`derived-results.ts`), never by
 * the array the hours came in: the forecast cache keeps its hours packed and
 * makes hour objects only while a caller holds them (decision 0019), so the
 * same hours may come in another array later, under the same name. The name
 * is built from what fixes the hours (the grid cell, when the entry was
 * fetched and issued, and the UTC hour the run starts at), so two cache
 * entries with the same content share it and a new fetch never does.
 */
import type { WindHour } from '../../core/wind-hour.ts';

/** The name of one run of forecast hours; see {@link hourSetId}. */
export type HourSetId = string & { readonly brand: 'HourSetId' };

/** Hours and their name; `id` is null for hours no cache named (a test's, a one-off series): nothing is remembered from them. */
export interface ForecastHourSet {
  readonly id: HourSetId | null;
  readonly hours: readonly WindHour[];
}

/** What fixes a cached cell's hours from one UTC hour on. */
export interface HourSetOrigin {
  /** The forecast grid cell's key (`forecastCell`). */
  readonly cellKey: string;
  /** Unix seconds: when the entry was fetched and when the source issued it. */
  readonly fetchedAt: number;
  readonly issuedAt: number;
  /** Unix seconds of the UTC hour the run starts at. */
  readonly fromHour: number;
}

/** "cell 901:130, fetched 1764…, issued 1764…, from 1764…" in a compact form: the hour set's name. */
export function hourSetId(origin: HourSetOrigin): HourSetId {
  return `${origin.cellKey}@${origin.fetchedAt}/${origin.issuedAt}+${origin.fromHour}` as HourSetId;
}

/** The name of the hours of `id` that fall in a window starting at `fromHour` (the hours judged from then). */
export function hourSetWithin(id: HourSetId, fromHour: number): HourSetId {
  return `${id}>${fromHour}` as HourSetId;
}
