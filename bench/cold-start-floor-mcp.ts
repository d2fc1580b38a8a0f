/**
 * The MCP floor of the cold-start bench (`cold-start-floor.ts`): the least a
 * function with the project's MCP SDK can do, one tool over the SDK's own
 * stateless handler and nothing of the project's, so the MCP function's first
 * answer is read against what the SDK alone costs in the same run. It is
 * bundled as the functions are (`bundleEntry` in scripts/vercel), zod set as
 * `api/_entries/mcp.ts` sets it, so the difference left is the project's code.
 */
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

z.config({ jitless: true });

const server = () => {
  const mcp = new McpServer({ name: 'floor', version: '1.0.0' });
  mcp.registerTool(
    'find_tailwind_segments',
    {
      description: 'The floor: echoes the coordinates it is given.',
      inputSchema: z.object({
        latitude: z.number().min(-90).max(90),
        longitude: z.number().min(-180).max(180),
      }),
    },
    ({ latitude, longitude }) => ({
      content: [{ type: 'text', text: `No segments near ${latitude}, ${longitude}.` }],
    }),
  );
  return mcp;
};

const handler = createMcpHandler(server, { legacy: 'stateless' });

/** A fetch function, as `api/_entries/mcp.ts` exports (a default export, as Vercel takes a function's). */
const floor = { fetch: (request: Request): Promise<Response> => handler.fetch(request) };
export { floor as default };
