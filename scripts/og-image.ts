/**
 * Renders public/og.png, the link-preview card (1200×630), with the same
 * Chromium the browser tests use. Run it after changing the brand:
 * `node scripts/og-image.ts`. The PNG is committed; builds do not need it.
 */
import { fileURLToPath } from 'node:url';
import { launchBrowser } from './browser/launch.ts';

const html = `<!doctype html><html><body style="margin:0;width:1200px;height:630px;display:flex;align-items:center;
gap:72px;padding:0 96px;box-sizing:border-box;background:#0f1218;color:#e8ebf1;font-family:system-ui,sans-serif">
<svg width="300" height="300" viewBox="-110 -110 220 220"><circle r="96" fill="#171b23" stroke="#2f3644" stroke-width="3"/>
<g transform="rotate(70)"><line y1="62" y2="-52" stroke="#8fb3ff" stroke-width="5" stroke-dasharray="9 6"/>
<path d="M0 -68 L11 -48 L-11 -48 Z" fill="#8fb3ff"/></g><g transform="rotate(80)"><line y1="0" y2="-56" stroke="#e8ebf1"
stroke-width="8" stroke-linecap="round"/><path d="M0 -76 L13 -52 L-13 -52 Z" fill="#e8ebf1"/><circle r="6" fill="#e8ebf1"/></g></svg>
<div><div style="font-size:30px;color:#7cb7ff;font-weight:600">wind-on-segment</div>
<div style="font-size:64px;font-weight:800;line-height:1.1;margin:16px 0">+19.7 km/h tailwind</div>
<div style="font-size:30px;color:#a9b1c1;line-height:1.4">How much the wind helps along your segment.<br>Free, keyless JSON API and calculator.</div></div>
</body></html>`;

const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
await page.setContent(html);
const path = fileURLToPath(new URL('../public/og.png', import.meta.url));
await page.screenshot({ path });
await browser.close();
console.log(`wrote ${path}`);
