import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { closestName } from '../core/closest-name.ts';
import type { SchemaAudience } from './json-schema.ts';
import { withCachedJsonSchema } from './schema-cache.ts';
import type { PrebuiltLookup } from './prebuilt-schemas.ts';

type Json = Record<string, unknown>;
interface Issue {
  readonly message: string;
}

/**
 * Names a model commonly writes for a field, accepted where the field is
 * meant and the alias is not a field of its own there: `lat`, `lon` and
 * `lng` for any object that takes `latitude` and `longitude` (route points,
 * a place by coordinates), the shape the site's paste box accepts.
 */
const ALIASES: Readonly<Record<string, string>> = { lat: 'latitude', lon: 'longitude', lng: 'longitude' };

/** The longest error a tool sends: an assistant pays for every byte of it too. */
export const MAX_ERROR_CHARS = 900;

/** The zod schema under optional, nullable, default and pipes, as arguments meet it. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < 20; i++) {
    const def = current._zod.def as unknown as Json;
    if ('innerType' in def) current = def['innerType'] as z.ZodType;
    else if (def['type'] === 'pipe')
      current =
        (def['in'] as z.ZodType)._zod.def.type === 'transform'
          ? (def['out'] as z.ZodType)
          : (def['in'] as z.ZodType);
    else return current;
  }
  return current;
}

function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const def = unwrap(schema)._zod.def as unknown as Json;
  return def['type'] === 'object' ? (def['shape'] as Record<string, z.ZodType>) : undefined;
}

function elementOf(schema: z.ZodType): z.ZodType | undefined {
  const def = unwrap(schema)._zod.def as unknown as Json;
  return def['type'] === 'array' ? (def['element'] as z.ZodType) : undefined;
}

const isPlainObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The arguments with unambiguous aliases renamed, following the schema's objects and arrays. */
function withAliases(schema: z.ZodType, value: unknown): unknown {
  const shape = shapeOf(schema);
  if (shape && isPlainObject(value)) {
    const out: Json = {};
    for (const [key, child] of Object.entries(value)) {
      const target = ALIASES[key];
      const renamed = target !== undefined && !(key in shape) && target in shape && !(target in value);
      const name = renamed ? target : key;
      const field = shape[name];
      out[name] = field ? withAliases(field, child) : child;
    }
    return out;
  }
  const element = elementOf(schema);
  if (element && Array.isArray(value)) return value.map((item) => withAliases(element, item));
  return value;
}

interface Unknown {
  readonly path: string;
  readonly name: string;
  readonly known: readonly string[];
}

/** `points[].ele`: indexes of arrays written once, so one line stands for every item. */
const pathText = (path: readonly PropertyKey[]): string =>
  path.map((part, i) => (typeof part === 'number' ? '[]' : `${i === 0 ? '' : '.'}${String(part)}`)).join('');

/** Argument names the schema does not know, wherever they are; each once. */
function unknownNames(
  schema: z.ZodType,
  value: unknown,
  path: PropertyKey[],
  found: Map<string, Unknown>,
): void {
  const shape = shapeOf(schema);
  if (shape && isPlainObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      const field = shape[key];
      if (field) unknownNames(field, child, [...path, key], found);
      else {
        const where = pathText([...path, key]);
        if (!found.has(where)) found.set(where, { path: where, name: key, known: Object.keys(shape) });
      }
    }
    return;
  }
  const element = elementOf(schema);
  if (element && Array.isArray(value))
    value.forEach((item, i) => unknownNames(element, item, [...path, i], found));
}

function unknownMessage({ path, name, known }: Unknown): string {
  const guess = closestName(name, known);
  const hint = guess === undefined ? '' : `; did you mean ${path.replace(/[^.[\]]+$/, guess)}?`;
  return `unknown argument ${path}${hint} (known here: ${known.join(', ')})`;
}

/**
 * zod's problems, collapsed: the same problem at the same place in every
 * item of an array is one line with a count, not one per item; a missing
 * field says so and lists what the object takes.
 */
function collapsed(schema: z.ZodType, issues: readonly z.core.$ZodIssue[], value: unknown): string[] {
  const groups = new Map<string, { count: number; path: readonly PropertyKey[]; message: string }>();
  for (const issue of issues) {
    const missing = /received undefined$/.test(issue.message);
    const message = missing ? 'is missing' : `: ${issue.message}`;
    const key = `${pathText(issue.path)}\u0000${message}`;
    const group = groups.get(key);
    if (group) group.count += 1;
    else groups.set(key, { count: 1, path: issue.path, message });
  }
  return [...groups.values()].map(({ count, path, message }) => {
    const where = pathText(path);
    const arrays = path.filter((part) => typeof part === 'number').length;
    const times = count > 1 || arrays > 0 ? ` (${count} of ${itemCount(value, path)})` : '';
    if (message !== 'is missing') return `${where || 'arguments'}${message}${times}`;
    const takes = shapeAt(schema, path.slice(0, -1));
    const list = takes ? `; each takes ${Object.keys(takes).join(', ')}` : '';
    return `${where} ${message}${times}${list}`;
  });
}

/** How many items the innermost array on a path holds, for "3 of 150". */
function itemCount(value: unknown, path: readonly PropertyKey[]): number {
  const last = path.findLastIndex((part) => typeof part === 'number');
  let current: unknown = value;
  for (const part of path.slice(0, Math.max(last, 0)))
    current =
      isPlainObject(current) || Array.isArray(current) ? (current as Json)[part as string] : undefined;
  return Array.isArray(current) ? current.length : 1;
}

function shapeAt(schema: z.ZodType, path: readonly PropertyKey[]): Record<string, z.ZodType> | undefined {
  let current: z.ZodType | undefined = schema;
  for (const part of path) {
    if (current === undefined) return undefined;
    current = typeof part === 'number' ? elementOf(current) : shapeOf(current)?.[String(part)];
  }
  return current && shapeOf(current);
}

/** One message of at most {@link MAX_ERROR_CHARS}, its problems separated by semicolons. */
function capped(lines: readonly string[]): Issue[] {
  let text = lines.join('; ');
  if (text.length > MAX_ERROR_CHARS) text = `${text.slice(0, MAX_ERROR_CHARS - 1)}…`;
  return [{ message: text }];
}

/**
 * A tool's input schema as the server registers it: the JSON Schema the
 * list shows, and a validation that forgives and teaches. Unambiguous
 * aliases are renamed first; an argument name the tool does not know is an
 * error naming it and the closest known one (an argument silently dropped
 * would answer a different question than the one asked); zod's problems are
 * collapsed to one line each. Applied once, where every tool is registered,
 * so both addresses answer alike.
 */
export function toolInput(
  schema: z.ZodType,
  audience: SchemaAudience,
  prebuilt?: PrebuiltLookup,
): StandardSchemaWithJSON {
  const listed = withCachedJsonSchema(schema, audience, prebuilt);
  return {
    '~standard': {
      ...listed['~standard'],
      validate: (value: unknown) => {
        const named = withAliases(schema, value ?? {});
        const found = new Map<string, Unknown>();
        unknownNames(schema, named, [], found);
        if (found.size > 0) return { issues: capped([...found.values()].map(unknownMessage)) };
        const result = schema.safeParse(named);
        if (result.success) return { value: result.data };
        return { issues: capped(collapsed(schema, result.error.issues, named)) };
      },
    },
  };
}

/** The same check outside a server (the docs' examples): the parsed arguments or the one error text. */
export function parseToolInput(
  schema: z.ZodType,
  value: unknown,
): { ok: true; data: unknown } | { ok: false; message: string } {
  const result = toolInput(schema, { pro: true })['~standard'].validate(value) as {
    value?: unknown;
    issues?: Issue[];
  };
  return result.issues
    ? { ok: false, message: result.issues.map((i) => i.message).join('; ') }
    : { ok: true, data: result.value };
}
