/**
 * One real call of every MCP tool, for the tests that must reach each tool
 * whatever client drives it (the schema-dialect test, the client matrix).
 * The calls run in this order so each finds what it needs: a segment is
 * watched before the watchlist, the windows and the threshold are read or
 * changed, and a second one is unwatched at the end.
 */
export interface ToolCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

const ALPE = 'fr-alpe-d-huez';
const KWAREMONT = 'be-oude-kwaremont';

/** Public tools first, then the rider tools in an order that leaves every answer non-trivial. */
export const TOOL_CALLS: readonly ToolCall[] = [
  { name: 'find_tailwind_segments', arguments: { place: "Bourg-d'Oisans" } },
  { name: 'find_tailwind_segments', arguments: { latitude: -33.92, longitude: 18.42, radius_m: 50_000 } },
  { name: 'get_segment', arguments: { segment_id: ALPE } },
  { name: 'get_segment', arguments: { segment_id: KWAREMONT, include_timeline: true } },
  {
    name: 'get_route_wind',
    arguments: {
      points: [
        { latitude: 45.0556, longitude: 6.0306, elevation_m: 720 },
        { latitude: 45.0672, longitude: 6.0447, elevation_m: 1010 },
        { latitude: 45.0921, longitude: 6.0703, elevation_m: 1850 },
      ],
      speed_kmh: 22,
    },
  },
  { name: 'watch_segment', arguments: { segment_id: ALPE, record_s: 2520 } },
  { name: 'watch_segment', arguments: { segment_id: KWAREMONT } },
  { name: 'set_alert_threshold', arguments: { segment_id: ALPE, threshold_kmh: 12.5 } },
  {
    name: 'add_my_segment',
    arguments: {
      name: 'Home climb',
      points: [
        { latitude: 45.05, longitude: 6.03, elevation_m: 720 },
        { latitude: 45.055, longitude: 6.04, elevation_m: 790 },
        { latitude: 45.06, longitude: 6.035, elevation_m: 860 },
      ],
      record_s: 600,
    },
  },
  { name: 'get_my_watchlist', arguments: {} },
  { name: 'get_my_tailwind_windows', arguments: { include_timeline: true } },
  { name: 'unwatch_segment', arguments: { segment_id: KWAREMONT } },
  { name: 'remove_my_segment', arguments: { segment_id: 'my--aaaaaaaaaaaaaaaaaaaa' } },
];

/**
 * The calls for the tools a server lists, in order; fails when it lists a
 * tool this file has no call for, so a new tool cannot slip past the tests
 * that iterate over them.
 */
export function callsFor(listed: readonly string[]): ToolCall[] {
  const known = new Set(TOOL_CALLS.map((call) => call.name));
  const missing = listed.filter((name) => !known.has(name));
  if (missing.length > 0)
    throw new Error(`add a call to tests/support/tool-calls.ts for: ${missing.join(', ')}`);
  const wanted = new Set(listed);
  return TOOL_CALLS.filter((call) => wanted.has(call.name));
}
