import { readFileSync } from 'node:fs';
import type { ServerMiddleware } from 'srvx';

interface VercelHeaders {
  headers?: { source: string; headers: { key: string; value: string }[] }[];
}

/**
 * The site's security headers, read from `vercel.json` so `npm start` sends
 * exactly what the deployment sends. Only the catch-all rule is applied
 * here; a path-specific rule would need Vercel's path matching.
 */
export function siteHeaders(vercelJsonPath: URL): ServerMiddleware {
  const config = JSON.parse(readFileSync(vercelJsonPath, 'utf8')) as VercelHeaders;
  const headers = (config.headers ?? [])
    .filter((rule) => rule.source === '/(.*)')
    .flatMap((rule) => rule.headers);
  return async (_request, next) => {
    const response = await next();
    for (const { key, value } of headers) {
      if (!response.headers.has(key)) response.headers.set(key, value);
    }
    return response;
  };
}
