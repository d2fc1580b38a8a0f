import { describe, expect, it } from 'vitest';
import { inlineCodeRuns } from '../../src/components/docs/inline-code.ts';
import { TailwindResultSchema } from '../../src/rest/schemas/results.ts';
import { schemaFields } from '../../src/components/docs/schema-fields.ts';

describe('inlineCodeRuns', () => {
  it('sets each backticked name of the TailwindResult effect row as code, with no backtick left', () => {
    const effect = schemaFields(TailwindResultSchema).find((row) => row.name === 'effect');
    const runs = inlineCodeRuns(effect?.description ?? '');
    expect(runs.filter((run) => run.code).map((run) => run.text)).toEqual(['calm', 'crosswind']);
    expect(runs.some((run) => run.text.includes('`'))).toBe(false);
    expect(runs.map((run) => run.text).join('')).toBe((effect?.description ?? '').replaceAll('`', ''));
  });

  it('keeps text without backticks whole, and an unpaired backtick as text', () => {
    expect(inlineCodeRuns('Echo of the input.')).toEqual([{ text: 'Echo of the input.', code: false }]);
    expect(inlineCodeRuns('a ` b')).toEqual([{ text: 'a ` b', code: false }]);
    expect(inlineCodeRuns('')).toEqual([]);
    expect(inlineCodeRuns('`x`')).toEqual([{ text: 'x', code: true }]);
  });
});
