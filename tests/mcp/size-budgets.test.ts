import { describe, expect, it } from 'vitest';
import { TOOL_LIST_BUDGET } from '../../src/mcp/size-budgets.ts';
import { ERAS } from '../support/mcp-client.ts';
import { ADDRESSES, servedToolList } from '../support/mcp-sizes.ts';

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
