import { durationWords } from '../../../core/duration-words.ts';
import { compassPoint16 } from '../../../core/compass-16.ts';
import { svgNode as svg } from '../../dom/svg-node.ts';
import { renderFigures, type Figure } from './figure-list.ts';
import { readField } from '../../../core/parameters.ts';
import { fieldMessage } from '../form-words.ts';
import { RouteInputError } from '../../../core/route/route-error.ts';
import { routeLegs, type RouteGeometry } from '../../../core/route/route-geometry.ts';
import {
  directionTimes,
  timeCostPolar,
  type DirectionTimes,
  type TimePolarEntry,
} from '../../../core/route/route-direction-time.ts';
import type { ParsedRoute } from '../../../core/route/route-input.ts';
import { prepareRoute, type PreparedRoute } from '../../../core/route/route-prepare.ts';
import type { LatLon } from '../../../core/bearing.ts';
import { reverseRoute, routeShape, type RouteShape } from '../../../core/route/route-shape.ts';
import { DEFAULT_ROUTE_SPEED_KMH, powerForFlatSpeed } from '../../../core/route/route-ride.ts';
import { DEFAULT_POWER_PARAMS } from '../../../core/power-model.ts';
import { MAX_ROUTE_BYTES } from '../../../core/route/route-limits.ts';
import {
  routeWind,
  tailwindPolar,
  type LegWind,
  type PolarEntry,
  type RouteWind,
} from '../../../core/route/route-wind.ts';
import { roundHalfAway } from '../../../core/round.ts';
import { SPEED_DECIMALS } from '../../../core/wind.ts';
import {
  legRuns,
  polylinePath,
  projectRoute,
  type LegRun,
  type MapFrame,
  type ScreenPoint,
} from './route-map.ts';
import { POLAR_STEP_DEG, polarPoint, polarScaleKmh, timeCostPoint, zeroRingRadius } from './route-polar.ts';
import type { RouteSource } from './route-seam.ts';
import { readRouteText } from './route-source.ts';
import { setRouteStatus } from './route-status.ts';
import { byId } from '../../dom/by-id.ts';
import { ShownError } from './shown-error.ts';

/**
 * The route calculator proper, loaded on first use. It reads the route in
 * the browser and judges it against the forecast (route-forecast-view.ts,
 * loaded only then; it asks for grid cells, never the route) or, as a
 * what-if, against the wind typed in the calculator form, drawing it with
 * no request at all; typing another wind redraws it.
 *
 * A route that cannot be read clears the one shown before: the figures on
 * the page then always belong to the last file the rider gave, and the
 * error beside them is never mistaken for a comment on an older route.
 */

const MAP_FRAME: MapFrame = { width: 400, height: 300, padding: 16 };
const POLAR_RADIUS = 110;
/** What a pasted route is called when its text names none. */
const PASTED = 'The pasted route';

/** The page's own problems with what it was given are `ShownError`s, beside the core's RouteInputError. */

interface Shown {
  readonly route: ParsedRoute;
  readonly geometry: RouteGeometry;
  /** A loop or an out-and-back is judged both ways round by time; a point-to-point route by tailwind. */
  readonly shape: RouteShape;
  /** The legs ridden the other way round (closed routes only). */
  readonly reversedLegs: RouteGeometry['legs'];
  /** What the rider gave, for messages: a file name or "The pasted route". */
  readonly label: string;
  /** The simplified route the forecast is judged on (the same legs as get_route_wind's). */
  readonly prepared: PreparedRoute;
}

type ForecastView = typeof import('./route-forecast-view.ts');

/** The forecast code, fetched the first time a route is judged in forecast mode. */
let forecastView: Promise<ForecastView> | undefined;

let shown: Shown | undefined;
/** Bumped for every route given, so a slow read never overwrites a newer one. */
let generation = 0;
let listening = false;

/** Speeds as the API shows them: 0.1 km/h, halves away from zero. */
const oneDecimal = (value: number): string =>
  (roundHalfAway(value, SPEED_DECIMALS) + 0).toFixed(SPEED_DECIMALS);
const signed = (value: number): string => {
  const text = oneDecimal(value);
  return value > 0 && text !== '0.0' ? `+${text}` : text === '-0.0' ? '0.0' : text;
};
const km = (metres: number): string => (metres / 1000).toFixed(1);

async function readSource(source: RouteSource): Promise<{ text: string; label: string }> {
  if (source.kind === 'text') return { text: source.text, label: PASTED };
  const [file, ...others] = source.files;
  if (!file) throw new ShownError('No file was given: pick or drop one GPX or GeoJSON file.');
  if (others.length > 0)
    throw new ShownError(`${source.files.length} files were dropped: give one route file at a time.`);
  if (file.size > MAX_ROUTE_BYTES)
    throw new RouteInputError(
      'too_large',
      `${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MB; route files of up to ${MAX_ROUTE_BYTES / 1024 / 1024} MB are read. Simplify the track or export it without sensor extensions.`,
    );
  if (file.size === 0)
    throw new RouteInputError('no_points', `${file.name} is empty: there is nothing to read`);
  return { text: await file.text(), label: file.name };
}

/**
 * The message for the rider: a file's problems are prefixed with its name
 * (the core's messages say "GPX file", not which one); pasted text needs no name.
 */
function messageOf(error: unknown, file: string | undefined): string {
  if (error instanceof ShownError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  const prefixed = (text: string) =>
    file === undefined || text.startsWith(file) ? text : `${file}: ${text}`;
  if (error instanceof RouteInputError) return prefixed(message);
  // Not expected: say so plainly rather than leave the rider with nothing.
  return prefixed(`this could not be read as a route (${message}).`);
}

/** Reads, checks and draws a route the rider gave; a bad one gets its precise message. */
export async function showRoute(source: RouteSource): Promise<void> {
  const ticket = ++generation;
  const error = byId('route-error');
  error.textContent = '';
  setRouteStatus('Reading the route…');
  let label = source.kind === 'text' ? PASTED : (source.files[0]?.name ?? 'The file');
  try {
    const read = await readSource(source);
    label = read.label;
    if (ticket !== generation) return;
    const route = readRouteText(read.text);
    const shape = routeShape(route.points).shape;
    shown = {
      route,
      geometry: routeLegs(route.points),
      shape,
      reversedLegs: shape === 'point_to_point' ? [] : routeLegs(reverseRoute(route.points)).legs,
      label,
      prepared: prepareRoute(route),
    };
    void forecastView?.then((view) => view.forgetForecast());
    listenToInputs();
    render();
  } catch (problem) {
    if (ticket !== generation) return;
    shown = undefined;
    byId('route-result').hidden = true;
    setRouteStatus('');
    error.textContent = messageOf(problem, source.kind === 'files' ? label : undefined);
  }
}

/**
 * The mode a route opens in: the forecast, unless the page was opened from a
 * link that carries a wind (a shared what-if), or the rider already chose.
 * Read from the navigation entry: the calculator rewrites location.search
 * with its default wind as soon as it starts.
 */
function chooseFirstMode(): void {
  const forecast = document.querySelector<HTMLInputElement>('input[name="route-mode"][value="forecast"]');
  const manual = document.querySelector<HTMLInputElement>('input[name="route-mode"][value="manual"]');
  if (!forecast?.checked || !forecast.defaultChecked || !manual) return;
  const opened = performance.getEntriesByType('navigation')[0]?.name ?? location.href;
  const query = new URL(opened, location.href).searchParams;
  if (query.has('wind_speed_kmh') || query.has('wind_direction_deg')) manual.checked = true;
}

/**
 * Redraws when the mode is switched, and when the wind fields change in
 * typed-wind mode at most once per frame: a long track takes a few hundred
 * milliseconds to judge and draw, and a rider typing "250" should not pay
 * for "2" and "25" separately.
 */
function listenToInputs(): void {
  if (listening) return;
  listening = true;
  chooseFirstMode();
  let pending = false;
  for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="route-mode"]'))
    radio.addEventListener('change', () => render());
  byId('calculator').addEventListener('input', () => {
    if (routeMode() === 'forecast' || pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      render();
    });
  });
}

type WindReading = { speedKmh: number; directionDeg: number } | { hint: string };

/** The wind typed in the calculator form, read with the API's own field rules. */
function readWind(): WindReading {
  const values: number[] = [];
  for (const name of ['wind_speed_kmh', 'wind_direction_deg'] as const) {
    const text = byId<HTMLInputElement>(name).value.trim();
    const reading = readField(name, text);
    if (reading === undefined)
      return {
        hint: `Enter the ${name === 'wind_speed_kmh' ? 'wind speed' : 'wind direction'} above to judge the route.`,
      };
    if ('hint' in reading) return { hint: fieldMessage(name) };
    values.push(reading.value);
  }
  const [speedKmh = 0, directionDeg = 0] = values;
  return { speedKmh, directionDeg };
}

/** Which wind the route is judged against: the forecast (the default) or the wind typed above. */
function routeMode(): 'forecast' | 'manual' {
  return document.querySelector<HTMLInputElement>('input[name="route-mode"][value="manual"]')?.checked
    ? 'manual'
    : 'forecast';
}

/** Forecast mode: the forecast code loads now (not with the page) and judges the route's cells. */
function renderForecast(current: Shown, name: string): void {
  const result = byId('route-result');
  result.dataset['state'] = 'result';
  byId('route-wind').textContent =
    `Judged against the forecast for the next 3 days, ridden at ${DEFAULT_ROUTE_SPEED_KMH} km/h on the flat in still air. ` +
    'For a what-if, choose the typed wind above.';
  const ticket = generation;
  forecastView ??= import('./route-forecast-view.ts');
  forecastView.then(
    (view) =>
      view.showForecast(current.prepared, name, {
        isCurrent: () => ticket === generation && shown === current && routeMode() === 'forecast',
      }),
    () => {
      forecastView = undefined;
      byId('route-forecast').hidden = false;
      byId('route-forecast-problem').textContent =
        'The forecast tools could not load: check the connection and try again. The typed wind still works: choose it above.';
    },
  );
}

function render(): void {
  if (!shown) return;
  const result = byId('route-result');
  result.hidden = false;
  const name = shown.route.name ?? shown.label;
  byId('route-name').textContent = name;
  const mode = routeMode();
  result.dataset['mode'] = mode;
  if (mode === 'forecast') {
    renderForecast(shown, name);
    return;
  }
  byId('route-forecast').hidden = true;
  const wind = readWind();
  if ('hint' in wind) {
    // The route is drawn unjudged and nothing else is shown: no figure of an older wind or route stays up.
    result.dataset['state'] = 'problem';
    byId('route-wind').textContent = wind.hint;
    const all: LegRun<string> = { effect: 'unjudged', from: 0, to: shown.geometry.legs.length - 1 };
    drawMap(
      shown.route.points,
      [all],
      `Map of ${name}, ${km(shown.geometry.distanceM)} km, north up, not judged: the wind above needs fixing.`,
    );
    byId('route-polar').replaceChildren(byId('route-polar-title'));
    byId('route-polar-title').textContent = 'No chart: the wind above needs fixing.';
    byId('route-figures').replaceChildren();
    for (const table of ['route-polar-table', 'route-sections-table'])
      byId(table).querySelector('tbody')?.replaceChildren();
    setRouteStatus(`${name} is read; the wind above needs fixing.`);
    return;
  }
  result.dataset['state'] = 'result';
  const legs = shown.geometry.legs;
  const judged = routeWind(legs, wind);
  const polar = tailwindPolar(legs, wind.speedKmh, POLAR_STEP_DEG);
  byId('route-wind').textContent =
    `With a wind of ${oneDecimal(wind.speedKmh)} km/h from ${wind.directionDeg}° (${compassPoint16(wind.directionDeg)}), as entered above.`;
  const runs = legRuns(judged.legs.map((leg) => leg.effect));
  drawMap(
    shown.route.points,
    runs,
    `Map of ${name}, ${km(shown.geometry.distanceM)} km, north up: ${effectShares(shown.geometry, judged)} of the length.`,
  );
  fillSections(shown.geometry, wind, runs);
  if (shown.shape === 'point_to_point') {
    drawPolar(polar, judged, wind.speedKmh, wind.directionDeg);
    fillFigures(shown, judged, polar);
    setRouteStatus(
      `${name}: ${km(shown.geometry.distanceM)} km, weighted tailwind ${signed(judged.tailwindKmh)} km/h.`,
    );
    return;
  }
  const times = directionTimes(legs, shown.reversedLegs, wind, RIDER_POWER_W, DEFAULT_POWER_PARAMS);
  const timePolar = timeCostPolar(
    legs,
    shown.reversedLegs,
    wind.speedKmh,
    RIDER_POWER_W,
    DEFAULT_POWER_PARAMS,
  );
  drawTimePolar(timePolar, times, shown.shape, wind);
  fillFigures(shown, judged, polar, times, timePolar);
  setRouteStatus(
    `${name}: ${km(shown.geometry.distanceM)} km ${SHAPE_WORDS[shown.shape]}; ` +
      `as given ${gainWords(times.asGivenGainedS)}, reversed ${gainWords(times.reversedGainedS)}: ${fasterWords(times)}.`,
  );
}

/**
 * The calculator's rider: the flat still-air pace `get_route_wind` assumes
 * when none is given, so the page and the tool agree on the same loop.
 */
const RIDER_POWER_W = powerForFlatSpeed(DEFAULT_ROUTE_SPEED_KMH, DEFAULT_POWER_PARAMS);

const SHAPE_WORDS: Record<RouteShape, string> = {
  loop: 'loop',
  out_and_back: 'out-and-back',
  point_to_point: 'route',
};

/** Time gained or lost in words: the sign never has to be read. */
function gainWords(gainedS: number): string {
  const whole = Math.round(gainedS);
  if (whole === 0) return 'no time gained or lost';
  return `${durationWords(whole)} ${whole > 0 ? 'gained' : 'lost'}`;
}

/** Seconds with their sign, for the chart's table and data. */
const signedSeconds = (gainedS: number): string => {
  const whole = Math.round(gainedS) + 0;
  return whole > 0 ? `+${whole}` : String(whole);
};

/** Which way round is faster, in the words the figures use. */
function fasterWords(times: DirectionTimes): string {
  if (times.faster === 'same') return 'both ways round take the same time (within a second)';
  const gap = durationWords(times.asGivenGainedS - times.reversedGainedS);
  return times.faster === 'as_given' ? `as given is faster, by ${gap}` : `reversed is faster, by ${gap}`;
}

/** The figure drawn per spoke: the better of the two ways round. */
const bestWay = (entry: TimePolarEntry): number => Math.max(entry.asGivenGainedS, entry.reversedGainedS);

/**
 * The chart for a loop or an out-and-back: time gained against still air
 * (negative: lost) for the wind speed entered, from each of 16 directions,
 * as given (solid) and reversed (dashed). The weighted tailwind would be a
 * flat circle here; the time is not, because a headwind costs more than the
 * same tailwind gives back, most where the route runs longest into it.
 */
function drawTimePolar(
  polar: readonly TimePolarEntry[],
  times: DirectionTimes,
  shape: RouteShape,
  wind: { speedKmh: number; directionDeg: number },
): void {
  const chart = byId<SVGSVGElement>('route-polar');
  const title = byId('route-polar-title');
  const lost = polar.flatMap((entry) => [-entry.asGivenGainedS, -entry.reversedGainedS]);
  // The rim at the next whole ten seconds lost (never under ten); the centre at 0 lost, or lower
  // when some direction gains time, so a gain still shows inside the zero ring.
  const mostLostS = Math.max(10, Math.ceil(Math.max(...lost) / 10) * 10);
  const leastLostS = Math.min(0, Math.floor(Math.min(...lost) / 10) * 10);
  const at = (directionDeg: number, gainedS: number) =>
    timeCostPoint(directionDeg, -gainedS, leastLostS, mostLostS, POLAR_RADIUS);
  const zeroRadius = (POLAR_RADIUS * -leastLostS) / (mostLostS - leastLostS);
  const asGiven = polar.map((entry) => at(entry.directionDeg, entry.asGivenGainedS));
  const reversed = polar.map((entry) => at(entry.directionDeg, entry.reversedGainedS));
  const rim = (deg: number) => timeCostPoint(deg, mostLostS, leastLostS, mostLostS, POLAR_RADIUS + 22);
  const marker = currentMarker(at(wind.directionDeg, times.asGivenGainedS), wind.directionDeg);
  chart.replaceChildren(
    title,
    svg('circle', { class: 'polar-ring', r: POLAR_RADIUS }),
    ...(zeroRadius > 0 ? [svg('circle', { class: 'polar-zero', r: zeroRadius.toFixed(2) })] : []),
    ...compassLabels(rim),
    svg('path', { class: 'polar-shape', d: `${polylinePath(asGiven)} Z` }),
    svg('path', { class: 'polar-shape-reversed', d: `${polylinePath(reversed)} Z` }),
    ringLabel(POLAR_RADIUS, `${mostLostS} s lost`),
    ...(zeroRadius > 0 ? [ringLabel(zeroRadius, '0')] : []),
    ...polar.map((entry, i) => {
      const rounded = Math.round(entry.asGivenGainedS);
      return svg('circle', {
        class: 'polar-value',
        r: 2.5,
        cx: (asGiven[i]?.x ?? 0).toFixed(2),
        cy: (asGiven[i]?.y ?? 0).toFixed(2),
        'data-direction': entry.directionDeg,
        'data-gained-s': signedSeconds(entry.asGivenGainedS),
        'data-reversed-gained-s': signedSeconds(entry.reversedGainedS),
        'data-effect': rounded > 0 ? 'tailwind' : rounded < 0 ? 'headwind' : 'none',
      });
    }),
    marker,
  );
  const best = polar.reduce((a, b) => (bestWay(b) > bestWay(a) ? b : a));
  const worst = polar.reduce((a, b) => (bestWay(b) < bestWay(a) ? b : a));
  const from = (entry: TimePolarEntry) => `${entry.directionDeg}° (${compassPoint16(entry.directionDeg)})`;
  title.textContent =
    `Time the wind gains or costs on this ${SHAPE_WORDS[shape]} against still air, at ${DEFAULT_ROUTE_SPEED_KMH} km/h ` +
    `on the flat, for a ${oneDecimal(wind.speedKmh)} km/h wind from each of ${polar.length} directions: ` +
    `as given (solid) and reversed (dashed), on a scale of ${leastLostS < 0 ? `${-leastLostS} s gained` : 'no time lost'} ` +
    `(centre) to ${mostLostS} s lost (rim). ` +
    `Least harm, the better way round: from ${from(best)}, ${gainWords(bestWay(best))}; ` +
    `most: from ${from(worst)}, ${gainWords(bestWay(worst))}. ` +
    `The wind entered, from ${wind.directionDeg}°: as given ${gainWords(times.asGivenGainedS)}, ` +
    `reversed ${gainWords(times.reversedGainedS)}.`;
  byId('route-polar-caption').textContent =
    `Time the wind costs against still air for a wind of the same speed from every direction, as given ` +
    `(solid) and reversed (dashed): the farther out, the more time lost${zeroRadius > 0 ? '; inside the dashed ring the wind gains time' : ''}. ` +
    `A ${SHAPE_WORDS[shape]} ends where it starts, so its weighted tailwind is 0 from every direction; ` +
    `the time is not. The marked spoke is the wind entered above, as given.`;
  const table = byId('route-polar-table');
  byId('route-polar-table-caption').textContent =
    'Time gained against still air for each wind direction, both ways round';
  const head = (text: string) => {
    const cell = document.createElement('th');
    cell.scope = 'col';
    cell.textContent = text;
    return cell;
  };
  const headRow = document.createElement('tr');
  headRow.append(head('Wind from'), head('Gained as given (s)'), head('Gained reversed (s)'));
  table.querySelector('thead')?.replaceChildren(headRow);
  const rows = polar.map((entry) => {
    const row = document.createElement('tr');
    for (const text of [
      from(entry),
      signedSeconds(entry.asGivenGainedS),
      signedSeconds(entry.reversedGainedS),
    ]) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    return row;
  });
  table.querySelector('tbody')?.replaceChildren(...rows);
}

/** Share of the length per effect, for the map's title (its short text equivalent). */
/** A spoke's colour class: by the figure as shown, so noise around 0 is neither. */
function polarEffect(value: PolarEntry): 'tailwind' | 'headwind' | 'none' {
  const rounded = roundHalfAway(value.tailwindKmh, SPEED_DECIMALS);
  return rounded > 0 ? 'tailwind' : rounded < 0 ? 'headwind' : 'none';
}

/**
 * True when every direction shows 0.0 km/h. For one steady wind the weighted
 * tailwind is the wind along the line from start to finish times that
 * distance over the length ridden, so a loop or an out-and-back has none.
 */
function isFlat(polar: readonly PolarEntry[]): boolean {
  return polar.every((value) => polarEffect(value) === 'none');
}

/** The compass letters just outside a polar chart's rim; `at` places a direction there. */
function compassLabels(at: (directionDeg: number) => ScreenPoint): SVGTextElement[] {
  return (
    [
      [0, 'N'],
      [90, 'E'],
      [180, 'S'],
      [270, 'W'],
    ] as const
  ).map(([directionDeg, text]) => {
    const point = at(directionDeg);
    return svg('text', { class: 'polar-label', x: point.x.toFixed(1), y: point.y.toFixed(1) }, text);
  });
}

/** The wind entered, on a polar chart: a spoke from the centre to its point, and a dot there. */
function currentMarker(point: ScreenPoint, directionDeg: number): SVGGElement {
  const marker = svg('g', { class: 'polar-current', 'data-direction': directionDeg });
  const [x, y] = [point.x.toFixed(2), point.y.toFixed(2)];
  marker.append(svg('line', { x1: 0, y1: 0, x2: x, y2: y }), svg('circle', { r: 6, cx: x, cy: y }));
  return marker;
}

function ringLabel(radius: number, text: string): SVGTextElement {
  const at = radius * Math.SQRT1_2;
  return svg('text', { class: 'polar-label polar-ring-label', x: at.toFixed(1), y: (-at).toFixed(1) }, text);
}

/** The direction with the most tailwind (the first of equals). */
function bestOf(polar: readonly PolarEntry[]): PolarEntry {
  return polar.reduce((a, b) => (b.tailwindKmh > a.tailwindKmh ? b : a));
}

function effectShares(geometry: RouteGeometry, judged: RouteWind): string {
  const byEffect = new Map<string, number>();
  judged.legs.forEach((leg, i) => {
    const effect = leg.effect === 'calm' ? 'crosswind' : leg.effect;
    byEffect.set(effect, (byEffect.get(effect) ?? 0) + (geometry.legs[i]?.lengthM ?? 0));
  });
  return ['tailwind', 'headwind', 'crosswind']
    .map((effect) => `${Math.round(((byEffect.get(effect) ?? 0) / geometry.distanceM) * 100)}% ${effect}`)
    .join(', ');
}

function drawMap(points: readonly LatLon[], runs: readonly LegRun<string>[], description: string): void {
  const screen = projectRoute(points, MAP_FRAME);
  const legs = byId<SVGGElement>('route-legs');
  legs.replaceChildren(
    ...runs.map((run) =>
      svg('path', {
        d: polylinePath(screen.slice(run.from, run.to + 2)),
        class: `leg leg-${run.effect}`,
        'data-effect': run.effect,
        'data-legs': `${run.from}-${run.to}`,
      }),
    ),
  );
  const ends = byId<SVGGElement>('route-ends');
  const first = screen[0];
  const last = screen.at(-1);
  const marker = (point: ScreenPoint, letter: string): SVGGElement => {
    const group = svg('g', {
      class: 'end',
      transform: `translate(${point.x.toFixed(2)} ${point.y.toFixed(2)})`,
    });
    group.append(svg('circle', { r: 8 }), svg('text', {}, letter));
    return group;
  };
  // The start is drawn last, on top: on a loop it covers the finish.
  ends.replaceChildren(...(last ? [marker(last, 'F')] : []), ...(first ? [marker(first, 'S')] : []));
  byId('route-map-title').textContent = description;
}

function drawPolar(
  polar: readonly PolarEntry[],
  judged: RouteWind,
  speedKmh: number,
  directionDeg: number,
): void {
  const chart = byId<SVGSVGElement>('route-polar');
  const title = byId('route-polar-title');
  const scaleKmh = polarScaleKmh(polar, speedKmh);
  const point = (value: PolarEntry) => polarPoint(value, scaleKmh, POLAR_RADIUS);
  const outline = polar.map(point);
  const best = bestOf(polar);
  const worst = polar.reduce((a, b) => (b.tailwindKmh < a.tailwindKmh ? b : a));
  const rim = (deg: number) =>
    polarPoint({ directionDeg: deg, tailwindKmh: scaleKmh }, scaleKmh, POLAR_RADIUS + 22);
  const marker = currentMarker(point({ directionDeg, tailwindKmh: judged.tailwindKmh }), directionDeg);
  chart.replaceChildren(
    title,
    svg('circle', { class: 'polar-ring', r: POLAR_RADIUS }),
    svg('circle', { class: 'polar-zero', r: zeroRingRadius(POLAR_RADIUS) }),
    ...compassLabels(rim),
    svg('path', { class: 'polar-shape', d: `${polylinePath(outline)} Z` }),
    // Ring labels on the north-east diagonal, drawn over the shape with a halo (see the CSS).
    ringLabel(POLAR_RADIUS, `+${scaleKmh} km/h`),
    ringLabel(zeroRingRadius(POLAR_RADIUS), '0'),
    ...polar.map((value, i) =>
      svg('circle', {
        class: 'polar-value',
        r: 2.5,
        cx: (outline[i]?.x ?? 0).toFixed(2),
        cy: (outline[i]?.y ?? 0).toFixed(2),
        'data-direction': value.directionDeg,
        'data-tailwind': oneDecimal(value.tailwindKmh),
        'data-effect': polarEffect(value),
      }),
    ),
    marker,
  );
  const range = `on a scale of -${scaleKmh} (centre) to +${scaleKmh} km/h (rim). `;
  title.textContent = isFlat(polar)
    ? `Weighted tailwind of this route for a ${oneDecimal(speedKmh)} km/h wind from every direction, ${range}` +
      'Every direction gives 0.0 km/h: the route ends about where it starts, so a steady wind holds it back as much as it helps.'
    : `Weighted tailwind of this route for a ${oneDecimal(speedKmh)} km/h wind from every direction, ` +
      range +
      `Best: from ${best.directionDeg}° (${compassPoint16(best.directionDeg)}), ${signed(best.tailwindKmh)} km/h; ` +
      `worst: from ${worst.directionDeg}° (${compassPoint16(worst.directionDeg)}), ${signed(worst.tailwindKmh)} km/h. ` +
      `The wind entered, from ${directionDeg}°, gives ${signed(judged.tailwindKmh)} km/h.`;
  byId('route-polar-caption').textContent = TAILWIND_CAPTION;
  byId('route-polar-table-caption').textContent = 'Weighted tailwind for each wind direction';
  byId('route-polar-table')
    .querySelector('thead')
    ?.replaceChildren(headRowOf(['Wind from', 'Weighted tailwind (km/h)']));
  const rows = polar.map((value) => {
    const row = document.createElement('tr');
    const from = document.createElement('td');
    from.textContent = `${value.directionDeg}° (${compassPoint16(value.directionDeg)})`;
    const tail = document.createElement('td');
    tail.textContent = signed(value.tailwindKmh);
    row.append(from, tail);
    return row;
  });
  byId('route-polar-table')
    .querySelector('tbody')
    ?.replaceChildren(...rows);
}

const TAILWIND_CAPTION =
  'Weighted tailwind for a wind of the same speed from every direction: outside the middle ring helps, ' +
  'inside it holds you back. The marked spoke is the wind entered above.';

function headRowOf(texts: readonly string[]): HTMLTableRowElement {
  const row = document.createElement('tr');
  for (const text of texts) {
    const cell = document.createElement('th');
    cell.scope = 'col';
    cell.textContent = text;
    row.append(cell);
  }
  return row;
}

/** How many points were read, and how many repeats (a paused GPS logs many) were merged. */
function pointsRead(route: ParsedRoute): string {
  const kept = route.points.length.toLocaleString('en');
  const merged = route.duplicatesDropped;
  return merged === 0
    ? kept
    : `${kept} (${merged.toLocaleString('en')} repeated ${merged === 1 ? 'point' : 'points'} merged)`;
}

function fillFigures(
  current: Shown,
  judged: RouteWind,
  polar: readonly PolarEntry[],
  times?: DirectionTimes,
  timePolar?: readonly TimePolarEntry[],
): void {
  const { route, geometry } = current;
  const coverage = route.elevationCoverage;
  const climbing =
    coverage === 0
      ? 'no elevation in the route'
      : `${Math.round(geometry.climbingM)} m${coverage < 1 ? ` (elevation on ${Math.round(coverage * 100)}% of the length)` : ''}`;
  const strongest = judged.strongestHeadwind;
  const best = bestOf(polar);
  const closed: [string, string, string][] =
    times && timePolar
      ? [
          ['shape', 'Shape', `${SHAPE_WORDS[current.shape]}: it ends where it starts`],
          ['time-as-given', 'Wind effect, as given', gainWords(times.asGivenGainedS)],
          ['time-reversed', 'Wind effect, reversed', gainWords(times.reversedGainedS)],
          ['faster-direction', 'Faster way round', fasterWords(times)],
          [
            'still-air-time',
            `Still-air time at ${DEFAULT_ROUTE_SPEED_KMH} km/h on the flat`,
            durationWords(times.stillAirS),
          ],
        ]
      : [];
  const leastHarm = timePolar?.reduce((a, b) => (bestWay(b) > bestWay(a) ? b : a));
  const figures: Figure[] = [
    ...closed,
    ['distance', 'Distance', `${km(geometry.distanceM)} km`],
    ['points', 'Points', pointsRead(route)],
    ['climbing', 'Climbing', climbing],
    ['weighted-tailwind', 'Weighted tailwind', `${signed(judged.tailwindKmh)} km/h`],
    ['weighted-crosswind', 'Mean crosswind', `${oneDecimal(judged.crosswindKmh)} km/h`],
    ['headwind-share', 'Into a headwind', `${Math.round(judged.headwindShare * 100)}% of the length`],
    [
      'strongest-headwind',
      'Strongest headwind section',
      strongest
        ? `km ${strongest.fromKm.toFixed(1)}–${strongest.toKm.toFixed(1)}, ${oneDecimal(strongest.headwindKmh)} km/h headwind`
        : 'none',
    ],
    [
      'best-wind',
      'Best wind for this ride',
      leastHarm
        ? `from ${leastHarm.directionDeg}° (${compassPoint16(leastHarm.directionDeg)}): ${gainWords(bestWay(leastHarm))}, the better way round`
        : isFlat(polar)
          ? 'none: every direction gives 0.0 km/h'
          : `from ${best.directionDeg}° (${compassPoint16(best.directionDeg)}), ${signed(best.tailwindKmh)} km/h`,
    ],
  ];
  renderFigures(byId('route-figures'), figures);
}

/** One row per run of the map: the same sections, in words, each judged by the core on its own legs. */
function fillSections(geometry: RouteGeometry, wind: LegWind, runs: readonly LegRun<string>[]): void {
  const rows = runs.map((run) => {
    const first = geometry.legs[run.from];
    const last = geometry.legs[run.to];
    const cells = [
      (first?.fromKm ?? 0).toFixed(1),
      ((last?.fromKm ?? 0) + (last?.lengthM ?? 0) / 1000).toFixed(1),
      run.effect,
      signed(routeWind(geometry.legs.slice(run.from, run.to + 1), wind).tailwindKmh),
    ];
    const row = document.createElement('tr');
    row.append(
      ...cells.map((text) => {
        const cell = document.createElement('td');
        cell.textContent = text;
        return cell;
      }),
    );
    return row;
  });
  byId('route-sections-table')
    .querySelector('tbody')
    ?.replaceChildren(...rows);
}
