/**
 * `node bench/places-share.ts` (and a section of `npm run bench`): the share of the places survey
 * (tests/fixtures/places/survey.json: exonyms, lakes, islands, regions,
 * climbs and shared names as riders type them) that find_tailwind_segments
 * resolves to the area a rider means, by kind, with each miss. The same
 * survey on the code before the ranking and lake rules (main at 3d0c060,
 * 2026-11-26) resolved 71 of 115; BEFORE below keeps that figure, so the
 * script prints before and after side by side.
 */
import { lazyGazetteer } from '../src/data/geocoding/gazetteer.ts';
import { createSegmentCatalog } from '../src/data/segments/catalog.ts';
import { loadEmbeddedSegments } from '../src/data/segments/load.ts';
import { runSurvey, surveyReport } from '../tests/support/places-survey.ts';

/** Measured with this script on main at 3d0c060, before the ranking and lake rules. */
const BEFORE =
  'exonym 24/40, lake 1/27, island 10/10, region 10/10, climb 12/12, shared 14/16; overall 71/115 (61.7 %)';

/**
 * The survey with 22 names added untuned (regions typed alone, national parks and wine regions,
 * discovered Andorra passes, pass names in English or qualified), measured with this script at
 * d6666d9, before regions typed alone were answered and before qualified and pass-word spellings
 * found their segment.
 */
const BEFORE_REGIONS_AND_PASSES =
  'exonym 40/40, lake 26/27, island 10/10, region 10/22, climb 15/22, shared 15/16; overall 116/137 (84.7 %); ' +
  'misses by cause: known miss 2, namesake abroad 2, not found 17';

/** Prints the survey's share before (BEFORE, BEFORE_REGIONS_AND_PASSES) and now; a few seconds, one core. */
export async function printPlacesShare(): Promise<void> {
  const context = { catalog: createSegmentCatalog(loadEmbeddedSegments()), geocoder: lazyGazetteer() };
  const answers = await runSurvey(context);
  console.log('\nPlaces survey (tests/fixtures/places/survey.json), resolved to the area a rider means:');
  console.log(`  before: ${BEFORE}`);
  console.log(`  before regions and passes: ${BEFORE_REGIONS_AND_PASSES}`);
  console.log(`  now:    ${surveyReport(answers)}`);
}

if (import.meta.main) await printPlacesShare();
