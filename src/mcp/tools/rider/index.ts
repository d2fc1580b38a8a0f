import type { ToolDefinition } from '../../tool.ts';
import { PUBLIC_TOOLS } from '../public.ts';
import { addMySegment } from './add-my-segment.ts';
import { getMyTailwindWindows } from './get-my-tailwind-windows.ts';
import { getMyWatchlist } from './get-my-watchlist.ts';
import { removeMySegment } from './remove-my-segment.ts';
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

/** Everything served at `{mcp_url}/rider`: the public tools stay available there too. */
export const RIDER_ADDRESS_TOOLS: readonly ToolDefinition[] = [...PUBLIC_TOOLS, ...RIDER_TOOLS];
