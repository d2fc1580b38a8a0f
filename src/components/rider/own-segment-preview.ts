/**
 * The preview of a picked file on the settings page, loaded only when a file
 * is picked (a dynamic import, so the route readers stay out of the page's
 * first script). It reads the file with the very code the server runs before
 * storing (`src/core/own-segment.ts`), so the figures shown are the figures
 * saved, and draws the simplified line as an SVG polyline: no map tiles.
 */
import { compassPoint } from '../../core/compass.ts';
import { prepareOwnSegment, type OwnSegmentSource, type PreparedSegment } from '../../core/own-segment.ts';
import { asSentence, RouteInputError } from '../../core/route/route-error.ts';

export type PreviewResult =
  | { readonly ok: true; readonly segment: PreparedSegment; readonly format: 'gpx' | 'geojson' }
  | { readonly ok: false; readonly message: string };

/** By the file's extension, else by its first character. */
export function formatOf(fileName: string, text: string): 'gpx' | 'geojson' {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.gpx')) return 'gpx';
  if (lower.endsWith('.geojson') || lower.endsWith('.json')) return 'geojson';
  return /^\s*[{[]/.test(text) ? 'geojson' : 'gpx';
}

export function previewText(fileName: string, text: string): PreviewResult {
  const format = formatOf(fileName, text);
  try {
    return { ok: true, segment: prepareOwnSegment(format satisfies OwnSegmentSource, text), format };
  } catch (error) {
    if (error instanceof RouteInputError) return { ok: false, message: asSentence(error.message) };
    return { ok: false, message: 'This file could not be read as GPX or GeoJSON.' };
  }
}

/** The figures as the page lists them. */
export function figureTexts(
  segment: PreparedSegment,
): Record<'distance' | 'climbing' | 'grade' | 'bearing', string> {
  return {
    distance: `${(segment.distanceM / 1000).toFixed(2)} km`,
    climbing: segment.elevationCoverage > 0 ? `${Math.round(segment.gainM)} m` : 'no elevation in the file',
    grade: segment.elevationCoverage > 0 ? `${segment.gradePct.toFixed(1)} %` : '—',
    bearing: `${Math.round(segment.bearingDeg)}° (${compassPoint(segment.bearingDeg)})`,
  };
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const WIDTH = 320;
const HEIGHT = 200;
const PAD = 12;

/**
 * Points to SVG coordinates: an equirectangular projection around the
 * line's mean latitude, longitudes unwrapped so a line across the
 * antimeridian stays in one piece, scaled to fit with the aspect kept.
 */
export function svgPoints(points: readonly { lat: number; lon: number }[]): [number, number][] {
  const meanLat = points.reduce((sum, p) => sum + p.lat, 0) / Math.max(1, points.length);
  const k = Math.cos((meanLat * Math.PI) / 180);
  let lon = points[0]?.lon ?? 0;
  let previous = lon;
  const xy = points.map((p) => {
    const step = ((((p.lon - previous) % 360) + 540) % 360) - 180;
    lon += step;
    previous = p.lon;
    return [lon * k, -p.lat] as [number, number];
  });
  const xs = xy.map(([x]) => x);
  const ys = xy.map(([, y]) => y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const scale = Math.min((WIDTH - 2 * PAD) / (maxX - minX || 1), (HEIGHT - 2 * PAD) / (maxY - minY || 1));
  const offX = (WIDTH - (maxX - minX) * scale) / 2;
  const offY = (HEIGHT - (maxY - minY) * scale) / 2;
  return xy.map(([x, y]) => [
    Math.round((offX + (x - minX) * scale) * 10) / 10,
    Math.round((offY + (y - minY) * scale) * 10) / 10,
  ]);
}

/** The line, its start (filled) and its end (ring), with a text alternative. */
export function previewSvg(segment: PreparedSegment, label: string): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  svg.classList.add('segment-preview');
  const xy = svgPoints(segment.points);
  const line = document.createElementNS(SVG_NS, 'polyline');
  line.setAttribute('points', xy.map(([x, y]) => `${x},${y}`).join(' '));
  line.setAttribute('class', 'preview-line');
  svg.append(line);
  const marker = (at: [number, number] | undefined, kind: string) => {
    if (!at) return;
    const dot = document.createElementNS(SVG_NS, 'circle');
    dot.setAttribute('cx', String(at[0]));
    dot.setAttribute('cy', String(at[1]));
    dot.setAttribute('r', '5');
    dot.setAttribute('class', kind);
    svg.append(dot);
  };
  marker(xy[0], 'preview-start');
  marker(xy.at(-1), 'preview-end');
  return svg;
}
