import type { ToolDefinition } from '../../tool.ts';
import { PUBLIC_TOOLS } from '../public.ts';
import { addMySegment } from './add-my-segment.ts';
import { getMyTailwindWindows } from './get-my-tailwind-windows.ts';
import { getMyWatchlist } from './get-my-watchlist.ts';
import { removeMySegment } from './remove-my-segment.ts';
import { riderRouteWind } from './rider-route-wind.ts';
import { setAlertThreshold } from './set-alert-threshold.ts';
import { unwatchSegment } from './unwatch-segment.ts';
import { watchSegment } from './watch-segment.ts';

/** The tools only a signed-in rider gets. */
export const RIDER_TOOLS: readonly ToolDefinition[] = [
  getMyWatchlist,
  getMyTailwindWindows,
  watchSegment,
  unwatchSegment,
  setAlertThreshold,
  addMySegment,
  removeMySegment,
];

/**
 * Everything served at `{mcp_url}/rider`: the public tools stay available
 * there too, get_route_wind with the rider's `save_as` option.
 */
export const RIDER_ADDRESS_TOOLS: readonly ToolDefinition[] = [
  ...PUBLIC_TOOLS.map((tool) => (tool.name === riderRouteWind.name ? riderRouteWind : tool)),
  ...RIDER_TOOLS,
];
