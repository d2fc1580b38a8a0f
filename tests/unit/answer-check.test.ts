/**
 * Tools' answers where they are not validated again (`src/mcp/answer-check.ts`):
 * the output schema the SDK gets lists the same JSON Schema and passes any value as it is.
 */
import { describe, expect, it } from 'vitest';
import { ANSWERS_CHECKED } from '../../src/mcp/answer-check.ts';
import { withCachedJsonSchema, withoutValidation } from '../../src/mcp/schema-cache.ts';
import { PUBLIC_TOOLS } from '../../src/mcp/tools/public.ts';

describe("tools' answers without validation", () => {
  it('are validated from source, where every test runs', () => {
    expect(ANSWERS_CHECKED).toBe(true);
  });

  it('keep the conversions and take any value as it is', async () => {
    const [tool] = PUBLIC_TOOLS;
    if (!tool) throw new Error('no public tool');
    const checked = withCachedJsonSchema(tool.outputSchema, { pro: false });
    const unchecked = withoutValidation(checked);
    const options = { target: 'draft-2020-12' } as const;
    expect(unchecked['~standard'].jsonSchema.output(options)).toBe(
      checked['~standard'].jsonSchema.output(options),
    );
    expect(unchecked['~standard'].vendor).toBe(checked['~standard'].vendor);
    const stray = { not: 'an answer' };
    expect(await unchecked['~standard'].validate(stray)).toEqual({ value: stray });
    expect((await checked['~standard'].validate(stray)).issues).toBeDefined();
  });
});
