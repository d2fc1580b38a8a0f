import { CACHE } from '../http/cache-control.ts';

/**
 * The one renderer of the sign-in side's errors: the JSON body of RFC 6749
 * §5.2 (`error`, optional `error_description`, any extra members such as
 * RFC 6750's `scope`), private to its caller, hence `no-store`. Every OAuth
 * error this code writes (the 401/403 challenges, the metadata 405, the
 * registration 413, the bodiless library errors, and the edge's 413, 400
 * and 503 in front of the sign-in paths) comes from here; better-auth's own
 * errors already have this shape.
 */
export interface OAuthErrorInit {
  readonly status: number;
  /** The RFC 6749 / RFC 6750 error code. */
  readonly error: string;
  readonly description?: string | undefined;
  /** Members beyond the two standard ones (`scope` of `insufficient_scope`). */
  readonly extra?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The body's text, for writers with no `Response` (the Node listener's edge). */
export function oauthErrorJson({ error, description, extra }: OAuthErrorInit): string {
  return JSON.stringify({
    error,
    ...(description === undefined ? {} : { error_description: description }),
    ...extra,
  });
}

export function oauthError(init: OAuthErrorInit): Response {
  return new Response(oauthErrorJson(init), {
    status: init.status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': CACHE.none, ...init.headers },
  });
}
