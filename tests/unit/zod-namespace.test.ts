/**
 * The bundle step's reading of `import { z } from 'zod'` as a namespace import
 * (`scripts/vercel/zod-namespace.ts`, decision 0045): only that exact text
 * changes, and the namespace offers every member the binding does.
 */
import { describe, expect, it } from 'vitest';
import * as zodModule from 'zod';
import { z } from 'zod';
import * as zodCore from 'zod/v4/core';
import { withZodCoreMembers, withZodNamespace } from '../../scripts/vercel/zod-namespace.ts';

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

  it("reads a package's `z.core.<member>` as a named import of the same member", () => {
    const source = [
      'import * as z from "zod";',
      'const field = issue.path?.length ? z.core.toDotPath(issue.path) : "";',
      'const is = value instanceof z.core.$ZodObject || z.core.toDotPath([]);',
    ].join('\n');
    const rewritten = withZodCoreMembers(source) ?? '';
    expect(rewritten.split('\n')[0]).toBe(
      'import { toDotPath as __zodCore_toDotPath, $ZodObject as __zodCore_$ZodObject } from "zod/v4/core";',
    );
    expect(rewritten).not.toContain('z.core.');
    expect(rewritten.split('\n').slice(1)[0]).toBe(source.split('\n')[0]);
    expect(zodCore.toDotPath).toBe(z.core.toDotPath);
    expect(zodCore.$ZodObject).toBe(z.core.$ZodObject);
    expect(withZodCoreMembers('const a = z.object({});')).toBeUndefined();
  });
});
