import { PNG } from 'pngjs';
import { describe, expect, it, vi } from 'vitest';
import { CARD_HEIGHT, CARD_WIDTH, segmentCardPng } from '../../src/rest/segment-card.ts';
import { cardReply } from '../../src/rest/segment-page.ts';
import type { SegmentDetailResult } from '../../src/rest/schemas/segment-results.ts';

// The drawing itself, counted: the page keeps what it drew.
vi.mock(import('../../src/rest/segment-card.ts'), async (original) => {
  const module = await original();
  return { ...module, segmentCardPng: vi.fn(module.segmentCardPng) };
});

type Line = [number, number][];

/** A road north-east out of a valley: a few hairpins, then straight. */
const climb: Line = [
  [1.52, 42.5],
  [1.525, 42.503],
  [1.521, 42.506],
  [1.527, 42.509],
  [1.523, 42.512],
  [1.54, 42.52],
];
const rising = Array.from({ length: 40 }, (_, i) => ({ distance_km: i * 0.2, elevation_m: 1000 + i * 15 }));
const flat = Array.from({ length: 40 }, (_, i) => ({ distance_km: i * 0.2, elevation_m: 300 + (i % 3) }));

const read = (bytes: Buffer) => PNG.sync.read(bytes);
const pixel = (png: PNG, x: number, y: number) => [
  ...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3),
];
const isGreen = ([r, g, b]: number[]) => (g ?? 0) > (r ?? 0) + 60 && (g ?? 0) > (b ?? 0) + 40;
const isRed = ([r, g, b]: number[]) => (r ?? 0) > (g ?? 0) + 100 && (r ?? 0) > (b ?? 0) + 100;

/** The topmost row in column `x` that is not the background. */
function topOfColumn(png: PNG, x: number): number {
  const background = pixel(png, CARD_WIDTH - 2, 2).join();
  for (let y = 0; y < png.height; y++) if (pixel(png, x, y).join() !== background) return y;
  return png.height;
}

/** The columns holding the map's start and end dots (green and red), scanning the whole card. */
function dots(png: PNG) {
  let green: [number, number] | null = null;
  let red: [number, number] | null = null;
  for (let y = 0; y < png.height; y += 2) {
    for (let x = 0; x < png.width; x += 2) {
      const p = pixel(png, x, y);
      if (!green && isGreen(p)) green = [x, y];
      if (!red && isRed(p)) red = [x, y];
    }
  }
  return { green, red };
}

describe('the picture a shared link to a segment shows', () => {
  it('is a 1200 × 630 PNG, the same bytes for the same segment', () => {
    const bytes = segmentCardPng(climb, rising);
    const png = read(bytes);
    expect([png.width, png.height]).toEqual([CARD_WIDTH, CARD_HEIGHT]);
    expect(segmentCardPng(climb, rising).equals(bytes)).toBe(true);
  });

  it('draws the start green and the top red, north up: this road runs north-east, so the top is up and right', () => {
    const { green, red } = dots(read(segmentCardPng(climb, rising)));
    expect(green).not.toBeNull();
    expect(red).not.toBeNull();
    expect((red as [number, number])[0]).toBeGreaterThan((green as [number, number])[0]);
    expect((red as [number, number])[1]).toBeLessThan((green as [number, number])[1]);
    // Both on the left half: the right holds the profile.
    expect((red as [number, number])[0]).toBeLessThan(CARD_WIDTH / 2);
  });

  it('fills the profile up to the top of its panel for a climb and keeps a flat road flat', () => {
    const climbCard = read(segmentCardPng(climb, rising));
    const flatCard = read(segmentCardPng(climb, flat));
    const [early, late] = [700, 1140];
    // The climb's profile rises from left to right, and reaches high.
    expect(topOfColumn(climbCard, late)).toBeLessThan(topOfColumn(climbCard, early) - 300);
    // 2 m of wobble on a flat road stays within a few pixels of the panel's floor.
    expect(Math.abs(topOfColumn(flatCard, late) - topOfColumn(flatCard, early))).toBeLessThan(12);
    expect(topOfColumn(flatCard, late)).toBeGreaterThan(CARD_HEIGHT - 80);
  });

  it('centres the map on the card when no heights could be read', () => {
    const { green, red } = dots(read(segmentCardPng(climb, null)));
    const xs = [(green as [number, number])[0], (red as [number, number])[0]];
    expect(Math.min(...xs)).toBeGreaterThan(CARD_WIDTH / 4);
    expect(Math.max(...xs)).toBeLessThan((CARD_WIDTH * 3) / 4);
  });

  it('draws a road across the antimeridian in one piece, as it draws the same road a degree west', () => {
    const across: Line = [
      [179.995, -16.5],
      [-179.998, -16.49],
      [-179.99, -16.48],
    ];
    const west = across.map(([lon, lat]) => [lon - 1 < -180 ? lon + 359 : lon - 1, lat] as [number, number]);
    expect(segmentCardPng(across, rising).equals(segmentCardPng(west, rising))).toBe(true);
  });

  it('is drawn once per shape: the same segment again is the same picture, a new line a new one', () => {
    const segment = (line: Line) =>
      ({ id: 'ad-test', line, profile: rising }) as unknown as SegmentDetailResult['segment'];
    const bytes = (line: Line) => Buffer.from(cardReply(segment(line), false).body as Uint8Array);
    const draws = vi.mocked(segmentCardPng);
    draws.mockClear();
    const first = bytes(climb);
    expect(bytes(climb).equals(first)).toBe(true);
    expect(draws).toHaveBeenCalledTimes(1);
    const moved = climb.map(([lon, lat]) => [lon + 0.01, lat] as [number, number]);
    const other = bytes(moved.toReversed());
    expect(other.equals(first)).toBe(false);
    expect(draws).toHaveBeenCalledTimes(2);
    expect(other.equals(segmentCardPng(moved.toReversed(), rising))).toBe(true);
    expect(cardReply(segment(climb), true).body).toBeNull();
  });
});
