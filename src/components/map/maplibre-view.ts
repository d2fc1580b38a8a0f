import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import {
  Map as MapLibreMap,
  Marker,
  NavigationControl,
  setWorkerUrl,
  type GeoJSONSourceSpecification,
} from 'maplibre-gl';
import { spreadBadges } from './badge-spread.ts';
import type { LonLat } from './map-input.ts';
import { kmMarksToShow } from './km-mark-thinning.ts';
import { kmLabel, type MapPlan } from './map-plan.ts';

/**
 * The MapLibre half of the map module, loaded with `import()` only once a
 * page with a map has painted: about 280 KB gzip that no other page pays
 * for. Its worker is a file of the site (`?url`), so the CSP needs no
 * `blob:` worker and `script-src 'self'` covers it.
 */

export interface MapLibreOptions {
  readonly styleUrl: string;
  /** Extra attribution HTML (the default tiles' licences); undefined for an operator's style, which carries its own. */
  readonly attribution: string | undefined;
  /** Milliseconds to wait for the style and first tiles before giving up. */
  readonly timeoutMs: number;
}

/** A map on the page; `remove` frees its WebGL context. */
export interface ShownMap {
  remove(): void;
}

function runsAsGeoJson(plan: MapPlan): GeoJSONSourceSpecification['data'] {
  const features = plan.lines.flatMap((line) =>
    line.runs.map((run) => ({
      type: 'Feature' as const,
      properties: { colour: run.colour },
      geometry: { type: 'LineString' as const, coordinates: run.coordinates.map(([lon, lat]) => [lon, lat]) },
    })),
  );
  return { type: 'FeatureCollection' as const, features };
}

function markerElement(className: string, text: string, title: string): HTMLElement {
  const node = document.createElement('div');
  node.className = className;
  node.textContent = text;
  node.title = title;
  return node;
}

/** The longest wait for the line to be drawn once the map has loaded; past it the map counts as shown anyway. */
const LINE_DRAWN_MS = 3_000;

const END_TEXT = { start: 'Start', finish: 'Finish', 'start-finish': 'Start · finish' } as const;

function addMarkers(map: MapLibreMap, plan: MapPlan): void {
  const at = (position: LonLat): [number, number] => [position[0], position[1]];
  const ends: Marker[] = [];
  const kms: Marker[] = [];
  for (const line of plan.lines) {
    for (const arrow of line.arrows) {
      const node = markerElement('map-arrow-marker', '', `${line.name}: direction of travel`);
      node.setAttribute('aria-hidden', 'true');
      new Marker({ element: node, rotation: arrow.bearingDeg, rotationAlignment: 'map' })
        .setLngLat(at(arrow.position))
        .addTo(map);
    }
    for (const mark of line.marks) {
      const node = markerElement('map-km-marker', kmLabel(mark.km), `${kmLabel(mark.km)} from the start`);
      kms.push(new Marker({ element: node, offset: [0, -14] }).setLngLat(at(mark.position)).addTo(map));
    }
    for (const end of line.ends) {
      const node = markerElement(
        `map-end-marker map-end-${end.kind}`,
        end.badge ?? END_TEXT[end.kind],
        end.label,
      );
      ends.push(new Marker({ element: node }).setLngLat(at(end.position)).addTo(map));
    }
  }
  if (plan.place) {
    const node = markerElement('map-place-marker', plan.place.name, `Searched place: ${plan.place.name}`);
    new Marker({ element: node, anchor: 'bottom' }).setLngLat(at(plan.place.position)).addTo(map);
  }
  // Start and finish badges never sit on one another: moved apart now, and again after each move or zoom.
  const spread = () => {
    const boxes = ends.map((marker) => {
      const { x, y } = map.project(marker.getLngLat());
      const node = marker.getElement();
      return { x, y, width: node.offsetWidth, height: node.offsetHeight };
    });
    spreadBadges(boxes).forEach((dx, index) => ends[index]?.setOffset([dx, 0]));
    // Km labels that would touch at this zoom are hidden, the earlier kept.
    const kmBoxes = kms.map((marker) => {
      const { x, y } = map.project(marker.getLngLat());
      const node = marker.getElement();
      node.hidden = false;
      return { x, y, width: node.offsetWidth, height: node.offsetHeight };
    });
    kmMarksToShow(kmBoxes).forEach((show, index) => {
      const node = kms[index]?.getElement();
      if (node) node.hidden = !show;
    });
  };
  spread();
  map.on('moveend', spread);
}

/**
 * Draws the plan over the basemap in `container` and resolves once the map
 * has loaded and drawn the line (its first `idle`, at most `LINE_DRAWN_MS`). Rejects (and removes the map) when the style or its tiles fail
 * before that, or after `timeoutMs`: the caller then shows the plain drawing.
 */
export function showMapLibreMap(
  container: HTMLElement,
  plan: MapPlan,
  options: MapLibreOptions,
): Promise<ShownMap> {
  setWorkerUrl(workerUrl);
  const bounds = plan.bounds;
  const map = new MapLibreMap({
    container,
    style: options.styleUrl,
    ...(bounds ? { bounds: [bounds[0][0], bounds[0][1], bounds[1][0], bounds[1][1]] } : {}),
    // More room at the bottom: the attribution spans two lines there on a phone and hid the line's end.
    fitBoundsOptions: { padding: { top: 48, right: 48, bottom: 80, left: 48 }, maxZoom: 15 },
    attributionControl: {
      compact: true,
      ...(options.attribution ? { customAttribution: options.attribution } : {}),
    },
    // One finger scrolls the page on a phone; two move the map. The page stays readable past the map.
    cooperativeGestures: true,
  });
  map.addControl(new NavigationControl({ showCompass: false }), 'top-right');
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (reason: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      map.remove();
      reject(new Error(reason));
    };
    const timer = setTimeout(
      () => fail(`the map did not load within ${options.timeoutMs} ms`),
      options.timeoutMs,
    );
    map.on('error', (event) => fail(event.error.message));
    map.on('load', () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      map.addSource('wind-line', { type: 'geojson', data: runsAsGeoJson(plan) });
      map.addLayer({
        id: 'wind-line-casing',
        type: 'line',
        source: 'wind-line',
        layout: { 'line-cap': 'round', 'line-join': 'round' },
        paint: { 'line-color': '#ffffff', 'line-width': 8 },
      });
      map.addLayer({
        id: 'wind-line',
        type: 'line',
        source: 'wind-line',
        layout: { 'line-cap': 'round', 'line-join': 'round' },
        paint: { 'line-color': ['get', 'colour'], 'line-width': 5 },
      });
      addMarkers(map, plan);
      // The line is drawn once its source has been cut into tiles (in the worker): "map" then
      // means the line is on screen, which the screenshot script and the browser tests wait for.
      const shown = { remove: () => map.remove() };
      const drawn = setTimeout(() => resolve(shown), LINE_DRAWN_MS);
      map.once('idle', () => {
        clearTimeout(drawn);
        resolve(shown);
      });
    });
  });
}
