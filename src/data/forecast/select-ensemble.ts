import type { SharedCacheTier } from './cell-cache.ts';
import { type CachedEnsembleSource, createEnsembleCache } from './ensemble-cache.ts';
import { createDemoEnsemble } from './ensemble-demo.ts';
import type { EnsembleModelId, EnsembleRequest } from './ensemble-types.ts';
import type { OpenMeteoEnsembleOptions } from './open-meteo-ensemble.ts';
import { openMeteoEnsembleOnDemand } from './open-meteo-on-demand.ts';
import type { Clock } from './types.ts';

/** What the settings choose: no ensemble, the demo one, or Open-Meteo's with a model. */
export interface EnsembleChoice {
  readonly source: 'demo' | 'open-meteo' | 'off';
  readonly model: EnsembleModelId;
  readonly apiKey?: string | undefined;
  readonly timeoutMs?: number | undefined;
  /** Another Open-Meteo ensemble origin (your own, or a test double). */
  readonly baseUrl?: string | undefined;
}

export interface EnsembleDeps {
  readonly fetch?: OpenMeteoEnsembleOptions['fetch'];
  readonly clock?: Clock;
  readonly shared?: SharedCacheTier | undefined;
  /** Every upstream ensemble request, with its weight; the app logs one line per request. */
  readonly onRequest?: (request: EnsembleRequest) => void;
}

/** The chosen ensemble behind its cache, or null when the operator turned ensembles off; Open-Meteo's module loads with the first request. */
export function createEnsemble(choice: EnsembleChoice, deps: EnsembleDeps = {}): CachedEnsembleSource | null {
  if (choice.source === 'off') return null;
  const clockDeps = deps.clock ? { clock: deps.clock } : {};
  const cacheOptions = { ...clockDeps, ...(deps.shared ? { shared: deps.shared } : {}) };
  if (choice.source === 'demo') return createEnsembleCache(createDemoEnsemble(clockDeps), cacheOptions);
  const source = openMeteoEnsembleOnDemand({
    ...clockDeps,
    model: choice.model,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.onRequest ? { onRequest: deps.onRequest } : {}),
    ...(choice.apiKey ? { apiKey: choice.apiKey } : {}),
    ...(choice.timeoutMs === undefined ? {} : { timeoutMs: choice.timeoutMs }),
    ...(choice.baseUrl ? { baseUrl: choice.baseUrl } : {}),
  });
  return createEnsembleCache(source, cacheOptions);
}
