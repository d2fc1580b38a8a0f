import { z } from 'zod';

type Json = Record<string, unknown>;

/**
 * Metadata that marks an answer field only a caller with Pro access can be
 * given (`.meta(PRO_ONLY)`). Such callers exist only at the rider address,
 * so the public address leaves these fields out of the schemas it lists: a
 * model is not told of fields it will never see. The marker itself is never
 * served.
 */
export const PRO_ONLY = { proOnly: true } as const;

/** Which fields an address can answer with; see {@link PRO_ONLY}. */
export interface SchemaAudience {
  readonly pro: boolean;
}
/** The drafts zod writes; the SDK asks for 2020-12, the MCP default. */
const TARGETS = ['draft-2020-12', 'draft-07', 'openapi-3.0'] as const;
type Target = (typeof TARGETS)[number];
const isTarget = (value: string): value is Target => (TARGETS as readonly string[]).includes(value);

/**
 * Removes what costs an assistant bytes and tells it nothing, in place:
 * - `$schema`: naming 2020-12 makes a draft-07 validator in its default
 *   mode (Ajv's `new Ajv()`, as many MCP clients build it) refuse to compile
 *   the schema at all, since it lacks that meta-schema. Without the key MCP
 *   says 2020-12 applies, and our schemas use only keywords the two drafts
 *   read alike (tests/mcp/schema-dialects.test.ts).
 * - the safe-integer bounds of an unbounded `z.int()` (60 bytes each);
 * - the 300-byte regular expression zod adds to `format: "date-time"`: the
 *   format says it, and zod validates every argument on the server anyway;
 * - in output schemas, `additionalProperties: false` and `required`: an
 *   answer is ours to shape, so the lists of field names (a third of an
 *   output schema, repeating every name) tell a model nothing the answer
 *   does not show; a field that can be absent says when in its description,
 *   one that can be null says so in its type. A client that validates with a
 *   tool list it fetched earlier keeps accepting answers that gained a
 *   field. Input schemas keep both, so a model sees which arguments are
 *   required and which names exist (unknown ones are an error).
 * - for an audience without Pro access, the fields marked {@link PRO_ONLY}.
 */
function compact(node: unknown, io: 'input' | 'output', audience: SchemaAudience): void {
  if (Array.isArray(node)) {
    for (const child of node) compact(child, io, audience);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const json = node as Json;
  const properties = json['properties'];
  if (typeof properties === 'object' && properties !== null) {
    const fields = properties as Record<string, Json>;
    for (const [name, field] of Object.entries(fields)) {
      if (field['proOnly'] !== true) continue;
      if (audience.pro) delete field['proOnly'];
      else Reflect.deleteProperty(fields, name);
    }
  }
  // What zod writes for `z.int()` without bounds: the safe-integer range, which says nothing to a model.
  if (json['minimum'] === Number.MIN_SAFE_INTEGER) delete json['minimum'];
  if (json['maximum'] === Number.MAX_SAFE_INTEGER) delete json['maximum'];
  if (json['format'] === 'date-time') delete json['pattern'];
  if (io === 'output') {
    if (json['additionalProperties'] === false) delete json['additionalProperties'];
    if (json['type'] === 'object' && Array.isArray(json['required'])) delete json['required'];
    // Bounds on numbers we send say nothing a model acts on; without them a nullable number folds
    // from `anyOf: [{type: integer, minimum: 0}, {type: null}]` to `type: [integer, null]`.
    if (json['type'] === 'integer' || json['type'] === 'number') {
      delete json['minimum'];
      delete json['maximum'];
    }
  }
  for (const child of Object.values(json)) compact(child, io, audience);
  foldNullable(json);
}

/**
 * `anyOf: [{type: T}, {type: 'null'}]` as `type: [T, 'null']`, which every
 * draft reads alike; a `format` comes along (it applies to strings only).
 */
function foldNullable(json: Json): void {
  const options = json['anyOf'];
  if (!Array.isArray(options) || options.length !== 2 || json['type'] !== undefined) return;
  const plain = (option: unknown): option is { type: string; format?: string } =>
    typeof option === 'object' &&
    option !== null &&
    typeof (option as Json)['type'] === 'string' &&
    Object.keys(option).every((key) => key === 'type' || key === 'format');
  const [a, b] = options as unknown[];
  if (!plain(a) || !plain(b) || b.type !== 'null' || b.format !== undefined) return;
  delete json['anyOf'];
  json['type'] = [a.type, 'null'];
  if (a.format !== undefined) json['format'] = a.format;
}

/**
 * A tool schema as the server advertises it in `tools/list`: zod's own
 * conversion, with every shape that carries an `id` in its metadata
 * (`.meta({ id: 'Window' })`: the shapes several fields share, such as a
 * tailwind window or a forecast hour) written once under `$defs` and
 * referenced by `$ref` wherever it recurs, then {@link compact}ed.
 * `$defs` with a `#/$defs/…` reference is read the same by draft-07
 * validators (the v1 SDK client's Ajv) and 2020-12 ones.
 */
export function toolJsonSchema(
  schema: z.ZodType,
  io: 'input' | 'output',
  audience: SchemaAudience,
  target = 'draft-2020-12',
): Json {
  if (!isTarget(target)) throw new Error(`No JSON Schema conversion for target ${target}`);
  const json = z.toJSONSchema(schema, { io, target }) as Json;
  delete json['$schema'];
  compact(json, io, audience);
  return json;
}
