/**
 * Every environment variable the service reads: the topics' tables side by side (one per file of
 * this folder: the server, its public URLs, shared state, forecast, places, segments, MCP, the rider
 * store, sign-in, alerts, payments, the platform). Their order is the order of the docs tables and
 * of the refusals in an error. `EnvironmentSchema` (`../settings.ts`) is built from this table, and
 * the REST function's reader without zod reads it too (`plain-settings.ts`).
 */
import { boundedEditDistance } from '../../core/edit-distance.ts';
import { ALERT_SETTINGS } from './alerts.ts';
import { AUTH_SETTINGS } from './auth.ts';
import { BILLING_SETTINGS } from './billing.ts';
import { FORECAST_SETTINGS } from './forecast.ts';
import { LIVE_DATA_SETTINGS } from './live-data.ts';
import { MCP_SETTINGS } from './mcp.ts';
import { NOTIFICATION_SETTINGS } from './notifications.ts';
import { PLACE_SETTINGS } from './places.ts';
import { PLATFORM_SETTINGS } from './platform.ts';
import { SEGMENT_SETTINGS } from './segments.ts';
import { SERVER_SETTINGS } from './server.ts';
import type { SettingValues } from './setting-field.ts';
import { SHARED_STATE_SETTINGS } from './shared-state.ts';
import { STORE_SETTINGS } from './store.ts';
import { URL_SETTINGS } from './urls.ts';

/** Every variable's entry, by name. */
export const ENVIRONMENT = {
  ...SERVER_SETTINGS,
  ...URL_SETTINGS,
  ...SHARED_STATE_SETTINGS,
  ...LIVE_DATA_SETTINGS,
  ...FORECAST_SETTINGS,
  ...PLACE_SETTINGS,
  ...SEGMENT_SETTINGS,
  ...MCP_SETTINGS,
  ...STORE_SETTINGS,
  ...AUTH_SETTINGS,
  ...ALERT_SETTINGS,
  ...NOTIFICATION_SETTINGS,
  ...BILLING_SETTINGS,
  ...PLATFORM_SETTINGS,
};

export type SettingName = keyof typeof ENVIRONMENT;

/** Every variable's value as read, by name: the type follows each entry of {@link ENVIRONMENT}. */
export type Environment = SettingValues<typeof ENVIRONMENT>;

/** Unknown `WOS_*` names, each with the closest known one when it is a likely typo. */
export function unknownSettings(env: Readonly<Record<string, string | undefined>>): string[] {
  const known = Object.keys(ENVIRONMENT);
  return Object.keys(env)
    .filter((name) => name.startsWith('WOS_') && !known.includes(name))
    .map((name) => {
      const closest = known
        .map((candidate) => ({ candidate, distance: boundedEditDistance(name, candidate, 4) }))
        .sort((a, b) => a.distance - b.distance)[0];
      return closest && closest.distance <= 3
        ? `${name} is not a setting; did you mean ${closest.candidate}?`
        : `${name} is not a setting of this service.`;
    });
}
