/**
 * The Kysely view of the rider store, identical on SQLite and PostgreSQL.
 *
 * Every time is integer unix seconds (UTC) stored as `bigint`: the forecast and
 * window maths in `src/core` already count in unix seconds, an integer compares
 * and de-duplicates exactly on both engines (an ISO string can be spelled several
 * ways for one instant, which would defeat the alert window's unique key), and
 * `bigint` does not run out in 2038. The PostgreSQL pool parses `int8` to a JS
 * number (safe: seconds stay far below 2^53). Answers convert to ISO 8601 at
 * the edge. The one exception is `usage.month`, a `YYYY-MM` key by design.
 *
 * Table names avoid the auth library's (`user`, `session`, `account`,
 * `verification`, `oauth*`), whose own migrations add them to the same database.
 */
import type { ColumnType } from 'kysely';
import type { PaidPlanId, PaidStatus } from '../core/billing-rules.ts';
import type { RiderPlan } from '../core/rider-rules.ts';

/**
 * PostgreSQL answers a `boolean` column with true/false, SQLite with 1/0; the
 * repositories read either and always write a boolean.
 */
export type BooleanColumn = ColumnType<boolean | number, boolean, boolean>;

/** A boolean with a default added by a later migration: inserts may leave it out. */
export type DefaultedBooleanColumn = ColumnType<boolean | number, boolean | undefined, boolean>;

/** A nullable text added by a later migration: inserts may leave it out (it is then null). */
export type OptionalTextColumn = ColumnType<string | null, string | null | undefined, string | null>;

/** A nullable integer added by a later migration: inserts may leave it out (it is then null). */
export type OptionalIntColumn = ColumnType<number | null, number | null | undefined, number | null>;

export interface RiderTable {
  /** Text so it can be the auth library's user id. */
  id: string;
  /** Stored as given: the auth layer normalises addresses. */
  email: string;
  created_at: number;
  plan: RiderPlan;
  trial_ends_at: number | null;
  /** Both null or both set (check constraint). */
  webhook_url: string | null;
  webhook_secret: string | null;
  /** Alerts by email (to a verified address only); one click in a mail turns it off. */
  email_alerts: DefaultedBooleanColumn;
  /** Alerts by Web Push to every subscribed browser or phone. */
  push_alerts: DefaultedBooleanColumn;
  /** The random token of the one-click unsubscribe link; made with the first alert mail. */
  unsubscribe_token: OptionalTextColumn;
  /** SHA-256 (hex) of the calendar feed's secret; null = no feed. */
  calendar_token_hash: OptionalTextColumn;
}

/** A browser or phone the rider turned Web Push on in (the W3C Push API's subscription). */
export interface PushSubscriptionTable {
  id: string;
  rider_id: string;
  /** The push service's URL for this subscription (RFC 8030); unique across riders. */
  endpoint: string;
  /** The subscription's P-256 public key and auth secret, base64url (RFC 8291). */
  p256dh: string;
  auth: string;
  label: string;
  created_at: number;
}

export type DeliveryChannel = 'email' | 'push';

/**
 * A delivery's state: `pending` (not tried yet), `sending` (claimed by a run;
 * never retried, so a run that dies mid-send cannot send twice), `delivered`,
 * `failed` (retried at `next_attempt_at`), `gave_up` (no attempts left) and
 * `dropped` (not sent: the channel was turned off, the device removed, the
 * window over).
 */
export type DeliveryState = 'pending' | 'sending' | 'delivered' | 'failed' | 'gave_up' | 'dropped';

/** One alert on one channel to one target: delivered at most once. */
export interface AlertDeliveryTable {
  alert_id: string;
  channel: DeliveryChannel;
  /** '' for email; the push subscription's id for push. */
  target: string;
  rider_id: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: number;
  delivered_at: number | null;
  last_error: string | null;
  created_at: number;
}

/** What the deployment makes once for itself and shares between instances (the VAPID key pair). */
export interface ServiceSecretTable {
  name: string;
  value: string;
  created_at: number;
}

export interface WatchTable {
  rider_id: string;
  segment_id: string;
  /** The rider's personal record on the segment, whole seconds. */
  record_s: number | null;
  alerts_on: BooleanColumn;
  threshold_kmh: number;
  /** Alert only when at least this share (percent) of ensemble members reach the threshold; null = no such rule. */
  min_chance_pct: OptionalIntColumn;
  created_at: number;
}

export interface AlertTable {
  id: string;
  rider_id: string;
  segment_id: string;
  window_start: number;
  window_end: number;
  peak_tailwind_kmh: number;
  /** Share of ensemble members (percent) reaching the watch's threshold when recorded; null = not asked or unknown. */
  chance_pct: OptionalIntColumn;
  created_at: number;
  delivered_at: number | null;
  /** Webhook attempts so far, the successful one included. */
  attempts: number;
  last_error: string | null;
}

export interface UsageTable {
  rider_id: string;
  /** Calendar month (UTC) as `YYYY-MM`. */
  month: string;
  calls: number;
}

/** A rider's own segment; `points` is JSON text `[[lat, lon, ele|null], …]` of the simplified line. */
export interface RiderSegmentTable {
  /** `my--` and 20 random base-32 characters: never a catalog slug, never guessable. */
  id: string;
  rider_id: string;
  name: string;
  /** What the rider gave: `gpx`, `geojson` or `points`. */
  source: 'gpx' | 'geojson' | 'points';
  points: string;
  point_count: number;
  distance_m: number;
  gain_m: number;
  grade_pct: number;
  bearing_deg: number;
  /** Share of the line's points that carried an elevation, 0 to 1. */
  elevation_coverage: number;
  created_at: number;
  /**
   * 'loop' or 'out_and_back' for a closed line kept before those were refused
   * (migration 0007): its alerts can never fire. Null for every other segment.
   */
  closed_shape: ColumnType<'loop' | 'out_and_back' | null, never, never>;
}

/** The Stripe customer of a rider, and the last payment seen from them. */
export interface BillingCustomerTable {
  rider_id: string;
  customer_id: string;
  created_at: number;
  last_payment_at: number | null;
  /** Minor units (cents). */
  last_payment_amount: number | null;
  /** ISO 4217, lower case as Stripe sends it. */
  last_payment_currency: string | null;
}

/** The rider's paid plan as Stripe last reported it (one row per rider). */
export interface BillingPlanTable {
  rider_id: string;
  plan_id: PaidPlanId;
  status: PaidStatus;
  stripe_ref: string;
  period_start: number | null;
  period_end: number | null;
  cancel_at_period_end: BooleanColumn;
  grace_until: number | null;
  updated_at: number;
}

/** Every webhook event handled, by Stripe's event id: the idempotency key. */
export interface BillingEventTable {
  id: string;
  type: string;
  created: number;
  processed_at: number;
  rider_id: string | null;
  outcome: string;
}

/** An expiring value of a scheduled job (its lock, its cursor) where no Redis is configured. */
export interface JobStateTable {
  key: string;
  value: string;
  expires_at: number;
}

export interface Database {
  rider: RiderTable;
  billing_customer: BillingCustomerTable;
  billing_plan: BillingPlanTable;
  billing_event: BillingEventTable;
  watch: WatchTable;
  alert: AlertTable;
  usage: UsageTable;
  rider_segment: RiderSegmentTable;
  job_state: JobStateTable;
  discovered_area: DiscoveredAreaTable;
  discovered_segment: DiscoveredSegmentTable;
  push_subscription: PushSubscriptionTable;
  alert_delivery: AlertDeliveryTable;
  service_secret: ServiceSecretTable;
}

/** An area discovery has looked at: mapped (`done`), or `failed` with when to try again. */
export interface DiscoveredAreaTable {
  key: string;
  status: 'done' | 'failed';
  /** When it was last mapped or tried. */
  checked_at: number;
  segment_count: number;
  /** The OSM data's timestamp of the last successful mapping. */
  osm_timestamp: string | null;
  /** The last failure's sentence, for the answer and the operator. */
  failure: string | null;
  /** Failures in a row, for the backoff; 0 after a success. */
  failures: number;
  retry_at: number | null;
  /** Where the roads came from: "Overpass API (host)" or "OpenStreetMap extract spain.osm.pbf". */
  osm_source: string | null;
  elevation_source: string | null;
  /** The offline build that wrote the area (its identity), null when mapped on demand. */
  build: string | null;
}

/** A discovered segment: its GeoJSON feature as JSON text, properties with provenance included. */
export interface DiscoveredSegmentTable {
  id: string;
  area_key: string;
  feature: string;
}
