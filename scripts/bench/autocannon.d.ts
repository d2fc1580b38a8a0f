/**
 * The slice of autocannon's programmatic API the bench uses. autocannon ships
 * plain JavaScript and `@types/autocannon` is not a dependency, so the shapes
 * are declared here (see node_modules/autocannon/lib/aggregateResult.js).
 */
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      readonly url: string;
      readonly connections?: number;
      readonly pipelining?: number;
      /** Seconds. */
      readonly duration?: number;
      /** The requests each connection cycles through; `setupRequest` may rewrite one before it is sent. */
      readonly requests?: readonly {
        readonly setupRequest?: <R extends { path: string }>(request: R) => R;
      }[];
    }

    /** A histogram summary; for `latency` the unit is milliseconds, for `requests` requests per second. */
    interface Histogram {
      readonly average: number;
      readonly mean: number;
      readonly stddev: number;
      readonly min: number;
      readonly max: number;
      readonly p50: number;
      readonly p90: number;
      readonly p99: number;
    }

    interface Result {
      readonly requests: Histogram;
      readonly latency: Histogram;
      readonly errors: number;
      readonly timeouts: number;
      readonly non2xx: number;
      readonly '2xx': number;
    }
  }

  /** Without a callback, autocannon returns a thenable tracker that resolves with the result. */
  function autocannon(options: autocannon.Options): PromiseLike<autocannon.Result>;

  export = autocannon;
}
