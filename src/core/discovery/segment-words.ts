import { compassPoint, type CompassPoint } from '../compass.ts';

const HEADINGS = ['northbound', 'eastbound', 'southbound', 'westbound'] as const;

/** The way a stretch runs, as road signs say it: the nearest of the four cardinal directions. */
export function headingWord(bearingDeg: number): string {
  const sector = Math.round((((bearingDeg % 360) + 360) % 360) / 90) % 4;
  return HEADINGS[sector] ?? 'northbound';
}

const SIDES: Readonly<Record<CompassPoint, string>> = {
  N: 'north',
  NE: 'north-east',
  E: 'east',
  SE: 'south-east',
  S: 'south',
  SW: 'south-west',
  W: 'west',
  NW: 'north-west',
};

/** The side of a climb, as riders name a pass's sides: the compass point from the top towards the foot. */
export function sideWord(bearingFromTopDeg: number): string {
  return SIDES[compassPoint(bearingFromTopDeg)];
}
