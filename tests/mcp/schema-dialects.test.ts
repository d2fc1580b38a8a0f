import type { Client } from '@modelcontextprotocol/client';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureGazetteer } from '../../scripts/data/gazetteer.ts';
import { loadEmbeddedSegments } from '../../src/data/segments/load.ts';
import { MAX_LIMIT, MAX_RADIUS_M } from '../../src/mcp/schemas/find.ts';
import { ERAS } from '../support/mcp-client.ts';
import { TEST_NOW } from '../support/mcp-deps.ts';
import { createRiderHarness, type RiderHarness } from '../support/rider-harness.ts';
import { callsFor } from '../support/tool-calls.ts';

// Issue 10, deliverable 5: every tool schema, as `tools/list` advertises it, must mean the same to a
// draft-07 validator (the v1 SDK client's Ajv default) and to a 2020-12 one (the MCP default dialect).

type JsonSchema = Record<string, unknown>;
type Dialect = 'draft-07' | '2020-12';

/**
 * Ajv of each dialect as a client would build it, but strict: strict mode refuses any keyword the
 * dialect does not define (2020-12's `prefixItems` under draft-07, for one), so a schema only
 * compiles in both if it uses the keywords the two share; `validateSchema` checks each against its
 * dialect's meta-schema, and refuses a schema whose `$schema` names another dialect.
 */
function strictAjv(dialect: Dialect): Ajv {
  const options = { strict: true, allErrors: true, validateSchema: true } as const;
  const ajv = dialect === 'draft-07' ? new Ajv(options) : new Ajv2020(options);
  addFormats.default(ajv);
  return ajv;
}

const DIALECTS: readonly Dialect[] = ['draft-07', '2020-12'];

let h: RiderHarness;
beforeAll(async () => {
  await ensureGazetteer();
  h = await createRiderHarness();
});
afterAll(() => h.close());

describe.each(ERAS)('tool schemas at the rider address, protocol %s', (era) => {
  let client: Client;
  /** A rider on Free after the trial: the answers with locked details and a monthly count. */
  let freeClient: Client;
  let tools: Awaited<ReturnType<Client['listTools']>>['tools'];
  const validators = new Map<string, Record<Dialect, ValidateFunction>>();

  beforeAll(async () => {
    client = await h.connectRider(await h.createRider({ plan: 'pro' }), { era });
    freeClient = await h.connectRider(
      await h.createRider({ trialEndsAt: Math.floor(TEST_NOW / 1000) - 86_400 }),
      {
        era,
      },
    );
    ({ tools } = await client.listTools());
  });

  /** Checks one answer against the tool's output schema in both dialects. */
  function expectValid(name: string, answer: unknown): void {
    for (const dialect of DIALECTS) {
      const validate = validators.get(name)?.[dialect];
      if (!validate) throw new Error(`no ${dialect} validator for ${name}`);
      expect(validate(answer), `${name} answer, ${dialect}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  }

  it('lists every tool with an input and an output schema that names no dialect', () => {
    expect(tools.length).toBeGreaterThanOrEqual(7);
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.inputSchema, tool.name).not.toHaveProperty('$schema');
      expect(tool.outputSchema, tool.name).not.toHaveProperty('$schema');
    }
  });

  it.each(DIALECTS)('compiles every schema with a default %s Ajv, as a client builds it', (dialect) => {
    const ajv = dialect === 'draft-07' ? new Ajv() : new Ajv2020();
    addFormats.default(ajv);
    for (const tool of tools) {
      expect(() => ajv.compile(tool.inputSchema as JsonSchema), tool.name).not.toThrow();
      expect(() => ajv.compile((tool.outputSchema ?? {}) as JsonSchema), tool.name).not.toThrow();
    }
  });

  it.each(DIALECTS)('compiles every input and output schema in strict %s mode', (dialect) => {
    const ajv = strictAjv(dialect);
    for (const tool of tools) {
      for (const [io, schema] of [
        ['input', tool.inputSchema],
        ['output', tool.outputSchema],
      ] as const) {
        const json = schema as JsonSchema;
        expect(ajv.validateSchema(json), `${tool.name} ${io}: ${ajv.errorsText()}`).toBe(true);
        const validate = ajv.compile(json);
        if (io === 'output') {
          const entry = validators.get(tool.name) ?? ({} as Record<Dialect, ValidateFunction>);
          entry[dialect] = validate;
          validators.set(tool.name, entry);
        }
      }
    }
  });

  it('validates a real answer of every tool, and its arguments, in both dialects', async () => {
    const inputs = Object.fromEntries(
      DIALECTS.map((dialect) => {
        const ajv = strictAjv(dialect);
        return [dialect, new Map(tools.map((t) => [t.name, ajv.compile(t.inputSchema as JsonSchema)]))];
      }),
    ) as Record<Dialect, Map<string, ValidateFunction>>;
    const calls = callsFor(tools.map((t) => t.name));
    expect(new Set(calls.map((c) => c.name))).toEqual(new Set(tools.map((t) => t.name)));
    for (const caller of [client, freeClient]) {
      for (const call of calls) {
        const result = await caller.callTool(call);
        expect(result.isError, `${call.name}: ${JSON.stringify(result.content)}`).toBeFalsy();
        for (const dialect of DIALECTS) {
          const input = inputs[dialect].get(call.name);
          expect(input?.(call.arguments), `${call.name} arguments, ${dialect}`).toBe(true);
        }
        expectValid(call.name, result.structuredContent);
      }
    }
    // The free rider's answers did hold what Free withholds, so those shapes were checked too.
    const windows = await freeClient.callTool({ name: 'get_my_tailwind_windows', arguments: {} });
    expect((windows.structuredContent as { locked: unknown[] }).locked.length).toBeGreaterThan(0);
  });

  it('validates the answers for any place and any segment in both dialects (property)', async () => {
    const segments = loadEmbeddedSegments();
    // Half the places near a catalog segment (answers with segments), half anywhere on Earth.
    const nearSegment = fc
      .record({
        segment: fc.constantFrom(...segments),
        dLat: fc.double({ min: -0.2, max: 0.2, noNaN: true }),
        dLon: fc.double({ min: -0.2, max: 0.2, noNaN: true }),
      })
      .map(({ segment, dLat, dLon }) => {
        const start = segment.polyline[0] ?? { lat: 0, lon: 0 };
        return { latitude: start.lat + dLat, longitude: Math.max(-180, Math.min(180, start.lon + dLon)) };
      });
    const anywhere = fc.record({
      latitude: fc.double({ min: -90, max: 90, noNaN: true }),
      longitude: fc.double({ min: -180, max: 180, noNaN: true }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(nearSegment, anywhere),
        fc.integer({ min: 1000, max: MAX_RADIUS_M }),
        fc.integer({ min: 1, max: MAX_LIMIT }),
        fc.constantFrom(...segments.map((segment) => segment.id)),
        async (point, radius_m, limit, segment_id) => {
          const found = await client.callTool({
            name: 'find_tailwind_segments',
            arguments: { ...point, radius_m, limit },
          });
          expect(found.isError, JSON.stringify(found.content)).toBeFalsy();
          expectValid('find_tailwind_segments', found.structuredContent);
          const segment = await client.callTool({ name: 'get_segment', arguments: { segment_id } });
          expectValid('get_segment', segment.structuredContent);
        },
      ),
      { numRuns: 25 },
    );
  });

  it.each(DIALECTS)(
    'refuses a route point that is not a pair in %s, so the check can fail',
    async (dialect) => {
      const validate = validators.get('get_segment')?.[dialect];
      if (!validate) throw new Error('no get_segment validator');
      const answer = (
        await client.callTool({ name: 'get_segment', arguments: { segment_id: 'fr-alpe-d-huez' } })
      ).structuredContent as { segment: { polyline: number[][] } };
      expect(validate(answer)).toBe(true);
      const [first = [], ...rest] = answer.segment.polyline;
      for (const bad of [[...first, 0], first.slice(0, 1), ['45.1', '6.0'], []]) {
        expect(validate({ ...answer, segment: { ...answer.segment, polyline: [bad, ...rest] } })).toBe(false);
      }
    },
  );
});
