/**
 * What Vercel runs for api/cron-alerts: the one-file bundle of `api/_entries/cron-alerts.ts`
 * that the build command writes (`scripts/vercel/bundle-functions.ts`).
 */
export { default } from './_bundle/cron-alerts.js';
