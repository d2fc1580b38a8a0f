/**
 * What Vercel runs for api/rest: the one-file bundle of `api/_entries/rest.ts`
 * that the build command writes (`scripts/vercel/bundle-functions.ts`).
 */
export { default } from './_bundle/rest.js';
