// The consumer's requests (ConsumerNetworkClient): one request in flight per purpose, with its
// request id and deadline, and the consumer's configs as numbers.

import { clientTimerMs, bootstrapBrokers, brokerList } from '../model/clientConfig';
import { nextReqId, send } from '../kernel/kernel';
import type { Body, Message } from '../model/messages';
import type { ConsumerClient, World } from '../model/world';
import type { NodeId } from '../model/types';

export const num = (c: ConsumerClient, name: string) => Number(c.config[name]);

export function request(
  w: World,
  c: ConsumerClient,
  purpose: string,
  to: NodeId,
  body: Body,
  timeoutMs?: number,
): void {
  const reqId = nextReqId(w);
  c.pendingReq.set(purpose, {
    reqId,
    sentAtMs: w.nowMs,
    timeoutMs: clientTimerMs(timeoutMs ?? num(c, 'request.timeout.ms')),
    to,
  });
  send(w, c.id, to, body, reqId);
}

export function anyBroker(w: World, c: ConsumerClient): NodeId {
  const list = bootstrapBrokers(w, brokerList(c.config['bootstrap.servers']));
  return list[c.bootstrapIdx % list.length]!;
}

/** Takes the request this response answers, or null when it is stale. */
export function answered(c: ConsumerClient, msg: Message, purpose: string): boolean {
  const r = c.pendingReq.get(purpose);
  if (!r || r.reqId !== msg.reqId) return false;
  c.pendingReq.delete(purpose);
  return true;
}

export function purposeOf(c: ConsumerClient, reqId: number): string | undefined {
  for (const [k, r] of c.pendingReq) if (r.reqId === reqId) return k;
  return undefined;
}
