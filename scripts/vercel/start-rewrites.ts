/**
 * Two rewrites of a joined output file (`join-chunks.ts`) that leave what it
 * does as it was and make it cheaper for V8 and Node to start (decision 0045,
 * follow-up): measured on the MCP function's first `find_tailwind_segments`
 * call, each saved about 1 % of the whole process's instructions.
 *
 * - **Node's built-in modules read with `process.getBuiltinModule`.** An ES
 *   import of `node:fs`, `node:crypto`… builds that module's ES facade,
 *   which reads every export once: `node:crypto`'s getters load Web Crypto,
 *   `node:fs`'s its streams. `const { a: b } = process.getBuiltinModule('node:x')`
 *   hands out the same functions without the facade. Only named and default
 *   imports are rewritten (a namespace import's object is the facade itself);
 *   they sit at the top of the file, so the constants are set before any of
 *   its code runs, as the imports were.
 * - **Long plain template literals written as string literals.** The
 *   minifier writes a string holding both kinds of quote as a template
 *   literal; V8 scans a template's text for both its cooked and its raw
 *   value, and a literal inside a function is scanned once when the file is
 *   parsed and again when the function is compiled: `@photostructure/tz-lookup`'s
 *   65 KB of zone data and the prebuilt tool schemas' 50 KB cost about 15 M
 *   instructions more as templates. Only untagged templates with no
 *   substitution are rewritten, where the value is the same string.
 */
import { parseAst } from 'rolldown/parseAst';

/** Shorter templates are left alone: the saving is per character scanned. */
export const LONG_TEMPLATE_CHARS = 2000;

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

interface Node {
  readonly type: string;
  readonly start: number;
  readonly end: number;
  readonly [key: string]: unknown;
}

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

/** Every node under `node`, parents before their children, with each node's parent. */
function walk(node: Node, visit: (node: Node, parent: Node | undefined) => void, parent?: Node): void {
  visit(node, parent);
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) walk(item, visit, node);
    } else if (isNode(value)) walk(value, visit, node);
  }
}

/** A string literal of `value` in ASCII, as the joined files' other strings are written. */
function asciiString(value: string): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The `const` that stands for one import of a built-in module, or undefined to keep the import. */
function builtinLookup(declaration: Node): string | undefined {
  const source = (declaration['source'] as { value: string }).value;
  const specifiers = declaration['specifiers'] as Node[];
  if (declaration['importKind'] === 'type' || specifiers.length === 0) return undefined;
  const lookup = `process.getBuiltinModule(${JSON.stringify(source)})`;
  const named: string[] = [];
  const consts: string[] = [];
  for (const specifier of specifiers) {
    const local = (specifier['local'] as { name: string }).name;
    if (specifier.type === 'ImportDefaultSpecifier') consts.push(`${local}=${lookup}`);
    else if (specifier.type === 'ImportSpecifier') {
      const imported = specifier['imported'] as { type: string; name?: string; value?: string };
      const name = imported.type === 'Identifier' ? imported.name : imported.value;
      if (name === undefined || !/^[A-Za-z_$][\w$]*$/.test(name)) return undefined;
      named.push(name === local ? name : `${name}:${local}`);
    } else return undefined;
  }
  if (named.length > 0) consts.push(`{${named.join(',')}}=${lookup}`);
  return `const ${consts.join(',')};`;
}

/** `code` (an ES module as rolldown writes it) with both rewrites made. */
export function cheaperToStart(code: string, isBuiltin: (id: string) => boolean): string {
  const program = parseAst(code, { sourceType: 'module' }) as unknown as Node;
  const edits: Edit[] = [];
  walk(program, (node, parent) => {
    if (node.type === 'ImportDeclaration' && parent === program) {
      const source = (node['source'] as { value: string }).value;
      const text = isBuiltin(source) ? builtinLookup(node) : undefined;
      if (text !== undefined) edits.push({ start: node.start, end: node.end, text });
    } else if (
      node.type === 'TemplateLiteral' &&
      parent?.type !== 'TaggedTemplateExpression' &&
      (node['expressions'] as unknown[]).length === 0 &&
      node.end - node.start > LONG_TEMPLATE_CHARS
    ) {
      const [quasi] = node['quasis'] as { value: { cooked: string | null } }[];
      const cooked = quasi?.value.cooked;
      if (typeof cooked === 'string')
        edits.push({ start: node.start, end: node.end, text: asciiString(cooked) });
    }
  });
  let out = code;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    // The parser's offsets must be the string's: a file with characters past ASCII before an edit would move them.
    const was = code.slice(edit.start, edit.end);
    if (!(was.startsWith('import') || was.startsWith('`')))
      throw new Error(`Misplaced rewrite: ${was.slice(0, 40)}`);
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return out;
}
