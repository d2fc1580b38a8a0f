/** A marker's box on screen: its centre and size in CSS pixels. */
export interface ScreenBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Pixels kept between two badges moved apart, and the step they move by. */
const GAP_PX = 2;
const STEP_PX = 2;

function overlaps(a: ScreenBox, b: ScreenBox): boolean {
  return (
    Math.abs(a.x - b.x) < (a.width + b.width) / 2 + GAP_PX && Math.abs(a.y - b.y) < (a.height + b.height) / 2
  );
}

/**
 * How far right to move each badge so none covers another, in list order:
 * the first never moves, each later one moves just past the badges already
 * placed. Segments near a town often start a few hundred metres apart, and at
 * the zoom that shows them all their numbered start markers lay on one
 * another, so "7" hid under "10". A badge moves at most `maxShiftPx`; past
 * that it stays where it is, overlapping (a pile that long is a zoom-in case).
 */
export function spreadBadges(boxes: readonly ScreenBox[], maxShiftPx = 240): number[] {
  const placed: ScreenBox[] = [];
  return boxes.map((box) => {
    let shift = 0;
    while (shift <= maxShiftPx && placed.some((other) => overlaps(other, { ...box, x: box.x + shift }))) {
      shift += STEP_PX;
    }
    const dx = shift <= maxShiftPx ? shift : 0;
    placed.push({ ...box, x: box.x + dx });
    return dx;
  });
}
