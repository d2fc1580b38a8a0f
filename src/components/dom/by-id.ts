/**
 * The element with this id, or an error naming it: the page's markup and its script disagree, a
 * fault to see at once rather than a silent no-op. `T` may be an SVG element (the route's map).
 */
export function byId<T extends Element = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from the page`);
  return element as unknown as T;
}
