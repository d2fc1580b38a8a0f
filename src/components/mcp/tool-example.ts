import { join } from 'node:path';
import { createDemoForecast } from '../../data/forecast/demo.ts';
import { loadGazetteer } from '../../data/geocoding/gazetteer.ts';
import { loadRegionIndexFrom } from '../../data/geocoding/regions.ts';
import { createSegmentCatalog } from '../../data/segments/catalog.ts';
import { loadSegmentsFile } from '../../data/segments/load.ts';
import { resolveUrls } from '../../http/public-urls.ts';
import type { ToolContext } from '../../mcp/context.ts';
import { toolErrorText, type ToolDefinition } from '../../mcp/tool.ts';
import { parseToolInput } from '../../mcp/tool-input.ts';

export interface ToolExample {
  readonly arguments: string;
  readonly isError: boolean;
  readonly text: string;
  readonly structured: string | null;
}

let context: Promise<ToolContext> | undefined;

/** The build bundles this module away from `src/data`, so data files are found from the project root. */
const projectFile = (path: string) => join(process.cwd(), path);

/** The tools' real data with the demo forecast, as an offline `npm start` serves them. */
function buildContext(site: URL): Promise<ToolContext> {
  if (context === undefined) loadRegionIndexFrom(projectFile('src/data/geocoding/regions.generated.tsv'));
  context ??= loadGazetteer(projectFile('src/data/geocoding/gazetteer.generated.tsv')).then((geocoder) => ({
    catalog: createSegmentCatalog(loadSegmentsFile(projectFile('src/data/segments/catalog.geojson'))),
    geocoder,
    forecast: createDemoForecast(),
    now: Date.now,
    caller: { kind: 'anonymous' },
    urls: resolveUrls({ siteUrl: site.origin }, site),
  }));
  return context;
}

/**
 * Runs a tool while the site builds, so the example answers on the MCP page
 * are what the tool returns (with the demo forecast), not a copy of it.
 */
export async function toolExample(
  site: URL,
  tool: ToolDefinition,
  args: Record<string, unknown>,
): Promise<ToolExample> {
  // The same check and the same error text as the MCP server gives.
  const input = parseToolInput(tool.inputSchema, args);
  const shown = JSON.stringify({ name: tool.name, arguments: args }, null, 2);
  if (!input.ok) return { arguments: shown, isError: true, text: input.message, structured: null };
  try {
    const answer = await tool.run(input.data as Parameters<typeof tool.run>[0], await buildContext(site));
    return {
      arguments: shown,
      isError: false,
      text: answer.summary,
      structured: JSON.stringify(answer.data, null, 2),
    };
  } catch (error) {
    // Worded as the server words it for an `isError` result (a tool's own error or the use cases').
    const text = toolErrorText(error);
    if (text === undefined) throw error;
    return { arguments: shown, isError: true, text, structured: null };
  }
}
