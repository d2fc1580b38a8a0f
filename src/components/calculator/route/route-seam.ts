/**
 * What the home page ships for routes up front: event wiring only. The route
 * code (GPX and GeoJSON readers, the wind maths, the drawing) is a separate
 * chunk behind a dynamic `import()`, fetched the first time a rider gives a
 * route, so the page's initial JavaScript grows by a few hundred bytes.
 */

/** A route as the rider gave it: files picked or dropped, or pasted text. */
export type RouteSource =
  | { readonly kind: 'files'; readonly files: readonly File[] }
  | { readonly kind: 'text'; readonly text: string };

type RouteView = typeof import('./route-view.ts');

let view: Promise<RouteView> | undefined;

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`route: #${id} is missing`);
  return found as T;
}

function show(source: RouteSource): void {
  view ??= import('./route-view.ts');
  view.then(
    (module) => module.showRoute(source),
    () => {
      view = undefined;
      element('route-error').textContent =
        'The route tools could not load. Check the connection and try again.';
    },
  );
}

/** Wires the route inputs, when the page has them; the route code itself loads on first use. */
export function startRouteSeam(): void {
  if (!document.getElementById('route-form')) return;
  const input = element<HTMLInputElement>('route-file');
  const drop = element('route-drop');
  const text = element<HTMLTextAreaElement>('route-text');
  input.addEventListener('change', () => {
    if (input.files && input.files.length > 0) show({ kind: 'files', files: [...input.files] });
  });
  drop.addEventListener('dragover', (event) => {
    event.preventDefault();
    drop.dataset['over'] = 'true';
  });
  drop.addEventListener('dragleave', () => delete drop.dataset['over']);
  drop.addEventListener('drop', (event) => {
    event.preventDefault();
    delete drop.dataset['over'];
    const files = [...(event.dataTransfer?.files ?? [])];
    const dropped = event.dataTransfer?.getData('text/plain') ?? '';
    if (files.length > 0) show({ kind: 'files', files });
    else show({ kind: 'text', text: dropped });
  });
  element('route-form').addEventListener('submit', (event) => {
    event.preventDefault();
    show({ kind: 'text', text: text.value });
  });
}
