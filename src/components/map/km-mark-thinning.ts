import type { ScreenBox } from './badge-spread.ts';

/** Pixels kept clear between two km labels shown. */
const GAP_PX = 4;

function apart(a: ScreenBox, b: ScreenBox): boolean {
  return (
    Math.abs(a.x - b.x) >= (a.width + b.width) / 2 + GAP_PX ||
    Math.abs(a.y - b.y) >= (a.height + b.height) / 2 + GAP_PX
  );
}

/**
 * Which km labels to show at the map's current zoom, in km order: the first
 * always, each later one only when it lies clear of every label already
 * shown. Zoomed out on a phone, a winding climb brought "2 km" onto "4 km";
 * the hidden marks come back as the rider zooms in.
 */
export function kmMarksToShow(boxes: readonly ScreenBox[]): boolean[] {
  const shown: ScreenBox[] = [];
  return boxes.map((box) => {
    const clear = shown.every((other) => apart(box, other));
    if (clear) shown.push(box);
    return clear;
  });
}
