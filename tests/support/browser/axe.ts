import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults, RunOptions } from 'axe-core';

/** The WCAG 2.2 AA conformance target, as axe tags (2.2 adds only AA rules, hence no wcag22a). */
export const AXE_TAGS: readonly string[] = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * The WCAG 2.2 AA rules whose outcome depends on the colours alone: what the other colour scheme of a
 * page checked in full can still fail there. axe's other rules read the DOM and the accessibility
 * tree, which a scheme leaves as they are.
 */
export const COLOUR_RULES: readonly string[] = ['color-contrast', 'link-in-text-block'];

/** axe-core's browser build, read once per test file and evaluated once per page. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe run in the page itself, as its browser extension does. `@axe-core/playwright` injects axe again
 * on every call and finishes each run in a second, blank page (so that it can merge iframes' partial
 * results under any CSP): 0.8–2.2 s a call against 0.1–1.1 s here, on the site's pages. None of them
 * has an iframe, and a page that has one is refused rather than half-checked.
 */
async function runAxe(page: Page, options: RunOptions): Promise<AxeResults['violations']> {
  const frames = page.frames().length;
  if (frames > 1) throw new Error(`axe here checks one document; this page has ${frames - 1} iframe(s)`);
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async (runOptions) =>
      (await (globalThis as unknown as { axe: typeof import('axe-core') }).axe.run(document, runOptions))
        .violations,
    options,
  );
}

/**
 * Runs axe-core on the page as it is now (the WCAG 2.2 AA rules, or only `rules` when given) and
 * throws one readable message listing every violation (rule, impact, the offending selectors, what to
 * do), so a failing test says what to fix without having to dig through axe's JSON.
 */
export async function expectNoAxeViolations(
  page: Page,
  label: string,
  rules: readonly string[] | undefined = undefined,
): Promise<void> {
  const violations = await runAxe(page, {
    runOnly: rules ? { type: 'rule', values: [...rules] } : { type: 'tag', values: [...AXE_TAGS] },
    resultTypes: ['violations'],
  });
  if (violations.length === 0) return;
  const lines = violations.map((violation) => {
    const targets = violation.nodes.map((node) => `    - ${node.target.join(' >>> ')}`);
    return [
      `- ${violation.id} [${violation.impact ?? 'unknown'}]: ${violation.help} (${violation.helpUrl})`,
      ...targets,
    ].join('\n');
  });
  throw new Error(`${violations.length} axe violation(s) on ${label}:\n${lines.join('\n')}`);
}

/**
 * Waits until the colours a scheme switch set in motion have arrived. A script may follow the
 * scheme too: the API reference swaps its `light-mode` class for `dark-mode` from a media-query
 * listener, which runs in the next frame's rendering steps, so axe run at once (as it was, failing
 * once in CI on that page) could read the reference's light colours on the page's dark background.
 * After two frames every such listener has run; then every CSS transition the restyle started has
 * finished. Looping animations are not transitions and are not waited for.
 */
async function coloursSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let frame = 0; frame < 2; frame++) await new Promise(requestAnimationFrame);
    const running = document.getAnimations().filter((animation) => animation instanceof CSSTransition);
    await Promise.all(running.map((transition) => transition.finished.catch(() => undefined)));
  });
}

/**
 * The page as it is now in both colour schemes: every rule in light mode, then the colour rules in
 * dark mode, on the same page (a scheme switches by CSS alone, so nothing is loaded or run again).
 * The page is left in the scheme its context set.
 */
export async function expectAccessibleInBothSchemes(page: Page, label: string): Promise<void> {
  await page.emulateMedia({ colorScheme: 'light' });
  await coloursSettled(page);
  await expectNoAxeViolations(page, `${label} (light)`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await coloursSettled(page);
  await expectNoAxeViolations(page, `${label} (dark)`, COLOUR_RULES);
  await page.emulateMedia({ colorScheme: null });
}
