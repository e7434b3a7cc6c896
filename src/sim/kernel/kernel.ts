// The discrete-event kernel: scheduling, the seeded network, and the event log.

import { boundEvents } from './memoryBounds';
import type { Addr, Body, Message } from '../model/messages';
import { nextFloat } from './rng';
import { trailLostAtSend, trailSend } from '../model/messageTrail';
import type { ClientTimerName, DeadlineTimer, QueueItem, SimNode, TimerName, World } from '../model/world';
import type { ConfigValue, NodeId, SimEvent } from '../model/types';

/** Queues an item; it carries its own `dueMs`, and `seq` from w.seq++ (set when it is built: one hidden class). */
export function schedule(w: World, item: QueueItem): void {
  w.queue.push(item);
}

export function newToken(w: World): number {
  return ++w.tokens;
}

/** Arms a node timer; it fires only if the node is still the same incarnation. */
export function setNodeTimer(
  w: World,
  node: SimNode,
  delayMs: number,
  name: TimerName,
  key?: string,
): number {
  const token = newToken(w);
  schedule(w, {
    dueMs: w.nowMs + delayMs,
    seq: w.seq++,
    t: 'timer',
    node: node.id,
    incarnation: node.incarnation,
    name,
    token,
    key,
  });
  return token;
}

/** Makes sure `t` fires no later than `dueMs` (see DeadlineTimer). Returns true if it armed a new timer. */
export function armNodeDeadline(
  w: World,
  node: SimNode,
  t: DeadlineTimer,
  dueMs: number,
  name: TimerName,
  key?: string,
): void {
  if (t.dueMs >= w.nowMs && t.dueMs <= dueMs && t.token !== 0) return;
  t.dueMs = dueMs;
  t.token = setNodeTimer(w, node, dueMs - w.nowMs, name, key);
}

export function armClientDeadline(
  w: World,
  client: string,
  t: DeadlineTimer,
  dueMs: number,
  name: ClientTimerName,
  key?: string,
): void {
  if (t.dueMs >= w.nowMs && t.dueMs <= dueMs && t.token !== 0) return;
  t.dueMs = dueMs;
  t.token = setClientTimer(w, client, dueMs - w.nowMs, name, key);
}

export function setClientTimer(
  w: World,
  client: string,
  delayMs: number,
  name: ClientTimerName,
  key?: string,
): number {
  const token = newToken(w);
  schedule(w, { dueMs: w.nowMs + delayMs, seq: w.seq++, t: 'client', client, name, token, key });
  return token;
}

export function emit(
  w: World,
  type: string,
  message: string,
  fields: Omit<Partial<SimEvent>, 'seq' | 'timeMs'> = {},
): void {
  w.events.push({ seq: w.eventSeq++, timeMs: w.nowMs, type, message, ...fields });
  boundEvents(w);
}

export function cfgNumber(w: World, name: string): number {
  return Number(w.config[name]);
}

export function cfg(w: World, name: string): ConfigValue {
  return w.config[name]!;
}

// ---- network ----------------------------------------------------------------

function linkKey(from: Addr, to: Addr): string {
  return `${from}>${to}`;
}

/** Whether a packet from `from` can reach `to` now (cuts and partitionNetwork groups). */
export function reachable(w: World, from: Addr, to: Addr): boolean {
  if (from === to) return true;
  const net = w.network;
  if (net.cuts.size === 0 && net.groups.size === 0) return true;
  if (net.cuts.has(linkKey(from, to))) return false;
  const gf = net.groups.get(from);
  const gt = net.groups.get(to);
  return gf === undefined || gt === undefined || gf === gt;
}

export function incarnationOf(w: World, addr: Addr): number {
  return typeof addr === 'number' ? (w.nodes.get(addr)?.incarnation ?? 0) : 0;
}

/**
 * Sends a message; it is lost if the link is cut when sent or when it would arrive. TCP keeps order
 * per link. `toIncarnation` pins it to one process of the receiver (a reply goes to the process
 * that asked, never to a restarted successor: its connections died with it).
 */
export function send(
  w: World,
  from: Addr,
  to: Addr,
  body: Body,
  reqId: number,
  toIncarnation = incarnationOf(w, to),
  fromIncarnation = incarnationOf(w, from),
): void {
  const net = w.network;
  if (!reachable(w, from, to)) {
    trailLostAtSend(w.messageTrail, w.nowMs, from, to, body);
    return;
  }
  const base = net.linkLatency.size
    ? (net.linkLatency.get(linkKey(from, to)) ?? net.latencyMs)
    : net.latencyMs;
  // Whole milliseconds keep the event log readable: jitter is uniform in [0, jitterMs].
  const jitter = net.jitterMs > 0 ? Math.floor(nextFloat(w.rng) * (net.jitterMs + 1)) : 0;
  let fromLinks = net.lastDelivery.get(from);
  if (!fromLinks) net.lastDelivery.set(from, (fromLinks = new Map()));
  const due = Math.max(w.nowMs + base + jitter, fromLinks.get(to) ?? 0);
  fromLinks.set(to, due);
  net.inFlight++;
  const seq = w.seq++;
  trailSend(w.messageTrail, seq, w.nowMs, due, from, to, body);
  schedule(w, {
    dueMs: due,
    seq,
    t: 'deliver',
    from,
    to,
    reqId,
    toIncarnation,
    fromIncarnation,
    body,
  });
}

/** Answers `req`: from the process it was delivered to (its incarnation), to the one that sent it. */
export function reply(w: World, req: Message, body: Body): void {
  send(w, req.to, req.from, body, req.reqId, req.fromIncarnation, req.toIncarnation);
}

export function nextReqId(w: World): number {
  return ++w.reqIds;
}

export function isRunning(node: SimNode | undefined): node is SimNode {
  return !!node && node.state === 'running';
}

export function nodeOf(w: World, id: NodeId): SimNode | undefined {
  return w.nodes.get(id);
}
