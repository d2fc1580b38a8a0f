/**
 * What an assistant may be sent, in bytes (1 KB = 1000 bytes), as the server
 * serves it. An assistant pays for every byte in context and money, and
 * clients warn or refuse past about 25k tokens of tool definitions. Checked
 * by tests/mcp/size-budgets.test.ts and reported by `npm run bench`.
 */
export const KB = 1000;

/** `tools/list`, the whole HTTP body (JSON-RPC envelope included), per address. */
export const TOOL_LIST_BUDGET = { '/mcp': 20 * KB, '/mcp/rider': 40 * KB } as const;

/**
 * One `tools/call` answer, the whole HTTP body (text and structured blocks
 * with the envelope), per tool; `error` is any tool error. Issue 21's
 * targets: a find for five segments or the headings answer, a get_segment
 * without its timeline, a 40 km route.
 */
export const ANSWER_BUDGET = {
  find_tailwind_segments: 8 * KB,
  get_segment: 6 * KB,
  get_route_wind: 10 * KB,
  error: 1 * KB,
} as const;
