/**
 * The MCP bytes section of `npm run bench` (issue 21), also runnable alone:
 * `node bench/mcp-sizes.ts`. What an assistant is sent, as served, against
 * the budgets of src/mcp/size-budgets.ts: `tools/list` at both addresses, in
 * both protocol eras. In-process, with the test data; the same measure the
 * budget test (tests/mcp/size-budgets.test.ts) fails on. A measurement: a
 * MISS is printed, not an exit code.
 */
import { pathToFileURL } from 'node:url';
import { TOOL_LIST_BUDGET } from '../src/mcp/size-budgets.ts';
import { ensureGazetteer } from '../scripts/data/gazetteer.ts';
import { ERAS } from '../tests/support/mcp-client.ts';
import { ADDRESSES, servedToolList } from '../tests/support/mcp-sizes.ts';
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
        kb(bytes),
        kb(budget),
        verdict(bytes, budget),
      ]);
    }
  }
  console.log('\nMCP bytes as served (1 KB = 1000 bytes)\n');
  console.log(table(['what', 'protocol', 'KB', 'budget KB', ''], rows, [2, 3]));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await printMcpSizes();
