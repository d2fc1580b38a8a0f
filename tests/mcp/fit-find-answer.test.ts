import { describe, expect, it } from 'vitest';
import { fitFindAnswer } from '../../src/mcp/tools/find-tailwind-segments.ts';
import type { FindTailwindSegmentsOutput } from '../../src/mcp/schemas/find.ts';

const alternative = (name: string) => ({
  name,
  country_code: 'US',
  latitude: 1,
  longitude: 2,
  population: 1000,
  region: 'Somewhere',
  kind: 'town' as const,
});
const beyond = (id: string) => ({ id, name: id.repeat(20) });

/** A find answer with only what the fitting reads, padded so every item weighs a few hundred bytes. */
function answer(ambiguous: boolean): FindTailwindSegmentsOutput {
  return {
    place: { ambiguous, alternatives: ['A', 'B', 'C', 'D', 'E'].map((n) => alternative(n.repeat(150))) },
    nearest_beyond_radius: ['x', 'y', 'z'].map(beyond),
    headings: [],
  } as unknown as FindTailwindSegmentsOutput;
}

const summarize = (data: FindTailwindSegmentsOutput) =>
  `${data.place.alternatives.map((a) => a.name[0]).join('')}/${(data.nearest_beyond_radius ?? []).map((s) => s.id).join('')}`;
const size = (data: FindTailwindSegmentsOutput, summary: string) =>
  Buffer.byteLength(JSON.stringify(data)) + Buffer.byteLength(JSON.stringify(summary));

describe('fitting a find answer to its budget', () => {
  it('leaves an answer within the limit untouched', () => {
    const data = answer(false);
    const fitted = fitFindAnswer(data, summarize, size(data, summarize(data)));
    expect(fitted.data).toBe(data);
    expect(fitted.summary).toBe('ABCDE/xyz');
  });

  it('cuts the last alternatives first, down to two, then the farthest segments, and rebuilds the text', () => {
    const data = answer(false);
    const full = size(data, summarize(data));
    const trimmed = {
      ...data,
      place: { ...data.place, alternatives: data.place.alternatives.slice(0, 2) },
      nearest_beyond_radius: (data.nearest_beyond_radius ?? []).slice(0, 2),
    };
    expect(fitFindAnswer(data, summarize, full - 1).summary).toBe('ABCD/xyz');
    expect(fitFindAnswer(data, summarize, size(trimmed, 'AB/xy')).summary).toBe('AB/xy');
    expect(fitFindAnswer(data, summarize, 10).summary).toBe('AB/x');
  });

  it('for an ambiguous name, cuts the segments first and keeps the places to ask about', () => {
    const data = answer(true);
    const full = size(data, summarize(data));
    expect(fitFindAnswer(data, summarize, full - 1).summary).toBe('ABCDE/xy');
    expect(fitFindAnswer(data, summarize, 10).summary).toBe('AB/x');
  });
});
