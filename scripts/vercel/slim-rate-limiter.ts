/**
 * rate-limiter-flexible, in the functions, as the three classes the service
 * uses (`src/store/shared-state/rate-limiter.ts`) instead of its whole index.
 *
 * The package's index module requires every backend it has (Mongo, MySQL,
 * Postgres, DynamoDB, Prisma, Drizzle, etcd, Valkey, cluster…, some thirty
 * CommonJS modules) to export them together, and a bundle evaluates them
 * all when the index is first required: the MCP function does so before its
 * first answer, since a public call takes its connection's limit. The
 * stand-in requires only the memory and Redis limiters and their result
 * type, which is what the bundle keeps.
 *
 * `tests/unit/slim-rate-limiter.test.ts` fails when the source imports a
 * name the stand-in does not export, so a new backend cannot come out
 * undefined in a deployment.
 */
import type { Plugin } from 'esbuild';

/** The package's exports the service imports, each with the module that defines it. */
export const RATE_LIMITER_EXPORTS = {
  RateLimiterMemory: './lib/RateLimiterMemory.js',
  RateLimiterRedis: './lib/RateLimiterRedis.js',
  RateLimiterRes: './lib/RateLimiterRes.js',
} as const;

/** The stand-in for the package's index module: the same CommonJS shape, fewer modules. */
export function slimRateLimiterIndex(): string {
  const lines = Object.entries(RATE_LIMITER_EXPORTS).map(
    ([name, path]) => `  ${name}: require(${JSON.stringify(path)}),`,
  );
  return ['module.exports = {', ...lines, '};', ''].join('\n');
}

/** The esbuild step: the package's index module replaced by `slimRateLimiterIndex`. */
export function slimRateLimiter(): Plugin {
  return {
    name: 'slim-rate-limiter',
    setup(build) {
      build.onLoad({ filter: /[\\/]rate-limiter-flexible[\\/]index\.js$/ }, () => ({
        contents: slimRateLimiterIndex(),
        loader: 'js',
      }));
    },
  };
}
