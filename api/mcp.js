/**
 * What Vercel runs for api/mcp: the one-file bundle of `api/_entries/mcp.ts`
 * that the build command writes (`scripts/vercel/bundle-functions.ts`).
 */
export { default } from './_bundle/mcp.js';
