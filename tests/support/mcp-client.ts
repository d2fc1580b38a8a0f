import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import type { McpEndpoint } from '../../src/mcp/endpoint.ts';

/** The two protocol eras the server must serve. */
export const ERAS = ['2025', '2026-07-28'] as const;
export type Era = (typeof ERAS)[number];

type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A fetch that hands requests to the endpoint in-process, as the socket
 * would: the Host header set from the URL (an in-process Request has none)
 * and the caller's address as the platform would report it.
 */
export function inProcessFetch(endpoint: McpEndpoint, address = '127.0.0.1'): FetchLike {
  return async (input, init) => {
    const request = new Request(input, init);
    const headers = new Headers(request.headers);
    if (!headers.has('host')) headers.set('host', new URL(request.url).host);
    return endpoint(new Request(request, { headers }), { address });
  };
}

/** An SDK client connected in the given era: `2025` uses initialize, `2026-07-28` is pinned. */
export async function connectClient(url: string, era: Era, fetch?: FetchLike): Promise<Client> {
  const client = new Client(
    { name: 'wind-on-segment-tests', version: '1.0.0' },
    { versionNegotiation: { mode: era === '2025' ? 'legacy' : { pin: era } } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), fetch ? { fetch } : {});
  await client.connect(transport);
  return client;
}

/** The text of a tool result's first content block: the summary, or the error message ('' if none). */
export function resultText(result: { content?: unknown }): string {
  const [first] = (result.content ?? []) as { text?: string }[];
  return first?.text ?? '';
}

/** The message of a tool error, after checking the result is one: `isError` and no structured data. */
export function toolErrorText(result: {
  isError?: unknown;
  content?: unknown;
  structuredContent?: unknown;
}): string {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return resultText(result);
}
