import { PNG } from 'pngjs';

/**
 * The picture a link to a segment's page shows in a chat or a feed (its
 * Open Graph image): the road as seen from above on the left, its elevation
 * profile on the right, 1200 × 630 px, the 1.91 : 1 that link previews crop
 * to. The title and figures travel beside it in the page's own tags, so the
 * picture carries no text and needs no font.
 *
 * Drawn here rather than by a canvas or SVG renderer: those are native
 * addons or a WebAssembly module of megabytes, which the one-file Vercel
 * functions cannot carry cheaply, for two shapes (a thick line and a filled
 * profile). The pixels are coverage-antialiased; pngjs encodes them.
 */

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

type Rgb = readonly [number, number, number];

const BACKGROUND: Rgb = [247, 249, 251];
const ROAD: Rgb = [29, 78, 137];
const START: Rgb = [22, 128, 61];
const END: Rgb = [185, 28, 28];
const PROFILE_FILL: Rgb = [191, 214, 236];
const PROFILE_LINE: Rgb = [29, 78, 137];

/** The panels, in pixels: the map on the left, the profile on the right; the map alone takes the card. */
const MARGIN = 48;
const MAP_SIZE = CARD_HEIGHT - 2 * MARGIN;
const PROFILE_LEFT = MARGIN + MAP_SIZE + 64;
const PROFILE_TOP = 120;
const PROFILE_BOTTOM = CARD_HEIGHT - MARGIN;

/** The profile panel's least height in metres, so 6 m of a flat stretch do not look like a climb. */
const MIN_PROFILE_RISE_M = 150;

export interface CardProfilePoint {
  readonly distance_km: number;
  readonly elevation_m: number;
}

/** One layer's coverage of each pixel (0–1), painted onto the card in one colour. */
class Layer {
  readonly cover = new Float32Array(CARD_WIDTH * CARD_HEIGHT);
  /** The first and past-last pixel touched, so painting reads only those. */
  private from = Infinity;
  private to = 0;

  /** A line `width` px wide from (ax, ay) to (bx, by), round at its ends. */
  segment(ax: number, ay: number, bx: number, by: number, width: number): void {
    const half = width / 2;
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx) - half - 1));
    const x1 = Math.min(CARD_WIDTH - 1, Math.ceil(Math.max(ax, bx) + half + 1));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by) - half - 1));
    const y1 = Math.min(CARD_HEIGHT - 1, Math.ceil(Math.max(ay, by) + half + 1));
    const dx = bx - ax;
    const dy = by - ay;
    const lengthSq = dx * dx + dy * dy;
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const px = x + 0.5 - ax;
        const py = y + 0.5 - ay;
        const t = lengthSq === 0 ? 0 : Math.min(1, Math.max(0, (px * dx + py * dy) / lengthSq));
        const distance = Math.hypot(px - t * dx, py - t * dy);
        this.add(x, y, half + 0.5 - distance);
      }
    }
  }

  /** A filled disc. */
  disc(cx: number, cy: number, radius: number): void {
    this.segment(cx, cy, cx, cy, radius * 2);
  }

  /** The area under `top(x)` down to `bottom`, for x in [left, right). */
  under(left: number, right: number, bottom: number, top: (x: number) => number): void {
    for (let x = Math.max(0, Math.floor(left)); x < Math.min(CARD_WIDTH, Math.ceil(right)); x++) {
      const edge = top(x + 0.5);
      for (let y = Math.max(0, Math.floor(edge)); y < Math.min(CARD_HEIGHT, bottom); y++) {
        this.add(x, y, y + 1 - edge);
      }
    }
  }

  private add(x: number, y: number, coverage: number): void {
    if (coverage <= 0) return;
    const i = y * CARD_WIDTH + x;
    this.cover[i] = Math.max(this.cover[i] ?? 0, Math.min(1, coverage));
    if (i < this.from) this.from = i;
    if (i >= this.to) this.to = i + 1;
  }

  /** Blends this layer's colour onto the image by its coverage. */
  paint(png: PNG, [r, g, b]: Rgb): void {
    for (let i = this.from; i < this.to; i++) {
      const a = this.cover[i] ?? 0;
      if (a === 0) continue;
      const o = i * 4;
      png.data[o] = Math.round((png.data[o] ?? 0) * (1 - a) + r * a);
      png.data[o + 1] = Math.round((png.data[o + 1] ?? 0) * (1 - a) + g * a);
      png.data[o + 2] = Math.round((png.data[o + 2] ?? 0) * (1 - a) + b * a);
    }
  }
}

/**
 * The road's points in pixels, fitted into a square panel with north up: an
 * equirectangular view scaled by the cosine of the middle latitude (right for
 * the few kilometres of a segment), longitudes taken relative to the first
 * point so a road across the antimeridian stays in one piece.
 */
function mapPoints(line: readonly (readonly [number, number])[], left: number, size: number) {
  const [lon0 = 0] = line[0] ?? [];
  const unwrapped = line.map(
    ([lon, lat]) => [lon0 + ((((lon - lon0) % 360) + 540) % 360) - 180, lat] as const,
  );
  const lats = unwrapped.map(([, lat]) => lat);
  const midLat = ((Math.min(...lats) + Math.max(...lats)) / 2) * (Math.PI / 180);
  const xs = unwrapped.map(([lon]) => lon * Math.cos(midLat));
  const ys = lats.map((lat) => -lat);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const span = Math.max(maxX - minX, maxY - minY) || 1;
  const scale = size / span;
  const offsetX = left + (size - (maxX - minX) * scale) / 2;
  const offsetY = MARGIN + (size - (maxY - minY) * scale) / 2;
  return xs.map((x, i) => [offsetX + (x - minX) * scale, offsetY + ((ys[i] ?? 0) - minY) * scale] as const);
}

/** The profile's top edge as a function of the pixel column, over [left, right). */
function profileEdge(profile: readonly CardProfilePoint[], left: number, right: number) {
  const last = profile.at(-1)?.distance_km ?? 0;
  const heights = profile.map((p) => p.elevation_m);
  const low = Math.min(...heights);
  // A climb fills the panel; a flat road stays flat: the panel is never less than this many metres tall.
  const rise = Math.max(Math.max(...heights) - low, MIN_PROFILE_RISE_M);
  const toY = (elevation: number) =>
    PROFILE_BOTTOM - 2 - ((elevation - low) / rise) * (PROFILE_BOTTOM - PROFILE_TOP);
  return (x: number): number => {
    const d = ((x - left) / (right - left)) * last;
    const k = Math.max(
      1,
      profile.findIndex((p) => p.distance_km >= d),
    );
    const a = profile[k - 1] as CardProfilePoint;
    const b = profile[k] ?? a;
    const t = b.distance_km === a.distance_km ? 0 : (d - a.distance_km) / (b.distance_km - a.distance_km);
    return toY(a.elevation_m + t * (b.elevation_m - a.elevation_m));
  };
}

/**
 * The card of a segment: `line` as [longitude, latitude] pairs in riding
 * order, `profile` its heights along the road (null when none could be
 * read: the map then takes the whole card). Returns the PNG file's bytes.
 */
export function segmentCardPng(
  line: readonly (readonly [number, number])[],
  profile: readonly CardProfilePoint[] | null,
): Buffer {
  const png = new PNG({ width: CARD_WIDTH, height: CARD_HEIGHT, colorType: 2 });
  png.data.fill(Buffer.from([...BACKGROUND, 255]));
  const withProfile = profile !== null && profile.length >= 2;
  const mapLeft = withProfile ? MARGIN : (CARD_WIDTH - MAP_SIZE) / 2;
  const points = mapPoints(line, mapLeft, MAP_SIZE);

  if (withProfile) {
    const right = CARD_WIDTH - MARGIN;
    const edge = profileEdge(profile, PROFILE_LEFT, right);
    const fill = new Layer();
    fill.under(PROFILE_LEFT, right, PROFILE_BOTTOM, edge);
    fill.paint(png, PROFILE_FILL);
    const outline = new Layer();
    for (let x = PROFILE_LEFT; x < right - 1; x++) outline.segment(x, edge(x), x + 1, edge(x + 1), 4);
    outline.paint(png, PROFILE_LINE);
  }

  const road = new Layer();
  for (let i = 1; i < points.length; i++) {
    const [ax, ay] = points[i - 1] as readonly [number, number];
    const [bx, by] = points[i] as readonly [number, number];
    road.segment(ax, ay, bx, by, 10);
  }
  road.paint(png, ROAD);
  const [first, last] = [points[0], points.at(-1)];
  for (const [point, colour] of [
    [last, END],
    [first, START],
  ] as const) {
    if (!point) continue;
    const dot = new Layer();
    dot.disc(point[0], point[1], 14);
    dot.paint(png, colour);
  }
  // One filter for every row: a card is flat colour, so trying all five per row (the default) doubles the time for no size.
  return PNG.sync.write(png, { colorType: 2, filterType: 1 });
}
