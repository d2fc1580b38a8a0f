import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { declaredLength, readBoundedBody, readBoundedText } from '../../src/http/bounded-body.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

/** A web stream of the given chunks, recording whether it was cancelled. */
function streamOf(chunks: string[], end: 'close' | 'stall' | 'fail' = 'close') {
  const state = { cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(bytes(chunk));
      if (end === 'close') controller.close();
      if (end === 'fail') controller.error(new Error('connection reset'));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe('the one body reader', () => {
  it('reads a body within the bound, in one piece', async () => {
    const { stream } = streamOf(['{"a":', '1}']);
    const body = await readBoundedBody(stream, { max: 7 });
    expect(body.kind === 'read' && Buffer.from(body.bytes).toString()).toBe('{"a":1}');
  });

  it('refuses a declared length over the bound before reading a byte', async () => {
    const { stream, state } = streamOf(['x']);
    expect(await readBoundedBody(stream, { max: 10, declared: 11 })).toEqual({ kind: 'too-large' });
    expect(state.cancelled).toBe(false);
  });

  it('stops a stream that passes the bound, whatever it declared, and cancels the rest', async () => {
    const { stream, state } = streamOf(['12345', '67890', 'never read'], 'stall');
    expect(await readBoundedBody(stream, { max: 8, declared: 3 })).toEqual({ kind: 'too-large' });
    expect(state.cancelled).toBe(true);
  });

  it('answers unreadable, never hangs, when a slow body outlasts its signal', async () => {
    const { stream } = streamOf(['half a bo'], 'stall');
    const stop = new AbortController();
    const reading = readBoundedBody(stream, { max: 100, signal: stop.signal });
    stop.abort();
    expect(await reading).toEqual({ kind: 'unreadable' });
  });

  it('answers unreadable for a truncated body (the stream fails midway)', async () => {
    const { stream } = streamOf(['{"a":'], 'fail');
    expect(await readBoundedBody(stream, { max: 100 })).toEqual({ kind: 'unreadable' });
  });

  it('reads no body as an empty one', async () => {
    const body = await readBoundedBody(null, { max: 0 });
    expect(body.kind === 'read' && body.bytes.byteLength).toBe(0);
  });

  it('reads a Node stream too, and leaves it open past the bound when its iterator says so', async () => {
    const source = Readable.from([Buffer.from('12345'), Buffer.from('67890')], { objectMode: false });
    const body = await readBoundedBody(source.iterator({ destroyOnReturn: false }), { max: 6 });
    expect(body).toEqual({ kind: 'too-large' });
    expect(source.destroyed).toBe(false);
    source.destroy();
  });

  it('gives text for a request, dropping a byte-order mark, and undefined past the bound', async () => {
    const post = (body: string) => new Request('http://x/', { method: 'POST', body });
    expect(await readBoundedText(post('\uFEFF{"a":1}'), 100)).toBe('{"a":1}');
    expect(await readBoundedText(post('x'.repeat(101)), 100)).toBeUndefined();
  });

  it('throws for a request whose body fails midway, which is no "too large"', async () => {
    const { stream } = streamOf(['{"a":'], 'fail');
    const request = new Request('http://x/', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    await expect(readBoundedText(request, 100)).rejects.toThrow(/could not be read/);
  });

  it('takes a declared length only when it is a number', () => {
    expect(declaredLength('12')).toBe(12);
    expect(declaredLength(null)).toBeUndefined();
    expect(declaredLength('')).toBeUndefined();
    expect(declaredLength('twelve')).toBeUndefined();
  });
});
