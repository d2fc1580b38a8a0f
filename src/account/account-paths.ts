/**
 * The settings API's paths and body limits, apart from the handlers so the
 * path table in `src/app/paths.ts` (which every Vercel function imports)
 * names them without compiling the API, its zod schemas or the store.
 */

/** Every path of the rider settings JSON API lies below this one. */
export const RIDER_API_BASE = '/api/rider';

export const OWN_SEGMENTS_PATH = '/api/rider/segments';

/**
 * Largest upload body: 4 MiB of JSON. A serverless deployment refuses
 * request bodies over 4.5 MB before any code runs, so the limit sits below
 * that and every refusal is ours, with a message. The page checks the same
 * number before sending.
 */
export const OWN_SEGMENT_UPLOAD_MAX_BYTES = 4 * 1024 * 1024;

export const WEBHOOK_PATH = '/api/rider/webhook';

/** Largest webhook-setting body read: room for the longest URL, escaped, and the JSON around it. */
export const WEBHOOK_BODY_MAX_BYTES = 16 * 1024;
