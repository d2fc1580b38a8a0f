import type { NearSegment, SegmentsNearResult } from '../../rest/schemas/segment-results.ts';
import { mountSegmentMap } from '../map/mount-map.ts';
import { getJson, showProblem } from './api-client.ts';
import { byId } from '../dom/by-id.ts';
import { el } from './dom.ts';
import { showForecastNotes } from './forecast-note.ts';
import { segmentsQuery, signedKmh, windowStatusWords, windowText } from './segment-words.ts';

/** The widest search the API takes, offered when nothing lies within the radius asked. */
const WIDEST_RADIUS_KM = 100;

function segmentItem(segment: NearSegment, index: number, windless: boolean): HTMLLIElement {
  const facts = [
    `${segment.distance_km} km away`,
    `${segment.length_km} km long`,
    `heading ${Math.round(segment.bearing_deg)}°`,
    ...(segment.avg_grade_pct === undefined ? [] : [`${segment.avg_grade_pct}% average`]),
  ].join(' · ');
  // Without the wind the page says why once, above the list, instead of on every segment.
  const window = windless
    ? ''
    : segment.best_window
      ? el(
          'p',
          { className: 'segment-window' },
          el('strong', { text: `Best window ${windowText(segment.best_window)}` }),
          `: ${signedKmh(segment.best_window.signed_tailwind_kmh)} along the segment.`,
        )
      : el('p', { className: 'segment-window muted', text: windowStatusWords(segment.window_status) });
  const source =
    segment.source === 'discovered'
      ? el('p', { className: 'segment-source muted', text: 'Found from OpenStreetMap roads (ODbL).' })
      : '';
  return el(
    'li',
    { className: 'segment-item card' },
    el(
      'h3',
      {},
      // The number on the segment's start marker on the map.
      el('span', { className: 'segment-badge', text: String(index + 1), attrs: { 'aria-hidden': 'true' } }),
      el('a', { href: `/segments/${encodeURIComponent(segment.id)}`, text: segment.name }),
    ),
    el('p', { className: 'segment-facts muted', text: facts }),
    window,
    source,
  );
}

function alternativesBlock(result: SegmentsNearResult): HTMLElement | '' {
  const { place } = result;
  if (!place.ambiguous || place.alternatives.length === 0) return '';
  return el(
    'div',
    { className: 'alternatives' },
    el('p', {
      text: `Other places are called ${place.name.split(',')[0] ?? place.name}. Did you mean one of these?`,
    }),
    el(
      'ul',
      {},
      ...place.alternatives.map((alternative) =>
        el(
          'li',
          {},
          el('a', {
            href: `/segments?place=${encodeURIComponent(alternative.name)}`,
            text: alternative.region ? `${alternative.name} (${alternative.region})` : alternative.name,
          }),
        ),
      ),
    ),
  );
}

function emptyBlock(result: SegmentsNearResult, search: URLSearchParams): HTMLElement {
  const why =
    result.mapping ?? `No catalog segment lies within ${result.radius_km} km of ${result.place.name}.`;
  const tries: (HTMLElement | string)[] = ['Try a larger town nearby, or coordinates on a road you ride'];
  if (result.radius_km < WIDEST_RADIUS_KM) {
    const wider = new URLSearchParams(search);
    wider.set('radius_km', String(WIDEST_RADIUS_KM));
    tries.push(
      ', or ',
      el('a', { href: `/segments?${wider.toString()}`, text: `search ${WIDEST_RADIUS_KM} km around` }),
    );
  }
  tries.push('.');
  return el('div', { className: 'empty card' }, el('p', { text: why }), el('p', {}, ...tries));
}

/**
 * The /segments page: reads the place from its own URL (so a search is a
 * link to share), asks `GET /v1/segments`, and shows the answer as a list and
 * a map. The form is a plain GET to this page, so searching works like a link.
 */
export async function startSearchPage(): Promise<void> {
  const search = new URLSearchParams(location.search);
  const input = byId<HTMLInputElement>('segments-place');
  const status = byId('segments-status');
  const failure = byId('segments-failed');
  const results = byId('segments-results');
  input.value =
    search.get('place') ?? (search.has('lat') ? `${search.get('lat')}, ${search.get('lon')}` : '');
  const query = segmentsQuery(search);
  if (!query) return;
  status.textContent = 'Looking for segments…';
  const answer = await getJson<SegmentsNearResult>(`/v1/segments?${query.toString()}`);
  status.textContent = '';
  if (!answer.ok) {
    showProblem(failure, answer.problem);
    return;
  }
  const result = answer.body;
  const placeName =
    result.place.country && !result.place.name.includes(',')
      ? `${result.place.name}, ${result.place.country}`
      : result.place.name;
  const outside = result.segments.length > 0 && result.segments.every((segment) => !segment.within_radius);
  // A list whose segments all lie beyond the radius says so in its heading, and the API's headline says how far.
  const heading = outside ? `Nearest segments to ${placeName}` : `Segments near ${placeName}`;
  byId('segments-heading').textContent = heading;
  document.title = `${heading} · wind-on-segment`;
  byId('segments-alternatives').replaceChildren(alternativesBlock(result));
  showForecastNotes(byId('segments-forecast'), byId('segments-credits'), result.forecast, result.attribution);
  const list = byId('segments-list');
  const map = byId('segments-map');
  results.hidden = false;
  if (result.segments.length === 0) {
    list.replaceChildren(emptyBlock(result, search));
    map.hidden = true;
    status.textContent = `${result.headline}.`;
    return;
  }
  list.replaceChildren(
    el(
      'ol',
      { className: 'segment-list' },
      ...result.segments.map((segment, index) =>
        segmentItem(segment, index, result.forecast.unavailable !== undefined),
      ),
    ),
  );
  status.textContent = `${result.headline}.`;
  await mountSegmentMap(map, {
    details: false,
    place: {
      position: [result.place.lon, result.place.lat],
      name: result.place.name.split(',')[0] ?? placeName,
    },
    lines: result.segments.map((segment, index) => ({
      coordinates: segment.line,
      name: segment.name,
      badge: String(index + 1),
      ...(segment.best_window ? { values: [segment.best_window.signed_tailwind_kmh] } : {}),
    })),
  });
}
