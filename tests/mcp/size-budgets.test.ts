import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_BUDGET, TOOL_LIST_BUDGET } from '../../src/mcp/size-budgets.ts';
import { ERAS } from '../support/mcp-client.ts';
import {
  ADDRESSES,
  ANSWER_EXAMPLES,
  riderSizes,
  servedPublicAnswer,
  servedToolList,
  type RiderSizes,
} from '../support/mcp-sizes.ts';

// Issue 21: what an assistant is sent, measured as served (HTTP body bytes), against its budget.

const TOOLS = { '/mcp': 3, '/mcp/rider': 10 } as const;

describe.each(ERAS)('tools/list as served, protocol %s', (era) => {
  it.each(ADDRESSES)('at %s stays within its budget', async (address) => {
    const { bytes, tools } = await servedToolList(address, era);
    // The measure is of the whole list, not an empty or failed answer.
    expect(tools).toBe(TOOLS[address]);
    expect(bytes, `tools/list at ${address}: ${bytes} bytes`).toBeLessThanOrEqual(TOOL_LIST_BUDGET[address]);
    expect(bytes).toBeGreaterThan(TOOL_LIST_BUDGET[address] / 4);
  });
});

/**
 * The examples of issue 21 (tests/support/mcp-sizes.ts, which `npm run
 * bench` reports too): at the public address, and at the rider address for
 * a Pro, a trial and a free rider, the Pro ones with the chance of a tailwind.
 */
const PUBLIC = ANSWER_EXAMPLES.filter((e) => e.plan === undefined);
const RIDER = ANSWER_EXAMPLES.filter((e) => e.plan !== undefined);

describe.each(ERAS)('public answers as served, protocol %s', (era) => {
  it.each(PUBLIC.map((e) => [e.what, e] as const))('%s stays within its budget', async (_what, example) => {
    const answer = await servedPublicAnswer(example.tool, example.args, era);
    // The measure is of the answer meant: a success where one is expected, an error where one is.
    expect(answer.isError).toBe(example.isError);
    expect(answer.bytes, `${example.what}: ${answer.bytes} bytes`).toBeLessThanOrEqual(example.budget);
  });
});

describe.each(ERAS)('rider-address answers as served, protocol %s', (era) => {
  let sizes: RiderSizes;
  beforeAll(async () => {
    sizes = await riderSizes();
  });
  afterAll(() => sizes.close());

  it.each(RIDER.map((e) => [`${e.what}, ${e.plan ?? ''} rider`, e] as const))(
    '%s stays within its budget',
    async (_what, example) => {
      const answer = await sizes.answer(example.plan ?? 'free', example.tool, example.args, era);
      expect(answer.isError).toBe(example.isError);
      expect(answer.bytes, `${example.what}: ${answer.bytes} bytes`).toBeLessThanOrEqual(example.budget);
      // A Pro or trial rider's find is measured with its chances in, a free rider's with the lock.
      if (example.tool === 'find_tailwind_segments') {
        const data = answer.structured ?? {};
        const pro = example.plan !== 'free';
        expect('ensemble' in data).toBe(pro);
        const windows = [
          ...((data['segments'] ?? []) as { best_window: { chance?: unknown } | null }[]),
          ...((data['nearest_beyond_radius'] ?? []) as { best_window: { chance?: unknown } | null }[]),
        ].flatMap((s) => (s.best_window ? [s.best_window] : []));
        expect(windows.length).toBeGreaterThan(0);
        for (const window of windows) expect(window.chance !== undefined).toBe(pro);
      }
    },
  );
});

/**
 * Names riders type most are shared by many places: a big city's alternatives, with no segment near
 * and so the nearest beyond the radius and the eight headings, once passed 8 KB ("Paris" 8.7 KB).
 */
const BUSY_NAMES = ['Paris', 'London', 'Cambridge', 'Newport', 'Birmingham', 'Springfield', 'Santa Cruz'];

describe('find answers for busy place names', () => {
  let sizes: RiderSizes;
  beforeAll(async () => {
    sizes = await riderSizes();
  });
  afterAll(() => sizes.close());

  it.each(BUSY_NAMES)('%s stays within its budget at both addresses, in both eras', async (place) => {
    for (const era of ERAS) {
      const pub = await servedPublicAnswer('find_tailwind_segments', { place }, era);
      const pro = await sizes.answer('pro', 'find_tailwind_segments', { place }, era);
      for (const [who, answer] of [
        ['public', pub],
        ['Pro', pro],
      ] as const) {
        expect(answer.isError, `${place} ${who} ${era}`).toBe(false);
        expect(answer.bytes, `${place} ${who} ${era}: ${answer.bytes} bytes`).toBeLessThanOrEqual(
          ANSWER_BUDGET.find_tailwind_segments,
        );
      }
      // What is cut to fit leaves a useful answer: the headings, a segment to travel to or the places to ask about.
      const data = pro.structured as { headings: unknown[] | null; place: { alternatives: unknown[] } };
      expect(data.headings?.length ?? 8).toBe(8);
      expect(data.place.alternatives.length).toBeGreaterThanOrEqual(
        Math.min(2, data.place.alternatives.length),
      );
    }
  });
});
