/**
 * How rain is said wherever a forecast is read out: the MCP answers
 * (`src/mcp/report/weather-words.ts`) and the route calculator on the site.
 * It lives here, below both, so the site never reaches into the MCP surface
 * for a sentence and the two can never word the same hour differently.
 *
 * "dry"; "55% chance of rain"; "rain up to 0.3 mm/h, 45%
 * chance of rain"; null when the forecast says nothing of rain. The amount
 * and the chance are named apart, "dry" only when both are nil (so never
 * beside "wet"). The amount is the wettest hour's, the chance the highest hour's.
 */
export function rainText(maxMm: number | null, maxChancePct: number | null): string | null {
  const chance = maxChancePct !== null && maxChancePct > 0 ? `${maxChancePct}% chance of rain` : null;
  if (maxMm === null) return chance;
  // No "no rain forecast" beside a chance: the two read as a contradiction; the chance says it.
  if (maxMm === 0) return chance === null ? 'dry' : chance;
  return `rain up to ${maxMm} mm/h${chance === null ? '' : `, ${chance}`}`;
}
