import { drawFallback } from './fallback-drawing.ts';
import type { MapPlan } from './map-plan.ts';

const SVG = 'http://www.w3.org/2000/svg';

/** An arrow pointing north, centred on 0,0; rotated to the direction of travel. */
const ARROW_PATH = 'M0 -7 L5.5 5 L0 2 L-5.5 5 Z';

function element<K extends keyof SVGElementTagNameMap>(
  name: K,
  attributes: Record<string, string | number>,
  parent: Element,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  parent.append(node);
  return node;
}

const END_LETTER = { start: 'S', finish: 'F', 'start-finish': 'S/F' } as const;

/**
 * The plain drawing shown where the basemap cannot be: the coloured line,
 * arrows, km marks and end markers on the page's background, no tiles. Sized
 * by its viewBox, so it fills the map's box at any width. `label` is read out
 * for the whole drawing; each end marker has its own title.
 */
export function fallbackSvg(plan: MapPlan, label: string, width = 640, height = 400): SVGSVGElement {
  const drawing = drawFallback(plan, { width, height, padding: 28 });
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  svg.classList.add('map-fallback');
  for (const path of drawing.paths) {
    element('path', { d: path.d, class: 'map-casing' }, svg);
    element('path', { d: path.d, stroke: path.colour, class: 'map-run' }, svg);
  }
  for (const arrow of drawing.arrows) {
    element(
      'path',
      {
        d: ARROW_PATH,
        class: 'map-arrow',
        transform: `translate(${arrow.x} ${arrow.y}) rotate(${arrow.rotateDeg})`,
      },
      svg,
    );
  }
  for (const mark of drawing.marks) {
    element('circle', { cx: mark.x, cy: mark.y, r: 3, class: 'map-mark-dot' }, svg);
    element('text', { x: mark.x + 6, y: mark.y - 6, class: 'map-mark-text' }, svg).textContent = mark.label;
  }
  if (drawing.place) {
    const group = element(
      'g',
      { class: 'map-place', transform: `translate(${drawing.place.x} ${drawing.place.y})` },
      svg,
    );
    element('title', {}, group).textContent = `Searched place: ${drawing.place.name}`;
    element('circle', { r: 6 }, group);
    element('text', { x: 10, y: 4 }, group).textContent = drawing.place.name;
  }
  for (const end of drawing.ends) {
    const group = element(
      'g',
      { class: `map-end map-end-${end.kind}`, transform: `translate(${end.x} ${end.y})` },
      svg,
    );
    element('title', {}, group).textContent = end.label;
    element('circle', { r: end.kind === 'start-finish' ? 11 : 9 }, group);
    element('text', { 'text-anchor': 'middle', 'dominant-baseline': 'central' }, group).textContent =
      end.badge ?? END_LETTER[end.kind];
  }
  return svg;
}
