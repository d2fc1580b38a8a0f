/**
 * The layer rule of `eslint.config.js` (CONTRIBUTING.md, "Layers"), run
 * through ESLint's Node API on deliberate back-imports: `npm run check` must
 * fail on each, whatever the import form (`import`, `import()`,
 * `export … from`), and on an import between two peer surfaces, and must stay
 * quiet on the same imports made downwards. The request-facing surfaces
 * (REST, MCP, the settings API, sign-in) reach the store's repositories only
 * through a use case.
 */
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: fileURLToPath(new URL('../../', import.meta.url)) });
const LAYER_RULE = 'import-x/no-restricted-paths';
/** The rules that keep a surface from a store repository: one for static imports, one for `import()`. */
const PAST_USE_CASE_RULES = ['@typescript-eslint/no-restricted-imports', 'no-restricted-syntax'];

async function rulesHit(code: string, filePath: string): Promise<(string | null)[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId);
}

describe('the layer rule', () => {
  it.each([
    ['src/auth/caller-check.ts', "import type { Caller } from '../mcp/context.ts';"],
    ['src/store/migrations/extra.ts', "import { authSchemaMigration } from '../../auth/migration.ts';"],
    ['src/alerts/evaluate-extra.ts', "import { PRO_DETAILS } from '../mcp/report/pro-details.ts';"],
    ['src/core/facts.ts', "import { API_VERSION } from '../rest/handler.ts';"],
    ['src/data/forecast/extra.ts', "import { openStore } from '../../store/database.ts';"],
    ['src/mcp/wiring.ts', "import { createApp } from '../app/app.ts';"],
    ['src/billing/session.ts', "import type { Auth } from '../auth/auth.ts';"],
    ['src/alerts/paid.ts', "import { startCheckout } from '../billing/checkout.ts';"],
    ['src/rider/lookup-extra.ts', "import { riderApi } from '../account/account-api.ts';"],
    ['src/server/page.ts', "import { CACHE } from '../pages/docs.astro';"],
    ['src/service/answer-shape.ts', "import { CACHE } from '../rest/headers.ts';"],
    ['src/service/wiring.ts', "import type { Graph } from '../app/graph.ts';"],
    ['src/data/segments/around.ts', "import { segmentsNear } from '../../service/segments-near.ts';"],
  ])('refuses a static back-import in %s', async (filePath, code) => {
    expect(await rulesHit(`${code}\nexport const used = 1;\n`, filePath)).toContain(LAYER_RULE);
  });

  it.each([
    ['src/store/lazy-app.ts', "export const load = () => import('../app/app.ts');"],
    [
      'src/core/lazy-store.ts',
      "export const load = async () => (await import('../store/database.ts')).openStore;",
    ],
    ['src/rider/lazy-mcp.ts', "export const load = () => import('../mcp/endpoint.ts');"],
    ['src/service/lazy-tool.ts', "export const load = () => import('../mcp/tools/public.ts');"],
  ])('refuses a dynamic back-import in %s', async (filePath, code) => {
    expect(await rulesHit(`${code}\n`, filePath)).toContain(LAYER_RULE);
  });

  it.each([
    ['src/core/again.ts', "export { SCOPE_READ } from '../rider/access-policy.ts';"],
    ['src/data/everything.ts', "export * from '../store/database.ts';"],
    ['src/http/types-again.ts', "export type { McpConfig } from '../mcp/endpoint-guard.ts';"],
  ])('refuses a re-export back-import in %s', async (filePath, code) => {
    expect(await rulesHit(`${code}\n`, filePath)).toContain(LAYER_RULE);
  });

  it.each([
    ['src/rest/peek.ts', "import { riderApi } from '../account/account-api.ts';"],
    ['src/account/buy.ts', "export const buy = () => import('../billing/checkout.ts');"],
    ['src/mcp/sign-in.ts', "export { createAuthService } from '../auth/auth-service.ts';"],
    ['src/alerts/tools.ts', "import { PUBLIC_TOOLS } from '../mcp/tools/public.ts';"],
  ])('refuses an import between peer surfaces in %s', async (filePath, code) => {
    expect(await rulesHit(`${code}\nexport const used = 1;\n`, filePath)).toContain(LAYER_RULE);
  });

  it.each([
    ['src/mcp/caller-use.ts', "import type { RiderCaller } from '../rider/rider-caller.ts';"],
    ['src/account/lookup.ts', "export const load = () => import('../rider/segment-lookup.ts');"],
    ['src/app/again.ts', "export { riderApi } from '../account/account-api.ts';"],
    ['src/mcp/tools/extra.ts', "import { ToolError } from '../tool.ts';"],
    ['src/rest/near.ts', "import { segmentsNear } from '../service/segments-near.ts';"],
    ['src/mcp/near.ts', "export const load = () => import('../service/segments-near.ts');"],
    ['src/service/lookup.ts', "import { riderSegmentLookup } from '../rider/segment-lookup.ts';"],
  ])('allows an import downwards or within a folder in %s', async (filePath, code) => {
    expect(await rulesHit(`${code}\nexport const used = 1;\n`, filePath)).not.toContain(LAYER_RULE);
  });

  it.each([
    [
      'src/mcp/tools/rider/peek.ts',
      "import { listWatchlist } from '../../../store/repositories/watchlist.ts';",
    ],
    ['src/rest/usage.ts', "export { consumeQuota } from '../store/repositories/usage.ts';"],
    ['src/account/peek.ts', "export const load = () => import('../store/repositories/connections.ts');"],
    ['src/auth/reset.ts', "import { disconnectAll } from '../store/repositories/connections.ts';"],
  ])('refuses a surface reaching a store repository past the use cases in %s', async (filePath, code) => {
    const hit = await rulesHit(`${code}\nexport const used = 1;\n`, filePath);
    expect(hit.filter((rule) => PAST_USE_CASE_RULES.includes(rule ?? ''))).toHaveLength(1);
  });

  it('lets a surface name a repository type, and a use case call the repository', async () => {
    const rule = '@typescript-eslint/no-restricted-imports';
    const typeOnly = "import type { WatchEntry } from '../../../store/repositories/watchlist.ts';";
    expect(
      await rulesHit(`${typeOnly}\nexport type E = WatchEntry;\n`, 'src/mcp/tools/rider/e.ts'),
    ).not.toContain(rule);
    const call = "import { listWatchlist } from '../store/repositories/watchlist.ts';";
    expect(await rulesHit(`${call}\nexport const used = listWatchlist;\n`, 'src/service/w.ts')).not.toContain(
      rule,
    );
  });

  it('refuses process.env outside the settings module', async () => {
    const code = "export const port = process.env['PORT'];\n";
    expect(await rulesHit(code, 'src/server/port.ts')).toContain('no-restricted-properties');
    expect(await rulesHit(code, 'src/app/settings.ts')).not.toContain('no-restricted-properties');
  });
});
