import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureGazetteer } from '../../scripts/data/gazetteer.ts';
import { FindTailwindSegmentsOutputSchema } from '../../src/mcp/schemas/find.ts';
import { connectClient, ERAS, inProcessFetch, resultText } from '../support/mcp-client.ts';
import { TEST_MCP_URL, testEndpoint } from '../support/mcp-deps.ts';

describe.each(ERAS)('find_tailwind_segments place lookup, protocol %s', (era) => {
  let client: Client;

  beforeAll(async () => {
    await ensureGazetteer();
    client = await connectClient(TEST_MCP_URL, era, inProcessFetch(testEndpoint()));
  });
  afterAll(() => client.close());

  const find = async (place: string) => {
    const result = await client.callTool({ name: 'find_tailwind_segments', arguments: { place } });
    expect(result.isError, resultText(result)).toBeFalsy();
    return FindTailwindSegmentsOutputSchema.parse(result.structuredContent).place;
  };

  it('answers "Town, Region" with the region named', async () => {
    const boulder = await find('Boulder, CO');
    expect(boulder).toMatchObject({
      name: 'Boulder, US',
      country_code: 'US',
      region: 'Colorado',
      area: null,
    });
    expect(boulder.latitude).toBeCloseTo(40.0, 0);
  });

  it('answers an island with its extent and lists same-named places as alternatives', async () => {
    const tenerife = await find('Tenerife');
    expect(tenerife).toMatchObject({ name: 'Tenerife, ES', region: 'Canary Islands' });
    expect(tenerife.area?.kind).toBe('island');
    expect(tenerife.area?.radius_m).toBeGreaterThanOrEqual(20_000);
    expect(tenerife.alternatives.map((a) => a.name)).toContain('Santa Cruz de Tenerife, ES');
    expect(tenerife.alternatives.every((a) => a.kind === 'town')).toBe(true);
  });

  it('prefers the cycling region to a small homonym, which stays an alternative', async () => {
    const flanders = await find('Flanders');
    expect(flanders).toMatchObject({ name: 'Flanders, BE', area: { kind: 'region' } });
    const us = flanders.alternatives.find((a) => a.country_code === 'US');
    expect(us).toMatchObject({ name: 'Flanders, US', kind: 'town' });
    expect(us?.region).toBeTruthy();
  });

  it('answers a lake with its point and a radius for the ride around it', async () => {
    const garda = await find('Lake Garda');
    expect(garda).toMatchObject({ country_code: 'IT', area: { kind: 'lake' }, ambiguous: false });
    expect(garda.latitude).toBeCloseTo(45.6, 0);
    expect(garda.longitude).toBeCloseTo(10.65, 0);
    expect(garda.area?.radius_m).toBeGreaterThanOrEqual(25_000);
    // The US town called Lake Geneva stays an alternative to the lake by Genève.
    const geneva = await find('Lake Geneva');
    expect(geneva).toMatchObject({ country_code: 'CH', area: { kind: 'lake' } });
    expect(geneva.alternatives.map((a) => a.name)).toContain('Lake Geneva, US');
  });

  it('takes an exonym for the large city, flagging the small namesake it passed over', async () => {
    const gerona = await find('Gerona');
    expect(gerona).toMatchObject({ name: 'Girona, ES', region: 'Catalonia', ambiguous: true, area: null });
    expect(gerona.alternatives.map((a) => a.name)).toContain('Gerona, PH');
    const result = await client.callTool({ name: 'find_tailwind_segments', arguments: { place: 'Gerona' } });
    expect(resultText(result)).toMatch(/Ambiguous: "Gerona" may also mean Gerona, PH/);
    expect(await find('Paris')).toMatchObject({ name: 'Paris, FR', ambiguous: false });
  });

  it('answers a first-level region typed alone across it, flagged to ask which part', async () => {
    const result = await client.callTool({
      name: 'find_tailwind_segments',
      arguments: { place: 'Catalonia' },
    });
    expect(result.isError, resultText(result)).toBeFalsy();
    const answer = FindTailwindSegmentsOutputSchema.parse(result.structuredContent);
    expect(answer.place).toMatchObject({ name: 'Catalonia, ES', ambiguous: true, area: { kind: 'region' } });
    // Searched across the region (up to the largest radius), not only 25 km round its middle.
    expect(answer.radius_m).toBe(Math.min(answer.place.area?.radius_m ?? 0, 100_000));
    expect(answer.radius_m).toBeGreaterThan(25_000);
    expect(answer.place.alternatives.map((a) => a.name)).toEqual(
      expect.arrayContaining(['Barcelona, ES', 'Girona, ES']),
    );
    expect(resultText(result)).toMatch(/"Catalonia" is a region: .*ask the rider which part/);
    // An island named alone is searched at its own extent too (until 1.7 it kept the radius asked).
    const mallorca = await client.callTool({
      name: 'find_tailwind_segments',
      arguments: { place: 'Mallorca' },
    });
    const island = FindTailwindSegmentsOutputSchema.parse(mallorca.structuredContent);
    expect(island.place.area?.kind).toBe('island');
    expect(island.radius_m).toBe(Math.min(island.place.area?.radius_m ?? 0, 100_000));
    expect(island.radius_m).toBeGreaterThan(25_000);
    expect(resultText(mallorca)).not.toMatch(/pass radius_m/);
  });

  it('answers a climb discovered from OpenStreetMap by its pass name, qualified or in English', async () => {
    for (const place of ["Col d'Ordino", "Col d'Ordino, Andorra", 'Envalira']) {
      const found = await find(place);
      expect(found, place).toMatchObject({ resolved_by: 'segment', country_code: 'AD' });
    }
    expect(await find('Stelvio Pass')).toMatchObject({ resolved_by: 'segment', country_code: 'IT' });
  });

  it('says a lake it cannot place reads as a lake, and to name a town on its shore', async () => {
    const result = await client.callTool({
      name: 'find_tailwind_segments',
      arguments: { place: 'Loch Ness' },
    });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/"Loch Ness" reads as a lake.*name a town on its shore/);
  });

  it('says how to qualify a place it cannot find, naming what is not understood', async () => {
    const result = await client.callTool({
      name: 'find_tailwind_segments',
      arguments: { place: 'Annecy, Haute-Savoie' },
    });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/Annecy, FR/);
    expect(resultText(result)).toMatch(/region/);
  });
});
