import { WIND_HEIGHT_FACTOR } from './power-model.ts';

/**
 * What height a wind figure is at, said once per page in plain words. Every rider page gives the wind
 * as the forecast does and as the MCP answers name it, 10 m above the ground: the rules that flag and
 * withhold hours (gusts of 39 and 50 km/h) are Beaufort's, at 10 m, so one height keeps a figure and
 * its flag in agreement. Until 1.7 the route calculator wrote "at 10 m" after every figure and the
 * segment pages gave the same figures unlabelled.
 */
export const WIND_HEIGHT_NOTE =
  `Wind figures are at 10 m above the ground, where weather forecasts measure them (your assistant says ` +
  `"at 10 m" too); down where you ride the wind is about ${Math.round((1 - WIND_HEIGHT_FACTOR) * 100)}% weaker.`;
