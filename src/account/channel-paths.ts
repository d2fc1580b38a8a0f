/**
 * The paths of the rider's alert channels and of the account's data, apart
 * from their handlers, as `account-paths.ts` is for the others.
 */
export const CHANNELS_PATH = '/api/rider/channels';
export const PUSH_PATH = '/api/rider/push';
export const PUSH_REMOVE_PATH = '/api/rider/push/remove';
export const CALENDAR_PATH = '/api/rider/calendar';
/** `GET /api/rider/calendar/<secret>.ics`: the feed itself, for calendar apps (no session). */
export const CALENDAR_FEED_PREFIX = '/api/rider/calendar/';
export const CALENDAR_FEED_SUFFIX = '.ics';
/** One-click unsubscribe (RFC 8058): `POST /api/rider/unsubscribe?token=…` (no session). */
export const UNSUBSCRIBE_PATH = '/api/rider/unsubscribe';
/** The page a person lands on from the link in a mail; it posts to {@link UNSUBSCRIBE_PATH}. */
export const UNSUBSCRIBE_PAGE = '/unsubscribe';
export const EXPORT_PATH = '/api/rider/export';
