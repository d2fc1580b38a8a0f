import * as z from 'zod';

interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMaximum?: number;
}

export interface FieldRow {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly description: string;
}

function describeType(schema: JsonSchema): string {
  if (schema.$ref) return schema.$ref.split('/').pop() ?? 'object';
  if (schema.const !== undefined) return `"${String(schema.const)}"`;
  if (schema.enum) return `one of ${schema.enum.map((value) => `"${String(value)}"`).join(', ')}`;
  if (schema.anyOf) return schema.anyOf.map(describeType).join(' or ');
  if (schema.type === 'array' && schema.items) return `array of ${describeType(schema.items)}`;
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any');
  const upper = schema.maximum ?? schema.exclusiveMaximum;
  if (schema.minimum !== undefined && upper !== undefined) {
    return `${type}, ${schema.minimum} to ${upper}${schema.exclusiveMaximum !== undefined ? ' (exclusive)' : ''}`;
  }
  return type;
}

/**
 * The rows of a response-field table, read from the zod schema's JSON Schema:
 * the docs show the very descriptions and types that the OpenAPI document
 * and the validation use, so none of them is written twice. `io: 'input'`
 * reads a tool's arguments, where defaulted fields are optional.
 */
export function schemaFields(schema: z.ZodType, io: 'input' | 'output' = 'output'): FieldRow[] {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
  };
  const root = json.$ref ? (json.$defs?.[json.$ref.split('/').pop() ?? ''] ?? json) : json;
  return Object.entries(root.properties ?? {}).map(([name, field]) => ({
    name,
    type: describeType(field),
    required: root.required?.includes(name) ?? false,
    description: field.description ?? '',
  }));
}
