import { isBuiltin } from 'node:module';
import { describe, expect, it } from 'vitest';
import { cheaperToStart, LONG_TEMPLATE_CHARS } from '../../scripts/vercel/start-rewrites.ts';

/** The module's exports, evaluated from its source. */
async function run(source: string): Promise<Record<string, unknown>> {
  return (await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`)) as Record<
    string,
    unknown
  >;
}

describe('the joined files rewritten to start cheaper', () => {
  it('read named and default imports of built-in modules without their ES facade', async () => {
    const source = [
      'import{join as j,sep}from"node:path";',
      'import os from"node:os";',
      'import*as fs from"node:fs";',
      'export const out=[j("a","b"),sep,typeof os.cpus,typeof fs.readFileSync];',
    ].join('');
    const rewritten = cheaperToStart(source, isBuiltin);
    expect(rewritten).toContain('const {join:j,sep}=process.getBuiltinModule("node:path");');
    expect(rewritten).toContain('const os=process.getBuiltinModule("node:os");');
    // A namespace import's object is the facade itself: it stays an import.
    expect(rewritten).toContain('import*as fs from"node:fs";');
    expect((await run(rewritten))['out']).toEqual((await run(source))['out']);
  });

  it('write long plain templates as string literals of the same value, and nothing else', async () => {
    const long = `"quoted" and 'quoted' \\u00d7 \u00e9 ${'x'.repeat(LONG_TEMPLATE_CHARS)}`;
    const source = [
      `export const long=\`${long}\`;`,
      'const tag=(s)=>s.raw[0];',
      `export const tagged=tag\`${'\\n'.repeat(LONG_TEMPLATE_CHARS)}\`;`,
      `export const short=\`a'b"c\`;`,
      `export const substituted=\`${'y'.repeat(LONG_TEMPLATE_CHARS)}\${1 + 1}\`;`,
    ].join('\n');
    const rewritten = cheaperToStart(source, isBuiltin);
    expect(rewritten).not.toContain('export const long=`');
    expect(rewritten).toContain('tag`');
    expect(rewritten).toContain('short=`');
    expect(rewritten).toContain('${1 + 1}`');
    expect(/[\u0080-\uffff]/.test(rewritten.split('\n')[0] ?? '')).toBe(false);
    expect(await run(rewritten)).toEqual(await run(source));
  });
});
