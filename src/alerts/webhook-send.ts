/**
 * Sends one webhook POST to the address the URL rule approved. `fetch` would
 * resolve the host name again (a second answer could point inward), so the
 * request goes through `node:http`/`node:https` with a `lookup` that answers
 * the checked address: the Host header, TLS SNI and certificate check still
 * use the URL's name, only the connection is pinned. By default no agent:
 * each delivery opens its own connection. A delivery run passes a keep-alive
 * agent of its own per checked address (`agentFor`), so deliveries to one
 * receiver reuse connections within the run, never across addresses or runs.
 */
import { Agent as HttpAgent, request as httpRequest, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { WebhookTarget } from '../rider/webhook-url.ts';

export interface WebhookPost {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
  /** A keep-alive agent for this target's address (from {@link agentFor}); a fresh connection when absent. */
  readonly agent?: HttpAgent;
}

/**
 * Keep-alive agents for one delivery run, one per scheme, checked address
 * and host: a pooled socket is only ever reused for the address that was
 * checked for that very host. At 68,000 local deliveries, opening and closing
 * a connection each took about a sixth of the run. `destroy` closes them all.
 */
export function runAgents(maxSocketsPerAgent: number) {
  const agents = new Map<string, HttpAgent>();
  return {
    agentFor(target: WebhookTarget): HttpAgent {
      const key = `${target.url.protocol}//${target.address}/${target.url.host}`;
      let agent = agents.get(key);
      if (!agent) {
        const options = { keepAlive: true, maxSockets: maxSocketsPerAgent };
        agent = target.url.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
        agents.set(key, agent);
      }
      return agent;
    },
    destroy(): void {
      for (const agent of agents.values()) agent.destroy();
      agents.clear();
    },
  };
}

/** Sends a POST and resolves with the answer's status; rejects on network failure or timeout. */
export type WebhookSender = (target: WebhookTarget, post: WebhookPost) => Promise<number>;

/** A `lookup` that never asks DNS: every name resolves to the pinned address. */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

export const sendPinned: WebhookSender = (target, { headers, body, timeoutMs, agent }) =>
  new Promise((resolve, reject) => {
    const options: RequestOptions = {
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      lookup: pinnedLookup(target.address, target.family),
      agent: agent ?? false,
      signal: AbortSignal.timeout(timeoutMs),
    };
    const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = send(target.url, options, (answer) => {
      // Only the status decides. With an agent the body is drained (within the time limit) so the
      // connection can serve the next delivery; without one the connection is dropped at once.
      answer.resume();
      resolve(answer.statusCode ?? 0);
      if (!agent) answer.destroy();
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
