import { beforeAll, describe, expect, it } from 'vitest';
import { ensureGazetteer } from '../../scripts/data/gazetteer.ts';
import { lazyGazetteer } from '../../src/data/geocoding/gazetteer.ts';
import { createSegmentCatalog } from '../../src/data/segments/catalog.ts';
import { loadEmbeddedSegments } from '../../src/data/segments/load.ts';
import { loadSurvey, runSurvey, surveyReport, type SurveyAnswer } from '../support/places-survey.ts';

/** The survey (tests/fixtures/places/survey.json) as find_tailwind_segments resolves it. */
let answers: SurveyAnswer[];

beforeAll(async () => {
  await ensureGazetteer();
  const context = { catalog: createSegmentCatalog(loadEmbeddedSegments()), geocoder: lazyGazetteer() };
  answers = await runSurvey(context);
  console.log(`places survey: ${surveyReport(answers)}`);
}, 60_000);

describe('places survey: names as riders type them', () => {
  it('holds at least 80 names of every kind riders use', () => {
    const places = loadSurvey();
    expect(places.length).toBeGreaterThanOrEqual(80);
    for (const category of ['exonym', 'lake', 'island', 'region', 'climb', 'shared'] as const)
      expect(places.filter((place) => place.category === category).length, category).toBeGreaterThanOrEqual(
        8,
      );
  });

  it('resolves every exonym and every lake to the area a rider means, but the known misses', () => {
    const wrong = answers
      .filter(
        (a) => ['exonym', 'lake'].includes(a.place.category) && a.place.known_miss === undefined && !a.right,
      )
      .map((a) => `${a.place.query} → ${a.answer}`);
    expect(wrong).toEqual([]);
  });

  it('still misses each known miss (remove the mark when one is fixed)', () => {
    const fixed = answers
      .filter((a) => a.place.known_miss !== undefined && a.right)
      .map((a) => a.place.query);
    expect(fixed).toEqual([]);
  });

  it('answers a lake it cannot place with "not found", never with somewhere else', () => {
    const misplaced = answers
      .filter((a) => a.place.category === 'lake' && !a.right && a.answer !== 'not found')
      .map((a) => `${a.place.query} → ${a.answer}`);
    expect(misplaced).toEqual([]);
  });

  it('resolves islands, regions and climbs all right, and over 97 % of the whole survey', () => {
    const wrong = answers
      .filter((a) => ['island', 'region', 'climb'].includes(a.place.category) && !a.right)
      .map((a) => a.place.query);
    expect(wrong).toEqual([]);
    expect(answers.filter((a) => a.right).length / answers.length).toBeGreaterThan(0.97);
  });
});
