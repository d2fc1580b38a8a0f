import { allowanceRefusal, watchlistFullRefusal } from '../../core/own-segment.ts';
import { OWN_SEGMENT_ALLOWANCE } from '../../core/plans.ts';
import { ACCOUNT_PROBLEM_CODES, type AccountProblemCode } from '../../core/problems.ts';
import { ACCOUNT_PROBLEM_STATUS, problemDocument } from '../../http/problem-json.ts';
import { WATCHLIST_MAX_SEGMENTS } from '../../core/rider-rules.ts';
import type { ErrorSection } from './error-section.ts';

/** What each code's section says, and the detail and fields of its example answer. */
const ENTRIES: Record<
  AccountProblemCode,
  { cause: string; request: string; detail: string; fields?: Record<string, unknown> }
> = {
  unauthorized: {
    cause: 'No signed-in session: the session cookie is missing or expired.',
    request: 'GET /api/rider/me without a session cookie',
    detail: 'Sign in first.',
  },
  cross_site_request: {
    cause:
      'A POST whose Origin header is missing or names another site. Browsers send Origin on every POST, so this stops cross-site forgery even where SameSite cookies are not honoured.',
    request: 'POST /api/rider/webhook with Origin: https://elsewhere.example',
    detail: 'Cross-site request refused.',
  },
  misdirected_request: {
    cause:
      'The request named a host this server does not serve (protection against DNS rebinding): the settings API answers only under the site’s own host names.',
    request: 'GET /api/rider/me with Host: rebound.example',
    detail: 'This server does not answer for rebound.example.',
  },
  invalid_request: {
    cause:
      'The JSON body is not valid JSON, or does not have the fields the endpoint takes (a checkout with an unknown plan or currency, an upload without a name, a removal without segment_id).',
    request: 'POST /api/rider/billing/checkout {"plan": "pro_weekly", "currency": "eur"}',
    detail: 'Send {"plan": one of pro_monthly, pro_annual, pro_lifetime, "currency": one of eur, usd}.',
  },
  unsupported_media_type: {
    cause: 'A POST body that is not sent as application/json.',
    request: 'POST /api/rider/webhook with Content-Type: application/x-www-form-urlencoded',
    detail: 'Send the webhook setting as application/json.',
  },
  payload_too_large: {
    cause:
      'The body is larger than the endpoint reads: 4 MB for a segment upload, 16 KB for the webhook setting.',
    request: 'POST /api/rider/segments with a 6 MB GPX',
    detail:
      'The upload is larger than the 4 MB the settings page takes. Simplify the track in your route planner, or export it without sensor extensions.',
  },
  invalid_webhook_url: {
    cause:
      'The webhook URL is not https, carries credentials, names a private, loopback or reserved address (or a host that resolves to one), or is longer than 2048 characters. The alert job applies the same rule before every delivery.',
    request: 'POST /api/rider/webhook {"url": "http://example.com/hook"}',
    detail: 'refused: the webhook URL must use https',
  },
  invalid_route: {
    cause:
      'The uploaded GPX or GeoJSON cannot be read as one segment. route_error names the reason (the same codes the MCP tools use), detail says it in words.',
    request: 'POST /api/rider/segments {"name": "x", "format": "gpx", "text": "<gpx></gpx>"}',
    detail:
      'Not saved: The GPX file has no track or route points (<trkpt> or <rtept>); waypoints alone are not a route.',
    fields: { route_error: 'no_points' },
  },
  allowance_reached: {
    cause:
      'The rider already has as many own segments as the plan allows. pricing is true when Pro would allow more.',
    request: 'POST /api/rider/segments by a Free rider with the allowance used',
    detail: `Not saved: ${allowanceRefusal(OWN_SEGMENT_ALLOWANCE.free, OWN_SEGMENT_ALLOWANCE.free, false, OWN_SEGMENT_ALLOWANCE.pro)}`,
    fields: { pricing: true },
  },
  watchlist_full: {
    cause: 'Saving the segment would watch it, and the watchlist already holds its maximum of segments.',
    request: 'POST /api/rider/segments with a full watchlist',
    detail: `Not saved: ${watchlistFullRefusal(WATCHLIST_MAX_SEGMENTS)}`,
  },
  connection_not_found: {
    cause:
      'No assistant of this rider is connected under that client id: it was disconnected already, or belongs to another rider (both answer alike).',
    request: 'POST /api/rider/connections/unknown-client/disconnect',
    detail: 'No such connection.',
  },
  segment_not_found: {
    cause: 'The rider has no own segment with this id (another rider’s id answers alike).',
    request: 'POST /api/rider/segments/remove {"segment_id": "my--unknown"}',
    detail: 'You have no own segment with this id.',
  },
  account_not_found: {
    cause: 'The rider account was deleted while a checkout was being opened for it.',
    request: 'POST /api/rider/billing/checkout for a deleted account',
    detail: 'This rider account no longer exists.',
  },
  payments_not_configured: {
    cause:
      'This deployment has no Stripe keys: checkout, the portal and the Stripe webhook are off. GET /api/billing/status says so before a page offers a Buy button.',
    request: 'POST /api/rider/billing/checkout on a deployment without STRIPE_* variables',
    detail: 'Payments are not set up on this deployment. New accounts get the Pro trial.',
  },
  invalid_push_subscription: {
    cause:
      'The Web Push subscription is not one the service can send to: not the shape the browser’s PushSubscription.toJSON() gives, keys of the wrong length, or an endpoint that is not https on a public address.',
    request: 'POST /api/rider/push {"endpoint": "http://10.0.0.1/push", "keys": {…}}',
    detail: 'Not saved: the push endpoint must be an https URL on the public internet.',
  },
  device_not_found: {
    cause:
      'No push device of this rider has this id: it was removed already, or belongs to another rider (both answer alike).',
    request: 'POST /api/rider/push/remove {"id": "unknown"}',
    detail: 'You have no push device with this id.',
  },
  link_not_valid: {
    cause:
      'The calendar feed address or the unsubscribe link names nobody: the feed was renewed or turned off, or the account was deleted. A forged link answers alike.',
    request: 'GET /api/rider/calendar/forged.ics',
    detail: 'This calendar address is not valid (renewed, turned off or never issued).',
  },
  already_paid: {
    cause: 'The rider already has a paid Pro plan; a second checkout would charge twice.',
    request: 'POST /api/rider/billing/checkout by a paying rider',
    detail:
      'This account already has a paid Pro plan. Change or cancel it from Manage billing on the settings page.',
  },
  no_billing_account: {
    cause: 'The portal is for riders who have paid or started a checkout; this rider has not.',
    request: 'POST /api/rider/billing/portal before any checkout',
    detail: 'No payment yet: pick a plan on the pricing page first.',
  },
  payment_provider_unavailable: {
    cause: 'Stripe could not be reached, or refused the request. Nothing was charged; the failure is logged.',
    request: 'POST /api/rider/billing/checkout while Stripe is down',
    detail: 'The payment provider could not be reached. Try again in a moment.',
  },
  invalid_signature: {
    cause:
      'A delivery to the Stripe webhook without a Stripe-Signature header, or with one that does not verify with the endpoint’s secret or is older than five minutes.',
    request: 'POST /api/billing/webhook without Stripe-Signature',
    detail: 'Stripe-Signature header missing.',
  },
  temporarily_unavailable: {
    cause:
      'A signed event arrived, but Stripe could not be asked for the object it names. Nothing is recorded, so Stripe’s retry is handled as new.',
    request: 'POST /api/billing/webhook while Stripe’s API is down',
    detail: 'Stripe could not be asked about this event.',
  },
};

/**
 * The codes of the settings API and billing, one section each. Typed over
 * the code table, so a new code without its entry here fails the type
 * check; the fix is the code's hint and the example body comes from the one
 * renderer the endpoints answer with.
 */
export function accountErrorSections(site: URL): ErrorSection[] {
  const docsUrl = new URL('/docs', site).href;
  return (Object.keys(ACCOUNT_PROBLEM_CODES) as AccountProblemCode[]).map((code) => {
    const { title, hint } = ACCOUNT_PROBLEM_CODES[code];
    const status = ACCOUNT_PROBLEM_STATUS[code];
    const { cause, request, detail, fields } = ENTRIES[code];
    const path = request.split(' ')[1] ?? '/';
    const body = problemDocument(code, {
      detail,
      instance: path,
      docsUrl,
      ...(fields ? { extensions: fields } : {}),
    });
    return { code, status, title, cause, fix: hint, request, body: JSON.stringify(body, null, 2) };
  });
}
