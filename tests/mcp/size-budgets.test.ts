import { describe, expect, it } from 'vitest';
import { ANSWER_BUDGET, TOOL_LIST_BUDGET } from '../../src/mcp/size-budgets.ts';
import { ERAS } from '../support/mcp-client.ts';
import { ADDRESSES, servedPublicAnswer, servedToolList } from '../support/mcp-sizes.ts';
import { hundredKmPoints } from '../support/route-points.ts';

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
 * Public answers of the tool-example table against their budgets. The
 * find_tailwind_segments examples (five segments, the headings answer) are
 * still over their 8 KB and are measured by `npm run bench` only, until the
 * find answer is made lean; rider-address answers are not in this table yet.
 */
const ANSWERS: readonly [string, string, Record<string, unknown>, boolean, number][] = [
  ['get_segment, public', 'get_segment', { segment_id: 'fr-alpe-d-huez' }, false, ANSWER_BUDGET.get_segment],
  [
    'get_route_wind, 40 km',
    'get_route_wind',
    { points: hundredKmPoints().slice(0, 81) },
    false,
    ANSWER_BUDGET.get_route_wind,
  ],
  ['find_tailwind_segments error', 'find_tailwind_segments', { radius_m: 5 }, true, ANSWER_BUDGET.error],
  ['get_segment error', 'get_segment', { segment_id: 'no-such-segment' }, true, ANSWER_BUDGET.error],
  ['get_route_wind error', 'get_route_wind', { points: [{ x: 1, y: 2 }] }, true, ANSWER_BUDGET.error],
];

describe.each(ERAS)('public answers as served, protocol %s', (era) => {
  it.each(ANSWERS)('%s stays within its budget', async (_what, tool, args, isError, budget) => {
    const answer = await servedPublicAnswer(tool, args, era);
    // The measure is of the answer meant: a success where one is expected, an error where one is.
    expect(answer.isError).toBe(isError);
    expect(answer.bytes, `${tool}: ${answer.bytes} bytes`).toBeLessThanOrEqual(budget);
  });
});
