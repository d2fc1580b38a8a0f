/**
 * The one body reader of the project: every place that reads a body it did
 * not ask a library to read (the Node listener's pre-read, the settings API,
 * client registration, the MCP endpoint, the Overpass answer) reads it here,
 * so the bound, the refusal of a declared length over it and the end of a
 * truncated or stalled stream are decided once.
 *
 * It takes any async iterable of bytes: a web `ReadableStream` (a `Request`'s
 * or a `Response`'s body) and a Node `IncomingMessage` both are one, so the
 * same loop serves the web surfaces and `node:http`.
 */

/**
 * What reading gave:
 * - `read`: the whole body, at most `max` bytes;
 * - `too-large`: the declared length or the bytes that came passed `max`
 *   (reading stopped there; the rest is not read here);
 * - `unreadable`: the stream failed, the client went away mid-body, or the
 *   `signal` ended the wait for a slow body.
 */
export type BoundedBody =
  | { readonly kind: 'read'; readonly bytes: Buffer }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'unreadable' };

export interface BoundedBodyOptions {
  /** The largest body taken, in bytes. */
  readonly max: number;
  /**
   * The length the sender declared (`Content-Length`), when it did: one over
   * `max` is refused before a byte is read. The stream is still counted,
   * since a chunked body declares nothing and a sender may lie.
   */
  readonly declared?: number | undefined;
  /** Ends the read of a body that stalls: the answer is then `unreadable`, never a hang. */
  readonly signal?: AbortSignal | undefined;
}

/** The declared length of a `Content-Length` header value; undefined when absent or not a number. */
export function declaredLength(header: string | null | undefined): number | undefined {
  if (header === null || header === undefined || header === '') return undefined;
  const length = Number(header);
  return Number.isFinite(length) ? length : undefined;
}

/** A body to read: a web stream (of a `Request` or a `Response`) or any async iterable of bytes. */
export type BodySource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/**
 * The source's chunks as one iterator. A web stream is read through its own
 * reader (the DOM typings give it no async iterator) and cancelled on `return`.
 */
function chunksOf(source: BodySource): AsyncIterator<Uint8Array> {
  if (!('getReader' in source)) return source[Symbol.asyncIterator]();
  const reader = source.getReader();
  return {
    next: async () => {
      const { done, value } = await reader.read();
      return done ? { done: true, value: undefined } : { done: false, value };
    },
    return: async () => {
      await reader.cancel();
      return { done: true, value: undefined };
    },
  };
}

/** The next chunk, or undefined once `signal` aborts (the read is then over). */
function nextOrAbort(
  chunks: AsyncIterator<Uint8Array>,
  signal: AbortSignal | undefined,
): Promise<IteratorResult<Uint8Array> | undefined> {
  const next = chunks.next();
  if (!signal) return next;
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    next.then(
      (result) => {
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * Reads `source` up to `max` bytes. Past the bound, or on a stalled read,
 * the iterator's `return` is called: a web stream is cancelled then; a Node
 * stream is left as its iterator's options say (the listener passes one that
 * is not destroyed, so it can still answer 413 on the same connection).
 */
export async function readBoundedBody(
  source: BodySource | null,
  options: BoundedBodyOptions,
): Promise<BoundedBody> {
  const { max, declared, signal } = options;
  if (declared !== undefined && declared > max) return { kind: 'too-large' };
  if (source === null) return { kind: 'read', bytes: Buffer.alloc(0) };
  const chunks = chunksOf(source);
  const kept: Uint8Array[] = [];
  let size = 0;
  const stop = async () => {
    await chunks.return?.().catch(() => undefined);
  };
  try {
    for (;;) {
      const result = await nextOrAbort(chunks, signal);
      if (result === undefined) {
        void stop();
        return { kind: 'unreadable' };
      }
      if (result.done) break;
      size += result.value.byteLength;
      if (size > max) {
        await stop();
        return { kind: 'too-large' };
      }
      kept.push(result.value);
    }
  } catch {
    return { kind: 'unreadable' };
  }
  return { kind: 'read', bytes: Buffer.concat(kept) };
}

/** The body's bytes as text (UTF-8, a leading byte-order mark dropped, as `Request.text()` does). */
export function bodyText(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/**
 * A web request's body as text, or undefined once it passes `max` bytes:
 * the form every surface that parses a small JSON body itself (the settings
 * API, client registration) wants. A body that fails midway (the client went
 * away) throws, as reading it always did: that is no answer's "too large".
 */
export async function readBoundedText(request: Request, max: number): Promise<string | undefined> {
  const body = await readBoundedBody(request.body, {
    max,
    declared: declaredLength(request.headers.get('content-length')),
  });
  if (body.kind === 'unreadable') throw new Error('The request body could not be read to its end.');
  return body.kind === 'read' ? bodyText(body.bytes) : undefined;
}

/**
 * What every refusal of a body over the bound says, whichever reader
 * refused it (the Node listener's pre-read, or the MCP endpoint where the
 * platform hands it the body), so a client reads one sentence for one fault.
 */
export function tooLargeDetail(maxBytes: number): string {
  const size = maxBytes >= 1024 * 1024 ? `${maxBytes / 1024 / 1024} MB` : `${maxBytes / 1024} KB`;
  return `The request body is larger than the ${size} this address takes.`;
}
