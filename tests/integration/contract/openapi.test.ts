import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { createApiHandler } from '../../../src/rest/handler.ts';

const origin = 'http://wind-on-segment.test';
/** The example TailwindResult is the bearing form of the query; its coordinates stay out. */
const OPTIONAL_IN_EXAMPLE = ['segment_bearing_deg'];
const handle = createApiHandler();
const served = async () => (await handle(new Request(`${origin}/openapi.json`))).json();

interface Operation {
  parameters?: { name: string; required?: boolean; schema: { example?: number } }[];
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
}

describe('the OpenAPI document', () => {
  it('passes Redocly’s recommended lint with zero errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wos-openapi-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(await served()));
    const run = spawnSync('npx', ['redocly', 'lint', file, '--format', 'json'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    const report = JSON.parse(run.stdout) as { totals: { errors: number; warnings: number } };
    expect(report.totals.errors).toBe(0);
  });

  it('is valid for a structural OpenAPI validator', async () => {
    const result = await validate(structuredClone(await served()));
    expect(result.valid, JSON.stringify(result)).toBe(true);
  });

  it('shows examples that are what the API really answers', async () => {
    const doc = (await served()) as {
      paths: Record<string, { get: Operation }>;
      components: { schemas: Record<string, { example?: unknown }> };
    };
    for (const [path, { get }] of Object.entries(doc.paths)) {
      const ref = get.responses['200']?.content?.['application/json']?.schema.$ref;
      const example = ref ? doc.components.schemas[ref.split('/').pop() ?? '']?.example : undefined;
      if (example === undefined) continue;
      const query = new URLSearchParams();
      for (const parameter of get.parameters ?? []) {
        const value = parameter.schema.example;
        const used = parameter.required || OPTIONAL_IN_EXAMPLE.includes(parameter.name);
        if (value !== undefined && used) query.set(parameter.name, String(value));
      }
      const answer = await (await handle(new Request(`${origin}${path}?${query}`))).json();
      const expected = path === '/v1/plans' ? { ...example, pricing_url: `${origin}/pricing` } : example;
      expect(answer, path).toEqual(expected);
    }
  });
});
