/**
 * The one settings schema: every variable's default matches the constant of
 * the module that owns the rule, refusals name the variable, the value and
 * the accepted form, and typos are reported with the closest name. The
 * configuration tables in docs/operating.md are generated from the schema
 * (tests/unit/generated-docs.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { readSettings, settingDoc, storeConfigOf, unknownSettings } from '../../src/app/settings.ts';
import {
  DEFAULT_ALERTS_INTERVAL_MS,
  MAX_ALERTS_INTERVAL_MS,
  MIN_ALERTS_INTERVAL_MS,
} from '../../src/alerts/schedule.ts';
import { MIN_SECRET_LENGTH } from '../../src/auth/secret.ts';
import { DEFAULT_SQLITE_PATH } from '../../src/store/database.ts';

describe('the settings schema', () => {
  it('defaults to the figures of the modules that own the rules', () => {
    const settings = readSettings({});
    expect(settings.alertsIntervalMs).toBe(DEFAULT_ALERTS_INTERVAL_MS);
    expect(settings.store.sqlitePath).toBe(DEFAULT_SQLITE_PATH);
    expect(settingDoc('WOS_ALERTS_INTERVAL_MS').accepts).toContain(
      `${MIN_ALERTS_INTERVAL_MS} to ${MAX_ALERTS_INTERVAL_MS}`,
    );
    expect(settingDoc('BETTER_AUTH_SECRET').accepts).toContain(`at least ${MIN_SECRET_LENGTH} characters`);
    expect(settings).toMatchObject({
      port: 3000,
      forecast: { source: 'demo' },
      geocoder: { source: 'gazetteer' },
    });
  });

  it('refuses bad values in one message naming each variable, its value and the accepted form', () => {
    expect(() => readSettings({ PORT: '80a', WOS_MCP_RATE_BURST: '0', WOS_TRUST_PROXY: 'yes' })).toThrow(
      [
        'Invalid environment:',
        '  PORT must be a port number from 0 to 65535, not "80a".',
        '  WOS_MCP_RATE_BURST must be a positive number, not "0".',
        '  WOS_TRUST_PROXY must be "1", "true", "0" or "false", not "yes".',
      ].join('\n'),
    );
  });

  it('never echoes a secret it refuses', () => {
    const secret = 'short-secret';
    expect(() => readSettings({ BETTER_AUTH_SECRET: secret })).toThrow(/12-character value given/);
    expect(() => readSettings({ BETTER_AUTH_SECRET: secret })).not.toThrow(secret);
  });

  it('interprets WOS_SITE_URL once: link base without its slash, origin for sign-in, host for the guard', () => {
    const settings = readSettings({ WOS_SITE_URL: 'https://wind.example/' });
    expect(settings.urls.siteUrl).toBe('https://wind.example');
    expect(settings.siteOrigin).toBe('https://wind.example');
    expect(settings.mcp.publicHosts).toEqual(['wind.example']);
  });

  it('reports unknown WOS_* names as likely typos, with the closest known name', () => {
    const warnings: string[] = [];
    readSettings({ WOS_FORECST: 'demo', WOS_SOMETHING_ELSE_ENTIRELY: '1', HOME: '/root' }, (line) =>
      warnings.push(line),
    );
    expect(warnings).toEqual([
      'settings: WOS_FORECST is not a setting; did you mean WOS_FORECAST?',
      'settings: WOS_SOMETHING_ELSE_ENTIRELY is not a setting of this service.',
    ]);
    expect(unknownSettings({ WOS_GEOCODER: 'gazetteer', PATH: '/bin' })).toEqual([]);
  });

  it('asks for PostgreSQL on Vercel only where the store opens', () => {
    const settings = readSettings({ VERCEL: '1' });
    expect(() => storeConfigOf(settings)).toThrow(/DATABASE_URL/);
  });

  it('turns payments on with every STRIPE_* variable, off with none, and stops naming what a partial set lacks', () => {
    const full = {
      STRIPE_SECRET_KEY: 'sk_test_abc123',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
      STRIPE_PRICE_PRO_MONTHLY_EUR: 'price_m_eur',
      STRIPE_PRICE_PRO_MONTHLY_USD: 'price_m_usd',
      STRIPE_PRICE_PRO_ANNUAL_EUR: 'price_a_eur',
      STRIPE_PRICE_PRO_ANNUAL_USD: 'price_a_usd',
      STRIPE_PRICE_PRO_LIFETIME_EUR: 'price_l_eur',
      STRIPE_PRICE_PRO_LIFETIME_USD: 'price_l_usd',
    };
    expect(readSettings({}).billing).toBeUndefined();
    expect(readSettings(full).billing).toMatchObject({
      secretKey: 'sk_test_abc123',
      prices: { pro_annual: { usd: 'price_a_usd' }, pro_lifetime: { eur: 'price_l_eur' } },
    });
    const partial: Record<string, string> = { ...full };
    delete partial['STRIPE_WEBHOOK_SECRET'];
    delete partial['STRIPE_PRICE_PRO_ANNUAL_USD'];
    expect(() => readSettings(partial)).toThrow(
      /only partly configured: set STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_PRO_ANNUAL_USD too/,
    );
    expect(() => readSettings({ STRIPE_API_BASE: 'http://127.0.0.1:12111' })).toThrow(/STRIPE_SECRET_KEY/);
    expect(() => readSettings({ ...full, STRIPE_SECRET_KEY: 'pk_test_abc' })).toThrow(
      /STRIPE_SECRET_KEY must be a Stripe secret or restricted key/,
    );
  });
});

describe('the ensemble settings', () => {
  it('follow the demo forecast to the demo ensemble, and real forecasts to none unless asked', () => {
    expect(readSettings({}).ensemble).toMatchObject({ source: 'demo', model: 'ecmwf_ifs025' });
    expect(readSettings({ WOS_FORECAST: 'open-meteo' }).ensemble.source).toBe('off');
    const real = readSettings({
      WOS_FORECAST: 'open-meteo',
      WOS_ENSEMBLE: 'open-meteo',
      WOS_ENSEMBLE_MODEL: 'gfs025',
    });
    expect(real.ensemble).toMatchObject({ source: 'open-meteo', model: 'gfs025' });
    expect(readSettings({ WOS_ENSEMBLE: 'off' }).ensemble.source).toBe('off');
  });

  it('refuse a model not in the table, naming the accepted ones', () => {
    expect(() => readSettings({ WOS_ENSEMBLE_MODEL: 'icon_seamless' })).toThrow(/"ecmwf_ifs025" or "gfs025"/);
  });
});
