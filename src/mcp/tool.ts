import type { ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { ServiceError } from '../service/service-error.ts';
import type { ToolContext } from './context.ts';

/**
 * A tool as this server defines it: schemas, words for the assistant, and a
 * `run` that returns data plus a one-paragraph summary. Registration (and the
 * turn of errors into tool results) happens in one place, `server.ts`, so a
 * rider tool plugs in by adding one more definition to a list.
 */
export interface ToolDefinition<In extends z.ZodObject = z.ZodObject, Out extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: In;
  readonly outputSchema: Out;
  readonly annotations: ToolAnnotations;
  run(input: z.output<In>, context: ToolContext): Promise<ToolAnswer<z.output<Out>>>;
}

export interface ToolAnswer<T> {
  readonly data: T;
  /** Short human-readable text for `content`; the data goes in `structuredContent`. */
  readonly summary: string;
}

/**
 * The one error a tool throws on purpose. Its message is shown to the
 * assistant as an `isError` result, so it says what went wrong and what to
 * try next.
 */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

/**
 * The words of an `isError` result for an error a tool throws on purpose:
 * its own `ToolError`, or the use cases' `ServiceError`, worded here for an
 * assistant in the one place the family is turned into tool results (a
 * busy forecast adds what the service did; an unknown id says where ids come
 * from). Undefined for anything else: a bug, answered without internals.
 */
export function toolErrorText(error: unknown): string | undefined {
  if (error instanceof ToolError) return error.message;
  if (!(error instanceof ServiceError)) return undefined;
  const { cause, id } = error.facts;
  switch (error.code) {
    case 'forecast_unavailable':
      return cause === undefined ? error.message : `${error.message} ${cause}`;
    case 'too_many_requests':
      return (
        `Rate limit reached for this connection. Wait ${error.facts.retryAfterS ?? 1} s before the next call; ` +
        'the answers do not change within the hour, so reuse the last one if you can.'
      );
    case 'unknown_segment':
      return (
        `No segment has the id "${id ?? ''}". Ids come from find_tailwind_segments: ` +
        'call it with a place or coordinates near the segment, then use one of the ids it returns.'
      );
    default:
      return error.message;
  }
}

/**
 * Annotations shared by tools that only read: same input, same answer
 * (within the hour). No `destructiveHint`: MCP reads it only when
 * `readOnlyHint` is false.
 */
export const READ_ONLY_OPEN_WORLD: ToolAnnotations = {
  readOnlyHint: true,
  idempotentHint: true,
  openWorldHint: true,
};
