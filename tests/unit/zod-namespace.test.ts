/**
 * The bundle step's reading of `import { z } from 'zod'` as a namespace import
 * (`scripts/vercel/zod-namespace.ts`, decision 0045): only that exact text
 * changes, and the namespace offers every member the binding does.
 */
import { describe, expect, it } from 'vitest';
import * as zodModule from 'zod';
import { z } from 'zod';
import { withZodNamespace } from '../../scripts/vercel/zod-namespace.ts';

describe('zod read as a namespace import in the bundles', () => {
  it('rewrites the binding import and nothing else', () => {
    const source = [
      "import { z } from 'zod';",
      "import type { z as Z } from 'zod';",
      "import * as y from 'zod';",
      "const text = 'import { z } from';",
      'export const s = z.object({ a: z.number() });',
    ].join('\n');
    const lines = withZodNamespace(source).split('\n');
    expect(lines[0]).toBe("import * as z from 'zod';");
    expect(lines.slice(1)).toEqual(source.split('\n').slice(1));
  });

  it('offers every member of the `z` binding, the same values', () => {
    for (const name of Object.keys(z)) {
      expect(zodModule[name as keyof typeof zodModule], name).toBe(z[name as keyof typeof z]);
    }
  });
});
