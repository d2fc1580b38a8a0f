/**
 * The MCP bytes section of `npm run bench` (issue 21), also runnable alone:
 * `node bench/mcp-sizes.ts`. What an assistant is sent, as served, against
 * the budgets of src/mcp/size-budgets.ts: `tools/list` at both addresses, in
 * both protocol eras, and public tool answers (the examples of issue 21)
 * against their answer budgets. In-process, with the test data; the same measure the
 * budget test (tests/mcp/size-budgets.test.ts) fails on. A measurement: a
 * MISS is printed, not an exit code.
 */
import { pathToFileURL } from 'node:url';
import { ANSWER_BUDGET, TOOL_LIST_BUDGET } from '../src/mcp/size-budgets.ts';
import { ensureGazetteer } from '../scripts/data/gazetteer.ts';
import { ERAS } from '../tests/support/mcp-client.ts';
import { ADDRESSES, servedPublicAnswer, servedToolList } from '../tests/support/mcp-sizes.ts';
import { hundredKmPoints } from '../tests/support/route-points.ts';
import { table } from './table.ts';

const kb = (bytes: number): string => (bytes / 1000).toFixed(1);
const verdict = (bytes: number, budget: number): string => (bytes <= budget ? 'PASS' : 'MISS');

/** Public answers measured: what, tool, arguments, budget. Rider-address answers are not measured here yet. */
const PUBLIC_ANSWERS: readonly [string, string, Record<string, unknown>, number][] = [
  [
    "find_tailwind_segments Bourg-d'Oisans, 5 segments",
    'find_tailwind_segments',
    { place: "Bourg-d'Oisans", limit: 5 },
    ANSWER_BUDGET.find_tailwind_segments,
  ],
  [
    'find_tailwind_segments Girona (headings)',
    'find_tailwind_segments',
    { place: 'Girona' },
    ANSWER_BUDGET.find_tailwind_segments,
  ],
  ['get_segment (public)', 'get_segment', { segment_id: 'fr-alpe-d-huez' }, ANSWER_BUDGET.get_segment],
  [
    'get_route_wind 40 km',
    'get_route_wind',
    { points: hundredKmPoints().slice(0, 81) },
    ANSWER_BUDGET.get_route_wind,
  ],
  ['find_tailwind_segments error', 'find_tailwind_segments', { radius_m: 5 }, ANSWER_BUDGET.error],
  ['get_segment error', 'get_segment', { segment_id: 'no-such-segment' }, ANSWER_BUDGET.error],
  ['get_route_wind error', 'get_route_wind', { points: [{ x: 1, y: 2 }] }, ANSWER_BUDGET.error],
];

export async function printMcpSizes(): Promise<void> {
  await ensureGazetteer();
  const rows: string[][] = [];
  for (const address of ADDRESSES) {
    for (const era of ERAS) {
      const { bytes, tools } = await servedToolList(address, era);
      const budget = TOOL_LIST_BUDGET[address];
      rows.push([
        `tools/list ${address} (${tools} tools)`,
        era,
        kb(bytes),
        kb(budget),
        verdict(bytes, budget),
      ]);
    }
  }
  for (const [what, tool, args, budget] of PUBLIC_ANSWERS) {
    const { bytes, isError } = await servedPublicAnswer(tool, args);
    rows.push([`${what}${isError ? ' (error)' : ''}`, '2025', kb(bytes), kb(budget), verdict(bytes, budget)]);
  }
  console.log('\nMCP bytes as served (1 KB = 1000 bytes)\n');
  console.log(table(['what', 'protocol', 'KB', 'budget KB', ''], rows, [2, 3]));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await printMcpSizes();
