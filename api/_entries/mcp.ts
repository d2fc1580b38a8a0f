import { z } from 'zod';
import { mcpFunction } from '../../src/app/mcp-function.ts';
import { functionSettings } from '../../src/app/settings/plain-settings.ts';

// No compiled parsers in this function (decision 0034). zod compiles a parser (`new Function`) for each
// object schema on its first parse, which pays off over many parses; a cold instance's first answer
// parses some twenty objects once each (the SDK's envelope and result, the tool's input and output), and
// compiling them cost it more than it saved. zod reads the setting as an object schema is built: the
// SDK's and the tools' schemas are built on the first request, after this line. `npm start` keeps them.
z.config({ jitless: true });

/**
 * The MCP server (public and rider addresses) and the sign-in paths as one Vercel function; its
 * settings read from their entries without building their zod schema (decision 0045).
 */
export default { fetch: mcpFunction(functionSettings()) };
