// The producer's metadata (ProducerMetadata): which brokers it asks, the Metadata request, and
// what a failed request makes it do.

import { clientTimerMs, bootstrapBrokers } from '../model/clientConfig';
import { emit, nextReqId, send, setClientTimer } from '../kernel/kernel';
import type { ProducerClient, World } from '../model/world';
import type { NodeId } from '../model/types';
import { num } from './producerDelivery';
import { unsettledTopics } from './accumulatorQueues';
import { exponentialBackoffBoundMs, exponentialBackoffMs } from './connectionBackoff';

/**
 * Where the next Metadata request goes: the brokers the last response named, else bootstrap.servers
 * (every broker when unset). After a whole round of them failed, back to bootstrap.servers.
 */
function metadataTargets(w: World, p: ProducerClient): NodeId[] {
  if (p.knownBrokers.length) return p.knownBrokers;
  return bootstrapBrokers(w, p.bootstrap);
}

export function requestMetadata(w: World, p: ProducerClient): void {
  if (p.metadataInFlight) return;
  const topics = unsettledTopics(p);
  if (p.loop) topics.add(p.loop.topic);
  const allowAt = metadataAllowedAtMs(w, p, topics);
  if (w.nowMs < allowAt) {
    // Not yet: the request waits out the refresh backoff (a wait, not a request: its timer is no failure).
    p.needMetadata = true;
    p.metadataInFlight = true;
    p.metadataReqId = 0;
    p.metadataToken = setClientTimer(w, p.id, allowAt - w.nowMs, 'metadataRefresh');
    return;
  }
  const brokers = metadataTargets(w, p);
  const target = brokers[p.bootstrapIdx % brokers.length]!;
  p.metadataInFlight = true;
  p.metadataReqId = nextReqId(w);
  send(w, p.id, target, { kind: 'Metadata', topics: [...topics] }, p.metadataReqId);
  p.metadataToken = setClientTimer(w, p.id, clientTimerMs(num(p, 'request.timeout.ms')), 'metadataRefresh');
}

/**
 * Metadata.timeToAllowUpdate: after a response, the next request waits retry.backoff.ms, and after
 * n responses in a row that changed nothing, the ExponentialBackoff of n - 1 (doubling up to
 * retry.backoff.max.ms, ±20%): a producer whose partition has no leader asks about once a second,
 * not once a round trip. A topic it does not know yet is asked for at once
 * (requestUpdateForNewTopics), and so is metadata past metadata.max.age.ms (the count starts again).
 * The jitter is drawn only when the answer depends on it, once per wait.
 */
function metadataAllowedAtMs(w: World, p: ProducerClient, topics: Set<string>): number {
  const last = p.metadataFetchedAtMs;
  if (last === -Infinity) return -Infinity;
  for (const t of topics) if (!p.leaders.has(t)) return -Infinity;
  if (w.nowMs - p.metadataFetchedAtMs >= num(p, 'metadata.max.age.ms')) {
    p.metadataEquivalent = 0;
    return last + Math.min(num(p, 'retry.backoff.ms'), num(p, 'retry.backoff.max.ms'));
  }
  if (p.metadataAllowedAtMs > last) return p.metadataAllowedAtMs;
  const initial = num(p, 'retry.backoff.ms');
  const max = num(p, 'retry.backoff.max.ms');
  const n = Math.max(0, p.metadataEquivalent - 1);
  if (w.nowMs - last >= exponentialBackoffBoundMs(initial, max, n)) return -Infinity;
  p.metadataAllowedAtMs = last + exponentialBackoffMs(w, initial, max, n);
  return p.metadataAllowedAtMs;
}

/** A metadata request got no answer: try the next broker; a whole round failed is reported once. */
export function metadataFailed(w: World, p: ProducerClient): void {
  p.metadataInFlight = false;
  p.bootstrapIdx++;
  p.needMetadata = true;
  p.metadataFailures++;
  const targets = metadataTargets(w, p);
  if (p.metadataFailures < targets.length) return;
  p.metadataFailures = 0;
  if (p.knownBrokers.length) {
    // Every broker it knew is gone: rebootstrap (metadata.recovery.strategy=rebootstrap, KIP-899).
    p.knownBrokers = [];
    return;
  }
  if (p.noMetadataReported) return;
  p.noMetadataReported = true;
  emit(
    w,
    'ProducerNoMetadata',
    `${p.id} cannot reach any bootstrap server (${targets.join(', ')}): no metadata. Records wait up to max.block.ms (${num(p, 'max.block.ms')} ms) for it, then fail with TimeoutException.`,
    { producerId: p.id, bootstrap: targets },
  );
}
