/**
 * Whether the MCP SDK validates each tool's structured answer against the
 * tool's output schema before sending it.
 *
 * True here: run from source (`npm start`, `npm run dev`, every test), an
 * answer that strays from its schema is refused by the SDK as it always
 * was, and the tests hold every tool's answers to their schemas
 * (`tests/mcp/tools.test.ts`, `tests/mcp/rider-tools.test.ts` parse them with
 * the same schemas). The function bundles swap this module for one that
 * says false (`scripts/vercel/bundle-functions.ts`): zod then no longer walks
 * the answer a tool has just built from those schemas' own types, about
 * 8 M instructions of a cold public call (decision 0045, follow-up), and an
 * answer goes out as the tool built it, byte for byte the same. A client on
 * either SDK (`@modelcontextprotocol/sdk` 1.x, `@modelcontextprotocol/client`)
 * still checks the structured answer against the output schema the tool
 * lists and refuses one that strays, so a deployed bug is still caught at
 * the reader instead of being read as data.
 */
export const ANSWERS_CHECKED = true;
