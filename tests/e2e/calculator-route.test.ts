import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { readRouteText } from '../../src/components/calculator/route/route-source.ts';
import { RouteInputError } from '../../src/core/route/route-error.ts';
import { DEFAULT_POWER_PARAMS } from '../../src/core/power-model.ts';
import { directionTimes, timeCostPolar } from '../../src/core/route/route-direction-time.ts';
import { routeLegs } from '../../src/core/route/route-geometry.ts';
import { reverseRoute, routeShape } from '../../src/core/route/route-loop.ts';
import { DEFAULT_ROUTE_SPEED_KMH, powerForFlatSpeed } from '../../src/core/route/route-ride.ts';
import { MAX_ROUTE_BYTES } from '../../src/core/route/route-limits.ts';
import { routeWind, tailwindPolar } from '../../src/core/route/route-wind.ts';
import { roundHalfAway } from '../../src/core/round.ts';
import { compassPoint16 } from '../../src/core/compass-16.ts';
import { dropFile } from '../../scripts/browser/drop-file.ts';
import { newPage, type CheckedPage } from '../support/browser/launch.ts';
import { fixture, pickFile, waitForRoute } from './route-file.ts';
import { useSiteAndBrowser } from './setup.ts';

const env = useSiteAndBrowser();

/** The fixtures a rider might ride, each with what the page should call it. */
const RIDES = [
  { file: 'switchbacks.gpx', name: 'Hairpin climb' },
  { file: 'loop.gpx', name: 'Lake loop' },
  { file: 'out-and-back.geojson', name: 'Valley out and back' },
  { file: 'antimeridian.gpx', name: 'Date line coast' },
  { file: 'southern.geojson', name: 'Coastal drive' },
] as const;

/** A speed as the page prints it: 0.1 km/h, a plus sign on a tailwind. */
function shownSigned(value: number): string {
  const rounded = roundHalfAway(value, 1) + 0;
  const text = rounded.toFixed(1);
  return rounded > 0 ? `+${text}` : text;
}

/** The rider the page assumes: get_route_wind's default pace. */
const POWER_W = powerForFlatSpeed(DEFAULT_ROUTE_SPEED_KMH, DEFAULT_POWER_PARAMS);

/** What the core makes of a route text and a wind: the numbers the page must show. */
function coreAnswer(text: string, speedKmh: number, directionDeg: number) {
  const route = readRouteText(text);
  const { legs } = routeLegs(route.points);
  const shape = routeShape(route.points).shape;
  const reversed = routeLegs(reverseRoute(route.points)).legs;
  return {
    legs,
    shape,
    wind: routeWind(legs, { speedKmh, directionDeg }),
    polar: tailwindPolar(legs, speedKmh, 10),
    times: directionTimes(legs, reversed, { speedKmh, directionDeg }, POWER_W, DEFAULT_POWER_PARAMS),
    timePolar: timeCostPolar(legs, reversed, speedKmh, POWER_W, DEFAULT_POWER_PARAMS),
  };
}

/** Whole seconds with a sign, as the chart's data and table show them. */
const shownSeconds = (seconds: number): string => {
  const whole = Math.round(seconds) + 0;
  return whole > 0 ? `+${whole}` : String(whole);
};

/** A time gained or lost as the page words it: "1 min 05 s lost", "40 s gained". */
function shownGain(seconds: number): string {
  const whole = Math.round(seconds);
  if (whole === 0) return 'no time gained or lost';
  const abs = Math.abs(whole);
  const text = abs >= 60 ? `${Math.floor(abs / 60)} min ${String(abs % 60).padStart(2, '0')} s` : `${abs} s`;
  return `${text} ${whole > 0 ? 'gained' : 'lost'}`;
}

async function open(
  query = '?wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80',
): Promise<CheckedPage> {
  const checked = await newPage(env.browser);
  await checked.page.goto(`${env.service.baseUrl}/${query}`);
  return checked;
}

/** Every leg's effect as drawn: each path carries the legs it draws and the effect it is drawn as. */
async function drawnEffects(page: Page): Promise<string[]> {
  const runs = await page.locator('#route-legs path').evaluateAll((paths) =>
    paths.map((path) => ({
      legs: path.getAttribute('data-legs') ?? '',
      effect: path.getAttribute('data-effect') ?? '',
      className: path.getAttribute('class') ?? '',
      stroke: getComputedStyle(path).stroke,
      dash: getComputedStyle(path).strokeDasharray,
    })),
  );
  const colours = await page.evaluate(() => {
    const probe = document.createElement('span');
    document.body.append(probe);
    const colour = (name: string) => {
      probe.style.color = `var(${name})`;
      return getComputedStyle(probe).color;
    };
    const result = { tailwind: colour('--tail'), headwind: colour('--head'), crosswind: colour('--cross') };
    probe.remove();
    return result;
  });
  const effects: string[] = [];
  for (const run of runs) {
    const [from, to] = run.legs.split('-').map(Number);
    expect(run.className).toContain(`leg-${run.effect}`);
    const drawnAs = run.effect === 'calm' ? 'crosswind' : (run.effect as keyof typeof colours);
    expect(run.stroke, `the colour of legs ${run.legs}`).toBe(colours[drawnAs]);
    // Not by colour alone: headwind is dashed, crosswind dotted, tailwind solid.
    if (run.effect === 'tailwind') expect(run.dash).toBe('none');
    else expect(run.dash).not.toBe('none');
    for (let leg = from ?? 0; leg <= (to ?? -1); leg++) effects[leg] = run.effect;
  }
  return effects;
}

async function figure(page: Page, key: string): Promise<string> {
  return (await page.locator(`[data-figure="${key}"]`).textContent()) ?? '';
}

async function expectMatchesCore(page: Page, text: string, speedKmh: number, directionDeg: number) {
  const core = coreAnswer(text, speedKmh, directionDeg);
  await expect
    .poll(() => figure(page, 'weighted-tailwind'))
    .toBe(`${shownSigned(core.wind.tailwindKmh)} km/h`);
  expect(await drawnEffects(page)).toEqual(core.wind.legs.map((leg) => leg.effect));
  expect(await figure(page, 'headwind-share')).toBe(
    `${Math.round(core.wind.headwindShare * 100)}% of the length`,
  );
  if (core.shape !== 'point_to_point') {
    await expectTimesMatchCore(page, core);
  } else {
    const polar = await page
      .locator('#route-polar .polar-value')
      .evaluateAll((dots) =>
        dots.map((dot) => [Number(dot.getAttribute('data-direction')), dot.getAttribute('data-tailwind')]),
      );
    expect(polar).toEqual(
      core.polar.map((entry) => [
        entry.directionDeg,
        roundHalfAway(entry.tailwindKmh, 1)
          .toFixed(1)
          .replace(/^-0\.0$/, '0.0'),
      ]),
    );
    const table = await page.locator('#route-polar-table tbody tr td:last-child').allTextContents();
    expect(table).toEqual(core.polar.map((entry) => shownSigned(entry.tailwindKmh)));
  }
  expect(await page.locator('#route-polar .polar-current').getAttribute('data-direction')).toBe(
    String(directionDeg),
  );
  expect(await compassLetters(page)).toEqual(['N', 'E', 'S', 'W']);
  // Each direction with its 16-point name: a loop's sixteen directions 22.5° apart get sixteen names (8-point names gave 22.5° and 45° both NE).
  const directions = (core.shape === 'point_to_point' ? core.polar : core.timePolar).map(
    (e) => e.directionDeg,
  );
  const windFrom = await page.locator('#route-polar-table tbody tr td:first-child').allTextContents();
  expect(windFrom).toEqual(directions.map((deg) => `${deg}° (${compassPoint16(deg)})`));
  if (core.shape !== 'point_to_point') {
    expect(new Set(windFrom.map((cell) => cell.replace(/^.*\(/, ''))).size).toBe(16);
    expect(windFrom.slice(0, 3)).toEqual(['0° (N)', '22.5° (NNE)', '45° (NE)']);
  }
}

/** The compass letters around the chart's rim, in the order drawn. */
const compassLetters = (page: Page): Promise<string[]> =>
  page.locator('#route-polar .polar-label:not(.polar-ring-label)').allTextContents();

/**
 * A loop or an out-and-back: both ways round timed, the faster named as the
 * core names it, and the chart is the time each wind direction costs (as
 * given and reversed), one dot per direction, with its table.
 */
async function expectTimesMatchCore(page: Page, core: ReturnType<typeof coreAnswer>): Promise<void> {
  expect(await figure(page, 'time-as-given')).toBe(shownGain(core.times.asGivenGainedS));
  expect(await figure(page, 'time-reversed')).toBe(shownGain(core.times.reversedGainedS));
  const faster = await figure(page, 'faster-direction');
  expect(faster).toMatch(
    { as_given: /^as given is faster, by /, reversed: /^reversed is faster, by /, same: /^both ways round/ }[
      core.times.faster
    ],
  );
  expect(await page.locator('#route-status').textContent()).toContain(faster);
  const dots = await page
    .locator('#route-polar .polar-value')
    .evaluateAll((circles) =>
      circles.map((dot) => [
        Number(dot.getAttribute('data-direction')),
        dot.getAttribute('data-gained-s'),
        dot.getAttribute('data-reversed-gained-s'),
      ]),
    );
  expect(dots).toEqual(
    core.timePolar.map((entry) => [
      entry.directionDeg,
      shownSeconds(entry.asGivenGainedS),
      shownSeconds(entry.reversedGainedS),
    ]),
  );
  const rows = await page
    .locator('#route-polar-table tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent)),
    );
  expect(rows).toEqual(
    core.timePolar.map((entry) => [shownSeconds(entry.asGivenGainedS), shownSeconds(entry.reversedGainedS)]),
  );
  expect(await page.locator('#route-polar-table thead th').allTextContents()).toEqual([
    'Wind from',
    'Gained as given (s)',
    'Gained reversed (s)',
  ]);
  expect(await compassLetters(page)).toEqual(['N', 'E', 'S', 'W']);
  expect(await page.locator('#route-polar .polar-current circle').count()).toBe(1);
}

describe('the route calculator in Chromium', () => {
  it('draws a dropped GPX leg by leg as the core judges it, loading its code only then and sending nothing', async () => {
    const { page, problems, close } = await open();
    // Listen once the page has settled (favicon and all), so what is seen is the route's doing.
    await page.waitForLoadState('networkidle');
    const routeCodeLoaded = () =>
      page.evaluate(() =>
        performance.getEntriesByType('resource').some((entry) => /\/route-view\.[^/]+\.js$/.test(entry.name)),
      );
    expect(await routeCodeLoaded()).toBe(false);
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));
    await page.locator('#route-drop').waitFor();
    expect(await page.locator('#route-result').isHidden()).toBe(true);
    const text = fixture('switchbacks.gpx');
    await dropFile(page, 'switchbacks.gpx', text);
    await waitForRoute(page, 'Hairpin climb');
    await expectMatchesCore(page, text, 20, 250);
    // The hairpins turn the wind round: tailwind and headwind legs are both drawn.
    const effects = new Set(await drawnEffects(page));
    expect(effects.has('tailwind') && effects.has('headwind')).toBe(true);
    // The only requests after the page loaded are the route code's own script chunks: no upload.
    expect(requests.some((request) => /\/route-view\.[^/]+\.js$/.test(request.url()))).toBe(true);
    expect(await routeCodeLoaded()).toBe(true);
    for (const request of requests) {
      expect(request.method(), request.url()).toBe('GET');
      // A script, or "other" for the modulepreload the loader adds for the chunk's own imports.
      expect(['script', 'other'], request.url()).toContain(request.resourceType());
      expect(new URL(request.url()).pathname).toMatch(/^\/_astro\/.+\.js$/);
    }
    expect(problems()).toEqual([]);
    await close();
  });

  it.each(RIDES)('draws $file as the core judges it', async ({ file, name }) => {
    const { page, problems, close } = await open();
    const text = fixture(file);
    await pickFile(page, file, Buffer.from(text));
    await waitForRoute(page, name);
    await expectMatchesCore(page, text, 20, 250);
    expect(problems()).toEqual([]);
    await close();
  });

  it.each([
    { file: 'loop.gpx', name: 'Lake loop', shape: 'loop' },
    { file: 'out-and-back.geojson', name: 'Valley out and back', shape: 'out-and-back' },
  ])(
    'times $file both ways round, names the faster as the core does, and charts time that is not flat',
    async ({ file, name, shape }) => {
      const { page, problems, close } = await open();
      const text = fixture(file);
      await pickFile(page, file, Buffer.from(text));
      await waitForRoute(page, name);
      for (const [speed, direction] of [
        [20, 250],
        [35, 10],
      ] as const) {
        await page.getByLabel('Wind speed', { exact: true }).fill(String(speed));
        await page.getByLabel('Wind direction', { exact: true }).fill(String(direction));
        const core = coreAnswer(text, speed, direction);
        expect(core.shape).not.toBe('point_to_point');
        await expect.poll(() => figure(page, 'time-as-given')).toBe(shownGain(core.times.asGivenGainedS));
        await expectTimesMatchCore(page, core);
        expect(await figure(page, 'shape')).toContain(shape);
        // A steady wind costs a closed route time however it blows: every time is a loss.
        expect(core.times.asGivenGainedS).toBeLessThan(0);
        expect(await figure(page, 'time-as-given')).toMatch(/ lost$/);
        // The chart is no flat circle: the figures drawn differ from one direction to another.
        const drawn = await page
          .locator('#route-polar .polar-value')
          .evaluateAll((dots) => dots.map((dot) => dot.getAttribute('data-gained-s')));
        expect(drawn).toHaveLength(16);
        expect(new Set(drawn).size).toBeGreaterThan(1);
        const radii = await page
          .locator('#route-polar .polar-value')
          .evaluateAll((dots) =>
            dots.map((dot) => Math.hypot(Number(dot.getAttribute('cx')), Number(dot.getAttribute('cy')))),
          );
        expect(Math.max(...radii) - Math.min(...radii)).toBeGreaterThan(5);
        // Words agree with the figures: the chart's title names both times for the wind entered.
        const title = (await page.locator('#route-polar-title').textContent()) ?? '';
        expect(title).toContain(`as given ${shownGain(core.times.asGivenGainedS)}`);
        expect(title).toContain(`reversed ${shownGain(core.times.reversedGainedS)}`);
        expect(title).not.toContain('Every direction gives 0.0 km/h');
        expect(await figure(page, 'best-wind')).not.toContain('none');
      }
      expect(problems()).toEqual([]);
      await close();
    },
  );

  it('goes back to the tailwind chart for a point-to-point route after a loop', async () => {
    const { page, close } = await open();
    await pickFile(page, 'loop.gpx', Buffer.from(fixture('loop.gpx')));
    await waitForRoute(page, 'Lake loop');
    expect(await page.locator('#route-polar-table thead th').count()).toBe(3);
    const text = fixture('switchbacks.gpx');
    await pickFile(page, 'switchbacks.gpx', Buffer.from(text));
    await waitForRoute(page, 'Hairpin climb');
    await expectMatchesCore(page, text, 20, 250);
    expect(await page.locator('#route-polar-table thead th').allTextContents()).toEqual([
      'Wind from',
      'Weighted tailwind (km/h)',
    ]);
    expect(await page.locator('[data-figure="time-as-given"]').count()).toBe(0);
    await close();
  });

  it('draws a ride across the antimeridian without a jump across the map', async () => {
    const { page, close } = await open();
    await pickFile(page, 'antimeridian.gpx', Buffer.from(fixture('antimeridian.gpx')));
    await waitForRoute(page, 'Date line coast');
    const points = await page
      .locator('#route-legs path')
      .evaluateAll((paths) =>
        paths.flatMap((path) =>
          [...(path.getAttribute('d') ?? '').matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g)].map((m) => [
            Number(m[1]),
            Number(m[2]),
          ]),
        ),
      );
    // About 600 points a few metres apart: without the longitudes unwrapped, the step across
    // 180° would jump from one side of the map to the other.
    const steps = points
      .slice(1)
      .map(([x = 0, y = 0], i) => Math.hypot(x - (points[i]?.[0] ?? 0), y - (points[i]?.[1] ?? 0)));
    expect(points.length).toBeGreaterThan(500);
    expect(Math.max(...steps)).toBeLessThan(20);
    await close();
  });

  it('judges the route again when the wind changes', async () => {
    const { page, close } = await open();
    const text = fixture('loop.gpx');
    await pickFile(page, 'loop.gpx', Buffer.from(text));
    await waitForRoute(page, 'Lake loop');
    await page.getByLabel('Wind speed', { exact: true }).fill('35');
    await page.getByLabel('Wind direction', { exact: true }).fill('10');
    await expectMatchesCore(page, text, 35, 10);
    await page.getByLabel('Wind speed', { exact: true }).fill('999');
    await expect.poll(() => page.locator('#route-result').getAttribute('data-state')).toBe('problem');
    expect(await page.locator('#route-wind').textContent()).toBe(
      'Enter the wind speed in km/h: a number from 0 to 300, for example 20.',
    );
    // Nothing judged with the old wind stays up: the route alone, unjudged.
    expect(
      await page
        .locator('#route-legs path')
        .evaluateAll((paths) => paths.map((p) => p.getAttribute('data-effect'))),
    ).toEqual(['unjudged']);
    expect(await page.locator('#route-figures dd').count()).toBe(0);
    expect(await page.locator('#route-polar .polar-value').count()).toBe(0);
    await page.getByLabel('Wind speed', { exact: true }).fill('35');
    await expectMatchesCore(page, text, 35, 10);
    await close();
  });

  it('says how much of a route had an elevation', async () => {
    const { page, close } = await open();
    const text = fixture('loop.gpx');
    const coverage = readRouteText(text).elevationCoverage;
    expect(coverage).toBeGreaterThan(0);
    expect(coverage).toBeLessThan(1);
    await pickFile(page, 'loop.gpx', Buffer.from(text));
    await waitForRoute(page, 'Lake loop');
    expect(await figure(page, 'climbing')).toContain(
      `(elevation on ${Math.round(coverage * 100)}% of the length)`,
    );
    await close();
  });

  it('reads pasted coordinates, merging a repeated point', async () => {
    const { page, close } = await open();
    const text = '45.9, 6.1\n45.91, 6.12\n45.91, 6.12\n# a comment\n\n45.93; 6.12\n45.95\t6.15\n';
    await page.getByLabel('Or paste a route').fill(text);
    await page.getByRole('button', { name: 'Draw the pasted route' }).click();
    await waitForRoute(page, 'The pasted route');
    await expectMatchesCore(page, text, 20, 250);
    expect(await figure(page, 'points')).toBe('4 (1 repeated point merged)');
    await close();
  });

  const bigGpx = `<gpx>${' '.repeat(10 * 1024 * 1024)}</gpx>`;
  const hostile = [
    { what: 'XML entities', name: 'calc-entities.gpx', text: fixture('calc-entities.gpx') },
    { what: 'one point', name: 'calc-one-point.gpx', text: fixture('calc-one-point.gpx') },
    {
      what: 'points all at one place',
      name: 'same.gpx',
      text: '<gpx><trk><trkseg><trkpt lat="45" lon="6"/><trkpt lat="45" lon="6"/></trkseg></trk></gpx>',
    },
    {
      what: 'GPX that breaks off',
      name: 'cut.gpx',
      text: '<gpx><trk><trkseg><trkpt lat="45" lon="6"/><trkpt lat="45.1" lon="6.1"',
    },
    { what: 'broken JSON', name: 'broken.geojson', text: '{"type": "LineString", "coordinates": [[6,45],' },
    {
      what: 'a polygon',
      name: 'area.geojson',
      text: '{"type":"Polygon","coordinates":[[[6,45],[6.1,45],[6,45.1],[6,45]]]}',
    },
    {
      what: 'a latitude out of range',
      name: 'far.gpx',
      text: '<gpx><trkpt lat="95" lon="6"/><trkpt lat="45" lon="6"/></gpx>',
    },
    { what: 'no GPX at all', name: 'notes.gpx', text: '<html><body>not a route</body></html>' },
  ];

  it.each(hostile)(
    'names the problem with $what and clears the route shown before',
    async ({ name, text }) => {
      const { page, problems, close } = await open();
      await pickFile(page, 'loop.gpx', Buffer.from(fixture('loop.gpx')));
      await waitForRoute(page, 'Lake loop');
      let expected = '';
      try {
        readRouteText(text);
      } catch (error) {
        if (!(error instanceof RouteInputError)) throw error;
        expected = error.message;
      }
      expect(expected).not.toBe('');
      await pickFile(page, name, Buffer.from(text));
      const alert = page.getByRole('alert');
      await expect.poll(() => alert.textContent()).toBe(`${name}: ${expected}`);
      expect(await page.locator('#route-result').isHidden()).toBe(true);
      expect(problems()).toEqual([]);
      await close();
    },
  );

  it('takes one dropped file at a time', async () => {
    const { page, close } = await open();
    const dataTransfer = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['<gpx/>'], 'a.gpx'));
      transfer.items.add(new File(['<gpx/>'], 'b.gpx'));
      return transfer;
    });
    await page.dispatchEvent('#route-drop', 'drop', { dataTransfer });
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('2 files were dropped: give one route file at a time.');
    await close();
  });

  it('refuses a 10 MB file before reading it, and an empty one', async () => {
    const { page, close } = await open();
    const alert = page.getByRole('alert');
    await pickFile(page, 'huge.gpx', Buffer.from(bigGpx));
    await expect
      .poll(() => alert.textContent())
      .toMatch(/^huge\.gpx is 10\.0 MB; route files of up to 5 MB are read/);
    expect(Buffer.byteLength(bigGpx)).toBeGreaterThan(MAX_ROUTE_BYTES);
    await pickFile(page, 'empty.gpx', Buffer.alloc(0));
    await expect.poll(() => alert.textContent()).toBe('empty.gpx is empty: there is nothing to read');
    await page.getByRole('button', { name: 'Draw the pasted route' }).click();
    await expect.poll(() => alert.textContent()).toBe('The route is empty: there is nothing to read');
    await close();
  });
});
