import type { SegmentDetailResult, SegmentHour } from '../../rest/schemas/segment-results.ts';
import { drawChart } from '../charts/draw-chart.ts';
import { mountSegmentMap } from '../map/mount-map.ts';
import { getJson, showProblem } from './api-client.ts';
import { byId } from '../dom/by-id.ts';
import { el } from './dom.ts';
import { showForecastNotes } from './forecast-note.ts';
import { partTailwinds } from './line-wind.ts';
import { profileSpec, timelineSpec } from './segment-charts.ts';
import { localParts, segmentIdFromPath, signedKmh, windowStatusWords, windowText } from './segment-words.ts';
import { startWatchButton } from './watch-button.ts';

type Segment = SegmentDetailResult['segment'];

function facts(segment: Segment): HTMLElement {
  const rows: [string, string][] = [
    ['Length', `${segment.length_km} km`],
    ['Heading', `${Math.round(segment.bearing_deg)}° (start to finish)`],
    ['Climb', `${segment.elevation_gain_m} m`],
    ...(segment.avg_grade_pct === undefined
      ? []
      : ([['Average grade', `${segment.avg_grade_pct}%`]] as [string, string][])),
    ...(segment.max_grade_pct === undefined
      ? []
      : ([['Steepest 100 m', `${segment.max_grade_pct}%`]] as [string, string][])),
    ['Source', segment.made_from],
  ];
  return el(
    'dl',
    { className: 'segment-facts' },
    ...rows.map(([term, value]) => el('div', {}, el('dt', { text: term }), el('dd', { text: value }))),
  );
}

/** The full account of the data (ways, data date, climb rule, files, licence), folded away under the figures. */
function dataAndSource(segment: Segment): HTMLElement {
  const provenance = segment.provenance;
  const rows: [string, string][] = [
    ['How it was made', segment.source_note],
    ['Licence', segment.license],
    ...(provenance
      ? ([
          ['OpenStreetMap ways', provenance.osm_way_ids.join(', ')],
          ['OpenStreetMap data of', provenance.osm_data_date?.slice(0, 10) ?? 'unknown'],
          ['Read from', provenance.osm_source],
          ['Heights', provenance.elevation_source],
          ...(provenance.ranked_by ? ([['Ranked by', provenance.ranked_by]] as [string, string][]) : []),
        ] as [string, string][])
      : []),
  ];
  return el(
    'details',
    { className: 'data-and-source' },
    el('summary', { text: 'Data and source' }),
    el(
      'dl',
      {},
      ...rows.map(([term, value]) => el('div', {}, el('dt', { text: term }), el('dd', { text: value }))),
    ),
  );
}

/** The hour the map's colours show: the best window's strongest hour, else the first forecast hour. */
function mapHour(result: SegmentDetailResult): SegmentHour | undefined {
  const best = result.best_window;
  const inWindow = best ? result.hours.filter((hour) => hour.time >= best.start && hour.time < best.end) : [];
  const pool = inWindow.length > 0 ? inWindow : result.hours.slice(0, 1);
  return pool.reduce<SegmentHour | undefined>(
    (top, hour) => (!top || hour.signed_tailwind_kmh > top.signed_tailwind_kmh ? hour : top),
    undefined,
  );
}

function showNotFound(id: string | undefined, detail: string): void {
  byId('segment-loading').hidden = true;
  byId('segment-body').hidden = true;
  const box = byId('segment-not-found');
  byId('segment-not-found-detail').textContent =
    id === undefined ? 'This address names no segment.' : `${detail} The id was “${id}”.`;
  box.hidden = false;
  document.title = 'Segment not found · wind-on-segment';
}

/**
 * The /segments/<id> page. One static page serves every id (the server
 * rewrites /segments/* to it), so it reads the id from its own path, asks
 * `GET /v1/segments/{id}` and draws the map, the profile and the timeline.
 */
export async function startDetailPage(): Promise<void> {
  const id = segmentIdFromPath(location.pathname);
  if (id === undefined) {
    showNotFound(undefined, '');
    return;
  }
  const answer = await getJson<SegmentDetailResult>(`/v1/segments/${encodeURIComponent(id)}`);
  if (!answer.ok) {
    if (answer.problem.status === 404 || answer.problem.status === 400) {
      showNotFound(id, answer.problem.detail);
      return;
    }
    byId('segment-loading').hidden = true;
    byId('segment-body').hidden = true;
    showProblem(byId('segment-failed'), answer.problem);
    return;
  }
  const result = answer.body;
  const { segment } = result;
  byId('segment-loading').hidden = true;
  byId('segment-title').textContent = segment.name;
  document.title = `${segment.name} · wind-on-segment`;
  byId('segment-facts').replaceChildren(facts(segment), dataAndSource(segment));
  const windless = result.forecast.unavailable !== undefined;
  // Without the wind, the forecast note says why once; the map, figures and profile still show.
  byId('segment-best').textContent = windless
    ? ''
    : result.best_window
      ? `Best window ${windowText(result.best_window)}: ${signedKmh(result.best_window.signed_tailwind_kmh)} along the segment on average (strongest hour ${signedKmh(result.best_window.peak_tailwind_kmh)}).`
      : windowStatusWords(result.window_status);
  showForecastNotes(byId('segment-forecast'), byId('segment-credits'), result.forecast, result.attribution);
  // Said in the page's own words from the structured field: the API's `note` is written for integrators (a URL, MCP tool names).
  byId('segment-ensemble-locked').hidden = !result.ensemble.locked;

  const hour = mapHour(result);
  byId('segment-map-hour').textContent = windless
    ? ''
    : hour
      ? `The line is coloured by the wind on each stretch on ${localParts(hour.time_local).day} at ${localParts(hour.time_local).clock}${result.best_window ? ', the strongest hour of the best window' : ''}.`
      : 'No forecast hour is known, so the line is drawn without wind colours.';

  byId('segment-timeline-section').hidden = windless;
  if (!windless) drawChart('segment-timeline', timelineSpec(result.hours, result.best_window, segment.name));
  if (segment.profile && segment.profile.length >= 2) {
    drawChart('segment-profile', profileSpec(segment.profile, segment.name));
  } else {
    byId('segment-profile').hidden = true;
    byId('segment-profile-none').hidden = false;
  }
  void startWatchButton(segment.id, segment.name);
  await mountSegmentMap(byId('segment-map'), {
    details: true,
    lines: [
      {
        coordinates: segment.line,
        name: segment.name,
        ...(hour
          ? {
              values: partTailwinds(segment.line, {
                speedKmh: hour.wind_speed_kmh,
                directionDeg: hour.wind_direction_deg,
              }),
            }
          : {}),
      },
    ],
  });
}
