import { describe, expect, it } from 'vitest';
import { expectAccessibleInBothSchemes } from '../support/browser/axe.ts';
import { checkLinks } from '../support/browser/links.ts';
import { newPage } from '../support/browser/launch.ts';
import { useSiteAndBrowser } from './setup.ts';
import { EXPECTED_404, PAGES } from './pages.ts';

const env = useSiteAndBrowser();

describe('accessibility and links', () => {
  it.each(PAGES)(
    '%s has no axe violations (WCAG 2.2 AA) in light mode, nor of colour in dark',
    async (path) => {
      const { page, close } = await newPage(env.browser, { colorScheme: 'light', allow: [EXPECTED_404] });
      await page.goto(`${env.service.baseUrl}${path}`);
      if (path === '/reference') await page.getByText('API reference').first().waitFor();
      if (path === '/reference')
        await page.waitForSelector('.scalar-app, [class*="scalar"]', { timeout: 15_000 });
      await expectAccessibleInBothSchemes(page, path);
      await close();
    },
  );

  it('links to no missing page or anchor', async () => {
    const broken = await checkLinks(env.service.baseUrl, [
      '/',
      '/docs',
      '/pricing',
      '/changelog',
      '/reference',
    ]);
    expect(broken).toEqual([]);
  });
});

describe('screenshots', () => {
  const shots = [
    { path: '/', name: 'home' },
    { path: '/pricing', name: 'pricing' },
  ];
  const sizes = [
    { label: 'phone', width: 390, height: 844 },
    { label: 'desktop', width: 1280, height: 900 },
  ];
  it.each(shots.flatMap((shot) => sizes.map((size) => ({ ...shot, ...size }))))(
    'saves $path at $label width',
    async ({ path, name, label, width, height }) => {
      const { page, problems, close } = await newPage(env.browser, { viewport: { width, height } });
      await page.goto(`${env.service.baseUrl}${path}`);
      const file = `test-results/screenshots/${name}-${label}.png`;
      const image = await page.screenshot({ path: file, fullPage: true });
      expect(image.byteLength).toBeGreaterThan(10_000);
      expect(problems()).toEqual([]);
      await close();
    },
  );
});
