import type { ToolDefinition } from '../tool.ts';
import { findTailwindSegments } from './find-tailwind-segments.ts';
import { getRouteWind } from './get-route-wind.ts';
import { getSegment } from './get-segment.ts';

/** The tools at the public address `{mcp_url}`; the rider address adds its own beside these. */
export const PUBLIC_TOOLS: readonly ToolDefinition[] = [findTailwindSegments, getSegment, getRouteWind];
