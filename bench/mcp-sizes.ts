/**
 * The MCP bytes section of `npm run bench` (issue 21), also runnable alone:
 * `node bench/mcp-sizes.ts`. What an assistant is sent, as served, against
 * the budgets of src/mcp/size-budgets.ts: `tools/list` at both addresses, in
 * both protocol eras, and the tool answers of issue 21's examples at both
 * addresses (Pro, trial and free riders at the rider address) against their
 * answer budgets (the table of tests/support/mcp-sizes.ts). In-process, with the test data; the same measure the
 * budget test (tests/mcp/size-budgets.test.ts) fails on. A measurement: a
 * MISS is printed, not an exit code.
 */
import { pathToFileURL } from 'node:url';
import { TOOL_LIST_BUDGET } from '../src/mcp/size-budgets.ts';
import { ensureGazetteer } from '../scripts/data/gazetteer.ts';
import { ERAS } from '../tests/support/mcp-client.ts';
import {
  ADDRESSES,
  ANSWER_EXAMPLES,
  exampleAddress,
  riderSizes,
  servedPublicAnswer,
  servedToolList,
} from '../tests/support/mcp-sizes.ts';
import { table } from './table.ts';

const kb = (bytes: number): string => (bytes / 1000).toFixed(1);
const verdict = (bytes: number, budget: number): string => (bytes <= budget ? 'PASS' : 'MISS');

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
        String(bytes),
        kb(bytes),
        kb(budget),
        verdict(bytes, budget),
      ]);
    }
  }
  const rider = await riderSizes();
  try {
    for (const example of ANSWER_EXAMPLES) {
      const { bytes } = example.plan
        ? await rider.answer(example.plan, example.tool, example.args)
        : await servedPublicAnswer(example.tool, example.args);
      rows.push([
        `${example.what} at ${exampleAddress(example)}`,
        '2025',
        String(bytes),
        kb(bytes),
        kb(example.budget),
        verdict(bytes, example.budget),
      ]);
    }
  } finally {
    await rider.close();
  }
  console.log('\nMCP bytes as served (1 KB = 1000 bytes)\n');
  console.log(table(['what', 'protocol', 'bytes', 'KB', 'budget KB', ''], rows, [2, 3, 4]));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await printMcpSizes();
