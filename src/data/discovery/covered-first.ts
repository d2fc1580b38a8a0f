import { DiscoveryError } from './discovery-error.ts';
import type { ElevationSource } from './types.ts';

/**
 * Heights from `covering` where it has them, else from `fallback`: the seed
 * tiles ship with the service and answer without a request, so a segment
 * inside them costs Open-Meteo nothing. `covering` refuses a point with no
 * tile (or only void posts around it); any other failure of it is its own
 * fault and is not hidden behind the fallback.
 */
export function coveredFirst(covering: ElevationSource, fallback: ElevationSource): ElevationSource {
  return {
    label: `${covering.label}, else ${fallback.label}`,
    async elevations(points, signal) {
      try {
        return await covering.elevations(points, signal);
      } catch (error) {
        if (error instanceof DiscoveryError && error.failure === 'refused')
          return fallback.elevations(points, signal);
        throw error;
      }
    },
  };
}
