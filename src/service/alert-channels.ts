/**
 * How a rider's alerts reach them, read and changed for the settings page
 * and the addresses mail and calendar apps open: the email and push
 * switches, the push devices, the calendar feed's secret address, one-click
 * unsubscribe, and each alert's deliveries. The alert job sends through the
 * same tables (`src/alerts`); the surfaces go through here.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import { listRecentAlerts } from '../store/repositories/alerts.ts';
import { listDeliveries } from '../store/repositories/alert-deliveries.ts';
import { listPushDevices, type PushDevice } from '../store/repositories/push-subscriptions.ts';
import {
  findRiderChannels,
  newChannelToken,
  setCalendarToken,
  type RiderChannels,
} from '../store/repositories/rider-channels.ts';

export type { PushDevice, RiderChannels };
export { listDeliveries as deliveriesOf };
export { removePushDevice, savePushDevice } from '../store/repositories/push-subscriptions.ts';
export {
  findRiderIdByCalendarToken as riderOfCalendarToken,
  setChannelOn,
  unsubscribeByToken,
} from '../store/repositories/rider-channels.ts';
export { listRecentAlerts as recentAlerts };

/** The rider's channel switches (undefined before the first change: all defaults) and push devices. */
export async function channelsOf(
  db: Kysely<Database>,
  riderId: string,
): Promise<{ readonly channels: RiderChannels | undefined; readonly devices: readonly PushDevice[] }> {
  const [channels, devices] = await Promise.all([
    findRiderChannels(db, riderId),
    listPushDevices(db, riderId),
  ]);
  return { channels, devices };
}

/**
 * Turns the calendar feed on with a new secret address (the old one stops
 * working) or off; returns the new token, or null when off. Only the token's
 * hash is kept, so the token is shown once, now.
 */
export async function switchCalendar(
  db: Kysely<Database>,
  riderId: string,
  on: boolean,
): Promise<string | null> {
  const token = on ? newChannelToken() : null;
  await setCalendarToken(db, riderId, token);
  return token;
}
