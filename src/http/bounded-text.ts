/**
 * A request body read with a size bound, for every surface that reads a small
 * body itself (the settings API, client registration) before parsing it.
 */
/**
 * The body as text, or undefined once it passes `max` bytes. Reads the stream
 * itself rather than trusting Content-Length, which a chunked request lacks.
 */
export async function readBoundedText(request: Request, max: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > max) return undefined;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
