import type { ResolvedUrls } from '../../http/public-urls.ts';
import { attributionFor } from '../../service/answer-words.ts';
import { catalogSegment } from '../../service/catalog-segment.ts';
import type { RestData } from '../data-port.ts';
import type { SegmentDetailResult } from '../schemas/segment-results.ts';
import { forecastFacts, segmentDetailResult } from '../segment-answers.ts';
import { answering } from './answering.ts';

/** `GET /v1/segments/{id}`: the use case `catalogSegment` (as `get_segment` judges it), in the REST shape. */
export const segmentAnswer = answering(
  async (id: string, data: RestData, urls: ResolvedUrls): Promise<SegmentDetailResult> => {
    const { segment, location, profile, forecast, wind } = await catalogSegment(
      id,
      { includeDarkness: false },
      data,
    );
    return segmentDetailResult(segment, {
      location,
      forecast: forecastFacts(forecast, data.forecast.id),
      hours: wind?.timeline ?? [],
      bestWindow: wind?.best.window ?? null,
      windowStatus: wind?.best.status ?? 'no_forecast',
      attribution: attributionFor(data.forecast.id, [segment], null),
      pricingUrl: urls.pricing,
      profile: profile.points,
    });
  },
);
