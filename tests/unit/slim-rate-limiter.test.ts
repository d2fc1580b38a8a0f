import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RATE_LIMITER_EXPORTS, slimRateLimiterIndex } from '../../scripts/vercel/slim-rate-limiter.ts';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const packageIndex = createRequire(import.meta.url).resolve('rate-limiter-flexible');

/** Every value (not `type`) name a source file imports from rate-limiter-flexible. */
function importedNames(): Set<string> {
  const names = new Set<string>();
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.ts'),
  );
  for (const file of files) {
    const text = readFileSync(join(SRC, file), 'utf8');
    for (const [, list = ''] of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'rate-limiter-flexible'/g)) {
      for (const part of list.split(',').map((name) => name.trim())) {
        if (part !== '' && !part.startsWith('type ')) names.add(part.split(/\s+as\s+/)[0] ?? part);
      }
    }
    expect(text, `${file} imports rate-limiter-flexible only by name`).not.toMatch(
      /import\s+\w+\s+from\s*'rate-limiter-flexible'|import\s*\*\s*as\s+\w+\s+from\s*'rate-limiter-flexible'/,
    );
  }
  return names;
}

describe("the functions' stand-in for rate-limiter-flexible's index", () => {
  it('exports every name the source imports from the package', () => {
    const names = importedNames();
    expect(names.size).toBeGreaterThan(0);
    for (const name of names) expect(Object.keys(RATE_LIMITER_EXPORTS)).toContain(name);
  });

  it("exports the package's own classes, evaluated where the index sits", () => {
    const module = { exports: {} as Record<string, unknown> };
    const evaluate = new Function('module', 'require', slimRateLimiterIndex()) as (
      target: typeof module,
      load: NodeJS.Require,
    ) => void;
    evaluate(module, createRequire(packageIndex));
    const full = createRequire(import.meta.url)('rate-limiter-flexible') as Record<string, unknown>;
    expect(Object.keys(module.exports).sort()).toEqual(Object.keys(RATE_LIMITER_EXPORTS).sort());
    for (const [name, value] of Object.entries(module.exports)) {
      expect(typeof value).toBe('function');
      expect(value, name).toBe(full[name]);
    }
  });
});
