import { attributionFor } from '../../service/answer-words.ts';
import { NEAREST_BEYOND_RADIUS } from '../../service/segments-around.ts';
import { segmentsNear } from '../../service/segments-near.ts';
import type { RestData } from '../data-port.ts';
import type { SegmentsNearQuery } from '../schemas/data-queries.ts';
import type { SegmentsNearResult } from '../schemas/segment-results.ts';
import { forecastFacts, segmentsNearResult } from '../segment-answers.ts';
import { answering } from './answering.ts';

/**
 * `GET /v1/segments`: the use case `segmentsNear` (the steps
 * `find_tailwind_segments` takes too), in the REST shape. At most `limit`
 * segments: those within the radius, best-known first; with none there, the
 * nearest beyond it (three at most, as the tool lists them, and never more
 * than `limit`). Bounded by `limit` alone, not by a byte budget (decision 0035).
 */
export const segmentsNearAnswer = answering(
  async (query: SegmentsNearQuery, data: RestData): Promise<SegmentsNearResult> => {
    const asked = {
      radiusM: query.radius_km * 1000,
      limit: query.limit,
      beyond: Math.min(query.limit, NEAREST_BEYOND_RADIUS),
      includeDarkness: false,
    };
    const input = { place: query.place, latitude: query.lat, longitude: query.lon };
    const { place, credit, near, forecast, listed, timeZone } = await segmentsNear(input, asked, data);
    return segmentsNearResult({
      place,
      timeZone,
      radiusM: near.radiusM,
      withinRadius: near.found.length > 0,
      segments: listed,
      mapping: near.mapping,
      forecast: forecastFacts(forecast, data.forecast.id),
      attribution: attributionFor(
        data.forecast.id,
        listed.map(({ segment }) => segment),
        credit,
      ),
    });
  },
);
