/**
 * A push service double speaking RFC 8030 on 127.0.0.1: each subscription
 * is a path (`/push/<name>`) that takes a POSTed message and answers 201,
 * or 410 (`gone`: the browser unsubscribed), or never answers (`hang`). A
 * test makes the browser's side of a subscription with {@link newBrowserKeys}
 * (a P-256 key pair and an auth secret, as the Push API makes them) and reads
 * a received message with {@link decryptPush}: RFC 8291 and RFC 8188's
 * aes128gcm, written here from the RFCs with node:crypto, independent of the
 * library that encrypts.
 */
import { createDecipheriv, createECDH, hkdfSync, randomBytes, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BrowserKeys {
  readonly ecdh: ECDH;
  /** As `PushSubscription.toJSON().keys` gives them: base64url. */
  readonly p256dh: string;
  readonly auth: string;
}

export function newBrowserKeys(): BrowserKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    ecdh,
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };
}

const info = (text: string) => Buffer.concat([Buffer.from(text, 'ascii'), Buffer.from([0])]);
const hkdf = (ikm: Buffer, salt: Buffer, label: Buffer, length: number) =>
  Buffer.from(hkdfSync('sha256', ikm, salt, label, length));

/** The plaintext of one aes128gcm message (a single record, as Web Push sends). */
export function decryptPush(body: Buffer, keys: BrowserKeys): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20] ?? 0;
  const serverKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (ciphertext.length > recordSize) throw new Error('more than one record');
  const secret = keys.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([info('WebPush: info'), keys.ecdh.getPublicKey(), serverKey]);
  const ikm = hkdf(secret, Buffer.from(keys.auth, 'base64url'), keyInfo, 32);
  const cek = hkdf(ikm, salt, info('Content-Encoding: aes128gcm'), 16);
  const nonce = hkdf(ikm, salt, info('Content-Encoding: nonce'), 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('not the last record (no 0x02 delimiter)');
  return padded.subarray(0, end).toString('utf8');
}

export interface PushedMessage {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface PushServiceDouble {
  readonly origin: string;
  readonly received: PushedMessage[];
  /** How each subscription path answers; `accept` when not set. */
  readonly behaviour: Map<string, 'accept' | 'gone' | 'hang'>;
  endpoint(name: string): string;
  close(): Promise<void>;
}

export async function startPushService(): Promise<PushServiceDouble> {
  const received: PushedMessage[] = [];
  const behaviour = new Map<string, 'accept' | 'gone' | 'hang'>();
  const held: ServerResponse[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const how = behaviour.get(path) ?? 'accept';
      if (how === 'hang') {
        held.push(response);
        return;
      }
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks) });
      if (how === 'gone') response.writeHead(410).end();
      else response.writeHead(201, { Location: `${path}/msg-${received.length}` }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    behaviour,
    endpoint: (name) => `${origin}/push/${name}`,
    async close() {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
