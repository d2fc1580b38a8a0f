import { localParts, localDateTime, zoneAbbreviation } from '../../../core/local-time.ts';
import { renderFigures, type Figure } from './figure-list.ts';
import { FLAG_WORDS } from '../../../core/rideable.ts';
import { reverseRoute } from '../../../core/route/route-shape.ts';
import type { StartFigures } from '../../../core/route/route-figures.ts';
import type { PreparedRoute } from '../../../core/route/route-prepare.ts';
import {
  NO_START_WEATHER_WORDS,
  type StartJudgement,
  type StartStatus,
} from '../../../core/route/route-starts.ts';
import { rainText } from '../../../core/rain-words.ts';
import { minutesWords, windGainWords } from '../../../core/duration-words.ts';
import type { BandSpec, ChartSpec, SeriesPoint } from '../../charts/chart-spec.ts';
import { drawChart } from '../../charts/draw-chart.ts';
import { fetchCells } from './route-forecast-fetch.ts';
import { ShownError } from './shown-error.ts';
import { judgeInForecast, routeCells, type ForecastRoute } from './route-forecast-model.ts';
import { mountSegmentMap } from '../../map/mount-map.ts';
import { setRouteStatus } from './route-status.ts';
import { byId } from '../../dom/by-id.ts';

/**
 * The forecast half of the route calculator, loaded only when a route is
 * judged in forecast mode: asks `/v1/wind` for the route's cells (their
 * centres, never the route), judges the route with the core's `judgeRoute`
 * (the function behind get_route_wind) and shows the best starts in the
 * place's local time, both ways round on a loop, with two charts and their
 * tables. A failure is one sentence; the typed-wind mode keeps working.
 */

/** What the page around it lends: whether this route is still the one shown. */
export interface ForecastHost {
  readonly isCurrent: () => boolean;
}

/**
 * The route on the map module's map (MapLibre where WebGL and the tiles
 * are there, else its plain drawing with a sentence saying why), coloured
 * part by part by the along-track wind of the best start, ridden the way
 * that start rides it. Only the tiles around the route are asked of the
 * tile server, as for any map; the route itself stays in the page.
 */
function showMap(
  route: PreparedRoute,
  name: string,
  shape: string,
  reversed: boolean,
  values?: readonly number[],
): void {
  const figure = document.getElementById('route-live-map');
  if (!figure) return;
  const points = reversed ? reverseRoute(route.points) : route.points;
  void mountSegmentMap(figure, {
    lines: [
      {
        coordinates: points.map((p) => [p.lon, p.lat] as const),
        name,
        loop: shape === 'loop',
        ...(values ? { values } : {}),
      },
    ],
    details: true,
  });
}

interface Pending {
  readonly route: PreparedRoute;
  readonly result: Promise<ForecastRoute | null>;
  readonly controller: AbortController;
}

let pending: Pending | undefined;

/** A forecast is read once per route given; switching modes back and forth asks nothing again. */
function forecastFor(route: PreparedRoute): Promise<ForecastRoute | null> {
  if (pending?.route === route) return pending.result;
  pending?.controller.abort();
  const controller = new AbortController();
  const cells = routeCells(route);
  const result = fetchCells(cells.cells, controller.signal).then(
    (answers) => judgeInForecast(route, cells, answers, Date.now()),
    (error: unknown) => {
      controller.abort();
      if (pending?.route === route) pending = undefined;
      throw error;
    },
  );
  pending = { route, result, controller };
  return result;
}

/** Stops asking for a route's forecast (a new route was given, or manual mode chosen before it came). */
export function forgetForecast(): void {
  pending?.controller.abort();
  pending = undefined;
}

const SHAPE_WORDS = { loop: 'loop', out_and_back: 'out-and-back', point_to_point: 'route' } as const;

const STATUS_WORDS: Record<StartStatus, string> = {
  found: '',
  dark: 'every start in the next 3 days would ride into darkness',
  ...NO_START_WEATHER_WORDS,
  beyond_forecast: 'the ride is longer than what is left of the 72-hour forecast',
};

/** "the wind gains 43 s", "the wind costs 1 min 53 s", "the wind costs nothing": the sign in words. */
const windGain = (seconds: number): string => `the wind ${windGainWords(seconds)}`;

const signedKmh = (value: number): string => (value > 0 ? `+${value.toFixed(1)}` : value.toFixed(1));

const when = (iso: string, timeZone: string): string => localDateTime(Date.parse(iso) / 1000, timeZone);

/** "Sat 09:00": a start on the chart's axis, in the place's time. */
function shortLocal(ms: number, timeZone: string): string {
  const p = localParts(ms / 1000, timeZone);
  return `${p.weekday} ${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
}

function directionWords(start: StartFigures): string {
  return start.direction === 'reversed' ? 'ridden reversed' : 'ridden as given';
}

/** One offered start in words: when, which way, how long, what the wind does, the other way. */
function startSentence(start: StartFigures, closed: boolean, timeZone: string): string {
  const other = start.other_direction;
  return (
    `${when(start.start, timeZone)}${closed ? `, ${directionWords(start)}` : ''}: ` +
    `${minutesWords(start.ride_minutes)} riding, ${windGain(start.time_gained_s)} against still air` +
    (closed && other
      ? `; the other way round ${minutesWords(other.ride_minutes)}, ${windGain(other.time_gained_s)}` +
        // Fastest is by ride time: the other way can gain more from the wind yet take longer (its climbs are steeper).
        (other.time_gained_s > start.time_gained_s ? ', more from the wind but slower in still air' : '')
      : '')
  );
}

function flagWords(flags: readonly string[]): string {
  return flags.length === 0
    ? 'none'
    : flags.map((flag) => `${flag} (${FLAG_WORDS[flag as keyof typeof FLAG_WORDS]})`).join('; ');
}

function cell(tag: 'td' | 'th', text: string): HTMLTableCellElement {
  const element = document.createElement(tag);
  element.textContent = text;
  if (tag === 'th') element.scope = 'row';
  return element;
}

function fillStarts(result: ForecastRoute, closed: boolean): void {
  const table = byId<HTMLTableElement>('route-starts');
  const heads = [
    'Start',
    ...(closed ? ['Way round'] : []),
    'Ride',
    'Wind against still air',
    ...(closed ? ['The other way round'] : []),
    'Into a headwind',
    'Worst stretch',
    'Watch out',
  ];
  const headRow = document.createElement('tr');
  for (const text of heads) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = text;
    headRow.append(th);
  }
  table.tHead?.replaceChildren(headRow);
  table.tBodies[0]?.replaceChildren(
    ...result.starts.map((start) => {
      const row = document.createElement('tr');
      const worst = start.strongest_headwind;
      const other = start.other_direction;
      row.append(
        cell('th', when(start.start, result.timeZone)),
        ...(closed ? [cell('td', start.direction === 'reversed' ? 'reversed' : 'as given')] : []),
        cell('td', minutesWords(start.ride_minutes)),
        cell('td', windGain(start.time_gained_s).replace(/^the wind /, '')),
        ...(closed
          ? [
              cell(
                'td',
                other
                  ? `${minutesWords(other.ride_minutes)}, ${windGain(other.time_gained_s).replace(/^the wind /, '')}`
                  : 'does not fit the forecast',
              ),
            ]
          : []),
        cell('td', `${start.headwind_share_pct}%`),
        cell('td', worst ? `km ${worst.from_km}–${worst.to_km}, ${worst.headwind_kmh} km/h` : 'no headwind'),
        cell('td', start.flags.length === 0 ? 'nothing' : start.flags.join(', ')),
      );
      // On a phone the table stacks (`table.stack`): each value then carries its column's name.
      for (const [index, value] of [...row.cells].entries()) {
        if (value.tagName === 'TD') value.dataset['label'] = heads[index] ?? '';
      }
      return row;
    }),
  );
}

function fillFigures(best: StartFigures): void {
  const worst = best.strongest_headwind;
  const temperatures =
    best.min_temperature_c === null || best.max_temperature_c === null
      ? 'not in the forecast'
      : best.min_temperature_c === best.max_temperature_c
        ? `${best.min_temperature_c} °C`
        : `${best.min_temperature_c} to ${best.max_temperature_c} °C`;
  const figures: Figure[] = [
    ['forecast-headwind-share', 'Into a headwind', `${best.headwind_share_pct}% of the length`],
    [
      'forecast-worst-stretch',
      'Worst stretch',
      worst
        ? `km ${worst.from_km}–${worst.to_km}, ${worst.headwind_kmh} km/h headwind`
        : 'none: no leg into a headwind',
    ],
    ['forecast-tailwind', 'Mean along-track wind', `${signedKmh(best.tailwind_kmh)} km/h`],
    [
      'forecast-rain',
      'Rain',
      rainText(best.max_precipitation_mm, best.max_precipitation_probability_pct) ?? 'not in the forecast',
    ],
    [
      'forecast-gusts',
      'Strongest gusts',
      best.max_gusts_kmh === null ? 'not in the forecast' : `${best.max_gusts_kmh} km/h`,
    ],
    ['forecast-temperature', 'Temperature', temperatures],
    ['forecast-daylight', 'Daylight', 'the whole ride between civil dawn and dusk'],
    ['forecast-flags', 'Watch out', flagWords(best.flags)],
  ];
  renderFigures(byId('route-forecast-figures'), figures);
}

const REFUSAL_WORDS = {
  dark: 'Not offered: dark',
  wet: 'Not offered: rain',
  gusty: 'Not offered: gusts',
} as const;

/**
 * Each reason's band kind, so each is shaded in its own colour (the timeline's `dark`, `rain` and
 * `gust`): until 1.7 the bands were classed by the refusal's own word, which no style knew, and all
 * three reasons showed as one grey.
 */
const REFUSAL_BANDS = { dark: 'dark', wet: 'rain', gusty: 'gust' } as const;

/** Runs of consecutive starts refused for the same first reason, as shaded bands. */
function refusedBands(judged: readonly StartJudgement[]): BandSpec[] {
  const bands: BandSpec[] = [];
  for (const start of judged) {
    const reason = start.refusals[0];
    if (reason === undefined) continue;
    const from = start.startS * 1000 - 1_800_000;
    const to = start.startS * 1000 + 1_800_000;
    const last = bands.at(-1);
    const kind = REFUSAL_BANDS[reason];
    if (last && last.kind === kind && Math.abs(last.to - from) < 1) bands[bands.length - 1] = { ...last, to };
    else bands.push({ from, to, label: REFUSAL_WORDS[reason], kind, showLabel: false });
  }
  return bands;
}

/** Ticks on every 6th (or 12th, 24th) local hour among the starts, so a half-hour zone gets whole local hours. */
function localTicks(times: readonly number[], timeZone: string): number[] {
  const span = (times.at(-1) ?? 0) - (times[0] ?? 0);
  const every = [3, 6, 12, 24].find((h) => span / (h * 3_600_000) <= 8) ?? 24;
  return times.filter((ms) => localParts(ms / 1000, timeZone).hour % every === 0);
}

function gainChart(result: ForecastRoute, closed: boolean): ChartSpec {
  const { judgement, timeZone } = result;
  const points = (judged: readonly StartJudgement[]): SeriesPoint[] =>
    judged.map((j) => ({
      x: j.startS * 1000,
      // Minutes, to a tenth: a rider thinks of a ride's gain in minutes, not in hundreds of seconds.
      y: j.refusals.length === 0 ? Math.round(j.timeGainedS / 6) / 10 : null,
    }));
  const best = result.starts[0];
  const bestChosen = judgement.chosen[0];
  const zone = zoneAbbreviation(result.fromS, timeZone);
  const series = [
    {
      id: 'as-given',
      label: closed ? 'As given' : 'Time gained',
      kind: 'line' as const,
      points: points(judgement.asGiven),
    },
    ...(closed
      ? [
          {
            id: 'reversed',
            label: 'Reversed',
            kind: 'line' as const,
            dashed: true,
            points: points(judgement.reversed),
          },
        ]
      : []),
  ];
  const times = judgement.asGiven.map((j) => j.startS * 1000);
  return {
    title: `Time the wind gains (above 0) or costs (below 0) against still air, by start hour in ${zone}${closed ? ', both ways round' : ''}`,
    summary:
      best && bestChosen
        ? `Best start ${when(best.start, timeZone)}${closed ? `, ${directionWords(best)}` : ''}: ${windGain(best.time_gained_s)}. ` +
          'Starts that are not offered (darkness, rain, gusts) are shaded and have no line.'
        : `No start to offer: ${STATUS_WORDS[judgement.status]}.`,
    x: {
      label: `Start (${zone})`,
      kind: 'time',
      format: (ms) => shortLocal(ms, timeZone),
      ticks: localTicks(times, timeZone),
    },
    y: {
      label: 'Minutes gained against still air',
      shortLabel: 'Minutes gained',
      format: (m) => `${m > 0 ? '+' : m < 0 ? '−' : ''}${Math.abs(Math.round(m * 10) / 10)}`,
    },
    series,
    bands: refusedBands(judgement.asGiven),
    markers:
      best && bestChosen
        ? [
            {
              x: bestChosen.startS * 1000,
              y: Math.round(best.time_gained_s / 6) / 10,
              label: `Best: ${shortLocal(bestChosen.startS * 1000, timeZone)}`,
              kind: 'best',
            },
          ]
        : [],
  };
}

function windChart(result: ForecastRoute): ChartSpec {
  const best = result.starts[0];
  const way = best?.direction === 'reversed' ? ', counted from the start of the reversed ride' : '';
  const tail = result.perKm.filter((k) => k.tailwind_kmh > 0).length;
  return {
    title: `Wind along the route per km from the best start${best ? ` (${when(best.start, result.timeZone)})` : ''}${way}: tailwind above 0, headwind below`,
    summary: `${tail} of ${result.perKm.length} km with a tailwind, ${result.perKm.length - tail} with a headwind or none.`,
    x: { label: 'Distance (km)' },
    y: {
      label: 'Along-track wind (km/h, at 10 m)',
      shortLabel: 'Tailwind (km/h)',
      format: (v) => signedKmh(Math.round(v * 10) / 10),
    },
    series: [
      {
        id: 'along',
        label: 'Along-track wind',
        kind: 'bars',
        bySign: true,
        points: result.perKm.map((k) => ({ x: k.from_km, xEnd: k.to_km, y: k.tailwind_kmh })),
      },
    ],
  };
}

function sourceSentence(result: ForecastRoute): string {
  const f = result.forecast;
  const issued = localDateTime(f.issuedAt, result.timeZone);
  const name = f.source === 'demo' ? 'the demo forecast' : 'Open-Meteo';
  return `Forecast: ${name}, issued ${issued}${f.stale ? '; the weather service did not answer, so this is an older copy' : ''}.`;
}

/**
 * Shows the route judged in the forecast, asking for it the first time.
 * `name` is how the page calls the route.
 */
export async function showForecast(route: PreparedRoute, name: string, host: ForecastHost): Promise<void> {
  const section = byId('route-forecast');
  const problem = byId('route-forecast-problem');
  section.hidden = false;
  problem.textContent = '';
  setRouteStatus(`Reading the forecast for ${name}…`);
  section.dataset['state'] = 'loading';
  let result: ForecastRoute | null;
  try {
    result = await forecastFor(route);
  } catch (error) {
    if (!host.isCurrent()) return;
    if (error instanceof DOMException && error.name === 'AbortError') return;
    section.dataset['state'] = 'problem';
    problem.textContent =
      `${error instanceof ShownError ? error.message : 'The forecast could not be read; try again later.'} ` +
      'The typed wind still works: choose it above.';
    setRouteStatus('');
    return;
  }
  if (!host.isCurrent()) return;
  if (result === null) {
    section.dataset['state'] = 'problem';
    problem.textContent =
      'The forecast has no usable hours anywhere along this route; the typed wind still works: choose it above.';
    setRouteStatus('');
    return;
  }
  section.dataset['state'] = 'result';
  const closed = result.judgement.shape !== 'point_to_point';
  byId('route-forecast-source').textContent = sourceSentence(result);
  byId('route-forecast-demo').hidden = !result.forecast.demo;
  byId('route-forecast-attribution').textContent = result.forecast.attribution;
  const best = result.starts[0];
  const bestChosen = result.judgement.chosen[0];
  const lead = byId('route-forecast-lead');
  if (!best || !bestChosen) {
    lead.textContent = `No start to suggest in the next 3 days: ${STATUS_WORDS[result.judgement.status]}.`;
    byId('route-forecast-details').hidden = true;
    showMap(route, name, result.judgement.shape, false);
    // The lead above says it on screen: the status only announces it.
    setRouteStatus(`${name}: ${lead.textContent}`, false);
    return;
  }
  byId('route-forecast-details').hidden = false;
  const other = best.other_direction;
  lead.textContent = closed
    ? `Faster ${best.direction === 'reversed' ? 'reversed' : 'as given'} on this ${SHAPE_WORDS[result.judgement.shape]}. ` +
      `Best start ${startSentence(best, true, result.timeZone)}.` +
      (other === null ? ' The other way round does not fit the forecast from that start.' : '')
    : `Best start ${startSentence(best, false, result.timeZone)}.`;
  fillStarts(result, closed);
  fillFigures(best);
  drawChart('route-gain-chart', gainChart(result, closed));
  drawChart('route-km-chart', windChart(result));
  showMap(
    route,
    name,
    result.judgement.shape,
    bestChosen.reversed,
    bestChosen.wind.legs.map((leg) => leg.tailwindKmh),
  );
  // The lead above says it on screen: the status only announces it.
  setRouteStatus(`${name}: ${lead.textContent}`, false);
}
