import { connect } from 'node:net';

/** One HTTP/1.1 response as read off the wire. */
export interface RawResponse {
  readonly status: number;
  /** Lower-case names; repeated fields joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What happened on one connection: the answers in order, and how it ended. */
export interface ConnectionLog {
  readonly responses: RawResponse[];
  /** `fin` when the server closed cleanly, `reset` on ECONNRESET/EPIPE, `open` when we closed it. */
  readonly end: 'fin' | 'reset' | 'open' | 'timeout';
  /** Bytes left over that did not make a complete response (a torn answer). */
  readonly leftover: string;
  /** The socket error, when `end` is `reset`. */
  readonly error?: string;
}

/** One request to send: its bytes, and whether its answer has no body (HEAD). */
export interface WireRequest {
  readonly bytes: Buffer;
  readonly head: boolean;
}

type Parsed = { response: RawResponse; used: number } | 'incomplete' | { error: string };

/**
 * Parses one response at the start of `data`: status line, header fields,
 * then a body by Content-Length, chunked coding, or none (HEAD, 1xx, 204,
 * 304). A response without either length waits for the connection to end.
 */
export function parseResponse(data: Buffer, head: boolean, ended: boolean): Parsed {
  const split = data.indexOf('\r\n\r\n');
  if (split === -1) return ended && data.length > 0 ? { error: 'torn head' } : 'incomplete';
  const lines = data.subarray(0, split).toString('latin1').split('\r\n');
  const statusLine = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0] ?? '');
  if (!statusLine) return { error: `bad status line ${JSON.stringify(lines[0])}` };
  const status = Number(statusLine[1]);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) return { error: `bad header line ${JSON.stringify(line)}` };
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const start = split + 4;
  const noBody = head || status < 200 || status === 204 || status === 304;
  if (noBody) return { response: { status, headers, body: '' }, used: start };
  if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) {
    let at = start;
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = data.indexOf('\r\n', at);
      if (lineEnd === -1) return 'incomplete';
      const size = Number.parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
      if (!Number.isFinite(size)) return { error: 'bad chunk size' };
      const chunkStart = lineEnd + 2;
      if (size === 0) {
        const trailerEnd = data.indexOf('\r\n', chunkStart);
        if (trailerEnd === -1) return 'incomplete';
        return {
          response: { status, headers, body: Buffer.concat(parts).toString('utf8') },
          used: trailerEnd + 2,
        };
      }
      if (data.length < chunkStart + size + 2) return 'incomplete';
      parts.push(data.subarray(chunkStart, chunkStart + size));
      at = chunkStart + size + 2;
    }
  }
  const length = headers['content-length'];
  if (length !== undefined) {
    const size = Number(length);
    if (data.length < start + size) return 'incomplete';
    return {
      response: { status, headers, body: data.subarray(start, start + size).toString('utf8') },
      used: start + size,
    };
  }
  if (!ended) return 'incomplete';
  return { response: { status, headers, body: data.subarray(start).toString('utf8') }, used: data.length };
}

/**
 * Sends requests on one connection and reads every answer. Pipelined: all
 * bytes at once. Otherwise each request waits for the previous answer (a
 * keep-alive sequence). Stops at the first answer that closes, at the end
 * of the list, or after `timeoutMs` without progress.
 */
export function exchange(
  port: number,
  requests: readonly WireRequest[],
  { pipelined, timeoutMs = 5000 }: { pipelined: boolean; timeoutMs?: number },
): Promise<ConnectionLog> {
  return new Promise((resolve) => {
    const responses: RawResponse[] = [];
    let data = Buffer.alloc(0);
    let ended = false;
    let settled = false;
    let sent = 0;
    const socket = connect(port, '127.0.0.1');
    let timer = setTimeout(() => finish('timeout'), timeoutMs);
    const finish = (end: ConnectionLog['end'], error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const leftover = data.toString('latin1').slice(0, 200);
      resolve(error === undefined ? { responses, end, leftover } : { responses, end, leftover, error });
    };
    const sendNext = () => {
      const next = requests[sent];
      if (!next) return;
      sent += 1;
      socket.write(next.bytes, () => undefined);
    };
    const drain = () => {
      for (;;) {
        const request = requests[responses.length];
        if (!request || data.length === 0) break;
        const parsed = parseResponse(data, request.head, ended);
        if (parsed === 'incomplete') break;
        if ('error' in parsed) {
          responses.push({ status: 0, headers: { error: parsed.error }, body: '' });
          finish('open');
          return;
        }
        responses.push(parsed.response);
        data = data.subarray(parsed.used);
        // The server said it closes: whatever follows (a body it could not know a HEAD forbids) is not an answer.
        if (parsed.response.headers['connection']?.toLowerCase() === 'close') {
          finish(ended ? 'fin' : 'open');
          return;
        }
        clearTimeout(timer);
        timer = setTimeout(() => finish('timeout'), timeoutMs);
        if (!pipelined) sendNext();
      }
      if (responses.length >= requests.length) finish('open');
    };
    socket.on('connect', () => {
      if (pipelined) while (sent < requests.length) sendNext();
      else sendNext();
    });
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      drain();
    });
    socket.on('end', () => {
      ended = true;
      drain();
      finish('fin');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => finish('reset', error.code ?? error.message));
  });
}
