// Animated messages from snapshot diffs: what must have flowed between two snapshots, thinned to
// a budget that shrinks as the speed rises.
import type { PartitionView, Snapshot } from '../../sim/types';
import { isInternalTopic, nodeKey, producerKey } from './keys';

export type MessageKind = 'produce' | 'fetch' | 'ack' | 'metadata' | 'heartbeat' | 'vote' | 'consume';

export interface CanvasMessage {
  kind: MessageKind;
  from: string;
  to: string;
}

/** Fewer animated messages as the speed rises, so a fast run stays readable and cheap. */
export function messageBudget(speed: number): number {
  if (speed <= 1) return 40;
  if (speed <= 10) return 24;
  if (speed <= 100) return 12;
  return 6;
}

const KIND_ORDER: MessageKind[] = ['vote', 'ack', 'produce', 'metadata', 'fetch', 'heartbeat', 'consume'];

/**
 * The messages that must have flowed between two snapshots, inferred from what changed: a
 * leader's LEO grew (produce), a follower's LEO grew (replication fetch), a leader's HW grew
 * (ack to the producer), a broker applied new metadata (metadata fetch from the active
 * controller), the active controller heard a running broker's heartbeat again (heartbeat), a voter
 * started an election (votes). Deduplicated per link, thinned to `budget`.
 */
export function inferMessages(prev: Snapshot, next: Snapshot, budget: number): CanvasMessage[] {
  const out = new Map<string, CanvasMessage>();
  const add = (kind: MessageKind, from: string, to: string) => {
    if (from !== to) out.set(`${kind}|${from}|${to}`, { kind, from, to });
  };
  const producer = next.clients.producers.find((p) => p.running) ?? next.clients.producers[0];
  const prevByKey = new Map<string, PartitionView>();
  // Partitions of the same run keep their order; index first, key lookup as the fallback.
  const samePlaces = prev.partitions.length === next.partitions.length;
  if (!samePlaces) for (const p of prev.partitions) prevByKey.set(`${p.topic}-${p.partition}`, p);
  next.partitions.forEach((p, index) => {
    const before = samePlaces ? prev.partitions[index] : prevByKey.get(`${p.topic}-${p.partition}`);
    if (!before || before === p || p.leader < 0) return;
    const leaderKey = nodeKey(p.leader);
    for (const log of p.replicaLogs) {
      const old = before.replicaLogs.find((l) => l.brokerId === log.brokerId);
      if (!old || log.logEndOffset <= old.logEndOffset) continue;
      if (log.brokerId === p.leader) {
        if (producer && !isInternalTopic(p.topic)) add('produce', producerKey(producer.id), leaderKey);
      } else add('fetch', leaderKey, nodeKey(log.brokerId));
    }
    if (p.highWatermark > before.highWatermark && producer && !isInternalTopic(p.topic))
      add('ack', leaderKey, producerKey(producer.id));
  });
  const active = next.quorum.leaderId;
  if (active !== null) {
    const prevNodes = new Map(prev.nodes.map((n) => [n.id, n]));
    for (const n of next.nodes) {
      const old = prevNodes.get(n.id);
      if (old && n.metadataOffset > old.metadataOffset && n.id !== active)
        add('metadata', nodeKey(active), nodeKey(n.id));
      // Only with the same active controller on both sides: a new one gives every broker a fresh
      // session (lastContactMs = now), which is no heartbeat.
      const heard = n.lastHeartbeatMs ?? null;
      const before = old?.lastHeartbeatMs ?? null;
      if (
        prev.quorum.leaderId === active &&
        prev.quorum.epoch === next.quorum.epoch &&
        n.state === 'running' &&
        heard !== null &&
        before !== null &&
        heard > before
      )
        add('heartbeat', nodeKey(n.id), nodeKey(active));
    }
  }
  const prevVoters = new Map(prev.quorum.voters.map((v) => [v.id, v]));
  for (const v of next.quorum.voters) {
    const old = prevVoters.get(v.id);
    const campaigning = v.state === 'candidate' || v.state === 'prospective';
    if (old && campaigning && (old.state !== v.state || old.epoch !== v.epoch))
      for (const other of next.quorum.voters) add('vote', nodeKey(v.id), nodeKey(other.id));
  }
  return [...out.values()]
    .sort(
      (a, b) =>
        KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
        (a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0),
    )
    .slice(0, budget);
}
