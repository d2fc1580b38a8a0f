/**
 * The layer rule of `eslint.config.js`, run through ESLint's Node API on
 * deliberate back-imports: `npm run check` must fail on each, and must stay
 * quiet on the same import made from a layer above.
 */
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: fileURLToPath(new URL('../../', import.meta.url)) });

async function rulesHit(code: string, filePath: string): Promise<(string | null)[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId);
}

describe('the layer rule', () => {
  it.each([
    ['src/auth/caller-check.ts', "import type { Caller } from '../mcp/context.ts';"],
    ['src/store/migrations/extra.ts', "import { authSchemaMigration } from '../../auth/migration.ts';"],
    ['src/alerts/evaluate-extra.ts', "import { PRO_DETAILS } from '../mcp/report/pro-details.ts';"],
    ['src/core/facts.ts', "import { API_VERSION } from '../rest/urls.ts';"],
    ['src/data/forecast/extra.ts', "import { openStore } from '../../store/database.ts';"],
    ['src/mcp/wiring.ts', "import { createApp } from '../app/app.ts';"],
    ['src/billing/session.ts', "import type { Auth } from '../auth/auth.ts';"],
    ['src/alerts/paid.ts', "import { startCheckout } from '../billing/checkout.ts';"],
  ])('refuses a back-import in %s', async (filePath, code) => {
    expect(await rulesHit(`${code}\nexport const used = 1;\n`, filePath)).toContain('no-restricted-imports');
  });

  it('allows the same kind of import downwards', async () => {
    const code =
      "import type { RiderCaller } from '../auth/rider-caller.ts';\nexport type Used = RiderCaller;\n";
    expect(await rulesHit(code, 'src/mcp/caller-use.ts')).not.toContain('no-restricted-imports');
  });

  it('refuses process.env outside the settings module', async () => {
    const code = "export const port = process.env['PORT'];\n";
    expect(await rulesHit(code, 'src/server/port.ts')).toContain('no-restricted-properties');
    expect(await rulesHit(code, 'src/app/settings.ts')).not.toContain('no-restricted-properties');
  });
});
