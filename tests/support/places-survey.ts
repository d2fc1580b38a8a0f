import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { greatCircleM } from '../../src/core/distance.ts';
import type { ToolContext } from '../../src/mcp/context.ts';
import { resolvePlace } from '../../src/service/place.ts';
import { ServiceError } from '../../src/service/service-error.ts';

/** One name as riders type it, with the area they mean (tests/fixtures/places/survey.json). */
export const SurveyPlaceSchema = z.object({
  query: z.string().min(1),
  category: z.enum(['exonym', 'lake', 'island', 'region', 'climb', 'shared']),
  /** Every country an answer may lie in (a lake on a border: each shore). */
  country_codes: z.array(z.string().regex(/^[A-Z]{2}$/)).min(1),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  tolerance_km: z.number().positive(),
  source: z.string().min(1),
  /** Why the entry is still answered wrong, when it is (see the fixture's description). */
  known_miss: z.string().min(1).optional(),
});
export type SurveyPlace = z.infer<typeof SurveyPlaceSchema>;

export function loadSurvey(): SurveyPlace[] {
  const text = readFileSync(new URL('../fixtures/places/survey.json', import.meta.url), 'utf8');
  return z.object({ places: z.array(SurveyPlaceSchema).min(80) }).parse(JSON.parse(text)).places;
}

export interface SurveyAnswer {
  readonly place: SurveyPlace;
  /** What the tool resolved it to ("Girona, ES"), or its error. */
  readonly answer: string;
  readonly right: boolean;
  readonly offKm: number;
  /** Why it is wrong (see MissCause); null when right. */
  readonly cause: MissCause | null;
}

/**
 * Why a survey name is answered wrong, so a report says which rule to look at:
 * a known miss (the fixture says why), nothing found, a namesake in another
 * country, or the right country but too far from the area meant.
 */
export type MissCause = 'known miss' | 'not found' | 'namesake abroad' | 'too far in the country';

/**
 * Resolves every survey name as `find_tailwind_segments` does (segment names
 * first, then the geocoder) and judges each against the area a rider means:
 * one of its countries, within its tolerance of its centre.
 */
export async function runSurvey(
  context: Pick<ToolContext, 'catalog' | 'geocoder'>,
  places: readonly SurveyPlace[] = loadSurvey(),
): Promise<SurveyAnswer[]> {
  const answers: SurveyAnswer[] = [];
  for (const place of places) {
    try {
      const { place: found } = await resolvePlace(
        { place: place.query } as Parameters<typeof resolvePlace>[0],
        context as ToolContext,
      );
      const offKm =
        greatCircleM(
          { lat: place.latitude, lon: place.longitude },
          { lat: found.latitude, lon: found.longitude },
        ) / 1000;
      const inCountry = found.country_code !== null && place.country_codes.includes(found.country_code);
      const right = inCountry && offKm <= place.tolerance_km;
      const cause = right ? null : missCause(place, inCountry ? 'too far in the country' : 'namesake abroad');
      answers.push({ place, answer: found.name, right, offKm, cause });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      answers.push({
        place,
        answer: 'not found',
        right: false,
        offKm: Infinity,
        cause: missCause(place, 'not found'),
      });
    }
  }
  return answers;
}

function missCause(place: SurveyPlace, cause: MissCause): MissCause {
  return place.known_miss === undefined ? cause : 'known miss';
}

/** "exonym 40/40, lake …; overall 112/115 (97.4 %)", the misses counted by cause, and one line per miss. */
export function surveyReport(answers: readonly SurveyAnswer[]): string {
  const categories = [...new Set(answers.map((a) => a.place.category))];
  const share = (list: readonly SurveyAnswer[]) => `${list.filter((a) => a.right).length}/${list.length}`;
  const right = answers.filter((a) => a.right).length;
  const lines = [
    `${categories.map((c) => `${c} ${share(answers.filter((a) => a.place.category === c))}`).join(', ')}; ` +
      `overall ${right}/${answers.length} (${((100 * right) / answers.length).toFixed(1)} %)`,
  ];
  const misses = answers.filter((a) => !a.right);
  const causes = [...new Set(misses.map((a) => a.cause))];
  if (misses.length > 0)
    lines.push(
      `  misses by cause: ${causes.map((c) => `${c} ${misses.filter((a) => a.cause === c).length}`).join(', ')}`,
    );
  for (const a of misses) {
    const off = Number.isFinite(a.offKm) ? `, ${a.offKm.toFixed(0)} km from the ${a.place.category}` : '';
    lines.push(`  miss (${a.cause ?? ''}): ${a.place.query} → ${a.answer}${off}`);
  }
  return lines.join('\n');
}
