// The producer's metadata (ProducerMetadata): which brokers it asks, the Metadata request, and
// what a failed request makes it do.

import { clientTimerMs, bootstrapBrokers } from '../model/clientConfig';
import { emit, nextReqId, send, setClientTimer } from '../kernel/kernel';
import type { ProducerClient, World } from '../model/world';
import type { NodeId } from '../model/types';
import { num } from './producerDelivery';
import { unsettledTopics } from './accumulatorQueues';

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
  const brokers = metadataTargets(w, p);
  const target = brokers[p.bootstrapIdx % brokers.length]!;
  p.metadataInFlight = true;
  p.metadataReqId = nextReqId(w);
  const topics = unsettledTopics(p);
  if (p.loop) topics.add(p.loop.topic);
  send(w, p.id, target, { kind: 'Metadata', topics: [...topics] }, p.metadataReqId);
  p.metadataToken = setClientTimer(w, p.id, clientTimerMs(num(p, 'request.timeout.ms')), 'metadataRefresh');
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
