// Replication throttling (ReplicationQuotaManager, KIP-73): which replicas a topic's
// leader/follower.replication.throttled.replicas lists, and the byte-rate buckets of a broker's
// leader.replication.throttled.rate and follower.replication.throttled.rate.

import { LONG_MAX } from '../model/config';
import { THROTTLED_REPLICAS } from '../model/metadata';
import type { QuotaBucket, ReplicaMem, SimNode, World } from '../model/world';
import type { ConfigValue, NodeId } from '../model/types';
import { brokerValue } from './brokerConfig';

/** "partition:broker,..." or "*" (QuotaConfig.*_REPLICATION_THROTTLED_REPLICAS). */
function listsReplica(list: ConfigValue | undefined, partition: number, brokerId: NodeId): boolean {
  if (typeof list !== 'string' || list === '') return false;
  if (list.trim() === '*') return true;
  return list.split(',').some((e) => e.trim() === `${partition}:${brokerId}`);
}

/**
 * Whether this broker throttles the replication of `mem` on its `side` for `replicaId`: the topic's
 * throttled-replicas list names (partition, this broker), and the replica is not in the ISR: only the
 * copy to replicas out of the ISR is slowed, so a throttle never holds back the high watermark.
 */
export function isThrottled(
  w: World,
  node: SimNode,
  mem: ReplicaMem,
  side: 'leader' | 'follower',
  replicaId: NodeId,
): boolean {
  // A topic-only config: no cluster-wide default to fall back to. Checked first: it is on the fetch path.
  const topic = node.raft!.image.topics.get(mem.topic);
  if (!topic?.throttled) return false;
  if (mem.isr.includes(replicaId)) return false;
  return listsReplica(topic.config[THROTTLED_REPLICAS[side]], mem.partition, node.id);
}

/** Whether `topic` has a throttled-replicas list at all on this broker (most have none): isThrottled's first test. */
export function topicThrottled(node: SimNode, topic: string): boolean {
  return node.raft!.image.topics.get(topic)?.throttled === true;
}

function quotaRate(w: World, node: SimNode, side: 'leader' | 'follower'): number {
  return Number(brokerValue(w, node, `${side}.replication.throttled.rate`));
}

/** Refills the bucket at `rate` bytes/s, holding at most one second's worth. */
function refill(w: World, q: QuotaBucket, rate: number): void {
  if (q.updatedAtMs < 0) q.allowanceBytes = rate;
  else q.allowanceBytes = Math.min(rate, q.allowanceBytes + (rate * (w.nowMs - q.updatedAtMs)) / 1000);
  q.updatedAtMs = w.nowMs;
}

function quotaBucket(node: SimNode, side: 'leader' | 'follower'): QuotaBucket {
  return side === 'leader' ? node.broker!.leaderQuota : node.broker!.followerQuota;
}

/** The side's bucket refilled to now, or null when the side is not limited (the default rate, Long.MAX_VALUE). */
function refilledQuota(w: World, node: SimNode, side: 'leader' | 'follower'): QuotaBucket | null {
  const rate = quotaRate(w, node, side);
  if (rate >= LONG_MAX) return null;
  const q = quotaBucket(node, side);
  refill(w, q, rate);
  return q;
}

/** ReplicationQuotaManager.isQuotaExceeded; with the default rate (Long.MAX_VALUE) never. */
export function quotaExceeded(w: World, node: SimNode, side: 'leader' | 'follower'): boolean {
  const q = refilledQuota(w, node, side);
  return q !== null && q.allowanceBytes <= 0;
}

/** When an exceeded quota has room again. */
export function quotaReadyAtMs(w: World, node: SimNode, side: 'leader' | 'follower'): number {
  const rate = quotaRate(w, node, side);
  const q = quotaBucket(node, side);
  return w.nowMs + Math.max(1, Math.ceil((-q.allowanceBytes * 1000) / Math.max(rate, 1)) + 1);
}

/** What a throttled side may still move now (at least 1 byte, so that one record always moves). */
export function quotaAllowance(w: World, node: SimNode, side: 'leader' | 'follower'): number {
  const q = refilledQuota(w, node, side);
  return q ? Math.max(1, Math.floor(q.allowanceBytes)) : LONG_MAX;
}

export function recordQuota(w: World, node: SimNode, side: 'leader' | 'follower', bytes: number): void {
  const q = refilledQuota(w, node, side);
  if (q) q.allowanceBytes -= bytes;
}
