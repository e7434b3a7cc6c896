// The snapshot's `clients`: producers with their counters and latency percentiles, consumers with
// their assignment and positions, and groups as their coordinator sees them, with lag per partition.

import { loadedGroup } from '../groups/groupMetadataManager';
import { OFFSETS_TOPIC, offsetsPartitionFor } from '../groups/offsetsTopic';
import type { MetaImage } from '../model/metadata';
import { compareTopicPartition, tpKey } from '../model/metadata';
import type { GroupMem, ProducerClient, World } from '../model/world';
import type { NodeId } from '../model/types';
import type { ClientsView, ConsumerView, GroupView, PartitionOffsetView, ProducerView } from '../model/views';
import { dictionary } from '../model/userText';
import { deliveriesView, processorsView } from './deliveries';

function percentile(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? null;
}

/** The producer's oldest request in flight and oldest unsettled record: what its timeouts run against. */
function oldestInFlight(
  w: World,
  p: ProducerClient,
): Pick<ProducerView, 'oldestRequestSentAtMs' | 'oldestRequestBrokerId' | 'oldestRecordSentAtMs'> {
  let oldest: { sentAtMs: number; brokerId: NodeId } | null = null;
  for (const req of p.inFlight.values()) if (!oldest || req.sentAtMs < oldest.sentAtMs) oldest = req;
  // p.records is in send order: the first is the oldest.
  let oldestRecordSentAtMs: number | null = null;
  for (const id of p.records.keys()) {
    oldestRecordSentAtMs = w.ledgerIndex.get(id)?.sentAtMs ?? null;
    break;
  }
  return {
    oldestRequestSentAtMs: oldest ? oldest.sentAtMs : null,
    oldestRequestBrokerId: oldest ? oldest.brokerId : null,
    oldestRecordSentAtMs,
  };
}

export function clientsView(w: World, img: MetaImage, highWatermark: (tp: string) => number): ClientsView {
  const producers: ProducerView[] = [...w.producers.values()].map((p) => {
    const lat = [...p.latencies].sort((a, b) => a - b);
    return {
      id: p.id,
      sent: p.counters.sent,
      acknowledged: p.counters.acknowledged,
      failed: { ...p.counters.failed },
      retries: p.counters.retries,
      pending: p.records.size,
      running: !!p.loop,
      topic: p.loop?.topic ?? null,
      ratePerSec: p.loop?.ratePerSec ?? 0,
      idempotent: p.idempotent && p.acks === 'all',
      latencyP50Ms: percentile(lat, 0.5),
      latencyP99Ms: percentile(lat, 0.99),
      metadataFrom: p.metadataFrom,
      config: { ...p.config },
      ...oldestInFlight(w, p),
      transaction: p.txn
        ? {
            transactionalId: p.txn.transactionalId,
            state: p.txn.state,
            producerId: p.pid,
            producerEpoch: p.txn.producerEpoch,
            coordinator: p.txn.coordinator,
            partitions: [...p.txn.partitions],
            records: p.txn.recordIds.length,
            committed: p.txn.committed,
            aborted: p.txn.aborted,
            lastError: p.txn.lastError,
          }
        : null,
    };
  });
  const consumers: ConsumerView[] = [...w.consumers.values()].map((c) => ({
    id: c.id,
    groupId: c.groupId,
    topics: [...c.topics],
    state: c.state,
    memberId: c.memberId,
    generation: c.generation,
    groupProtocol: c.membership ? ('consumer' as const) : ('classic' as const),
    coordinator: c.coordinator,
    assignment: [...c.parts.values()].map((p) => ({ topic: p.topic, partition: p.partition })),
    positions: [...c.parts.values()].map((p) => ({
      topic: p.topic,
      partition: p.partition,
      offset: p.position,
    })),
    recordsConsumed: c.consumed,
    lastRecords: c.lastRecords.map((r) => ({ ...r })),
    config: { ...c.config },
  }));
  const groups: GroupView[] = groupIdsOf(w).map((groupId) => {
    const {
      coordinator,
      offsetsPartition: p,
      group: g,
      offsets,
    } = groupOffsets(w, img, groupId, highWatermark);
    return {
      groupId,
      coordinator,
      offsetsPartition: p,
      state: g ? g.state : 'Dead',
      groupProtocol: (
        g
          ? g.type === 'consumer'
          : consumers.some((c) => c.groupId === groupId && c.groupProtocol === 'consumer')
      )
        ? ('consumer' as const)
        : ('classic' as const),
      generation: g ? g.generation : 0,
      groupEpoch: g?.groupEpoch ?? -1,
      assignmentEpoch: g?.assignmentEpoch ?? -1,
      protocol: g ? g.protocol : '',
      leaderId: g ? g.leaderId : null,
      members: g
        ? [...g.members.values()].map((m) => {
            const c = consumers.find((x) => x.id === m.clientId && x.memberId === m.memberId);
            return {
              memberId: m.memberId,
              consumerId: m.clientId,
              assignment: m.assignment.map((tp) => ({ ...tp })),
              positions: c ? c.positions : [],
              recordsConsumed: c ? c.recordsConsumed : 0,
              lastRecords: c ? c.lastRecords : [],
              memberEpoch: m.memberEpoch ?? -1,
              memberState: m.memberState ?? '',
              pendingRevocation: (m.pendingRevocation ?? []).map((tp) => ({ ...tp })),
            };
          })
        : [],
      offsets,
      totalLag: totalLagOf(offsets),
      recordsConsumed: w.consumedCount.get(groupId) ?? 0,
      staleCoordinators: staleCoordinatorsOf(w, groupId, coordinator),
    };
  });
  return {
    producers,
    consumers,
    groups,
    deliveries: deliveriesView(w, img, groups),
    processors: processorsView(w, img, groups),
  };
}

/** Running brokers other than the metadata's coordinator that still hold the group as leaders of its partition. */
function staleCoordinatorsOf(w: World, groupId: string, coordinator: NodeId): GroupView['staleCoordinators'] {
  const out: GroupView['staleCoordinators'] = [];
  for (const [brokerId, cm] of [...w.coordinators.entries()].sort((a, b) => a[0] - b[0])) {
    const g = cm.groups.get(groupId);
    const node = w.nodes.get(brokerId);
    if (brokerId === coordinator || !g || !node || node.state !== 'running') continue;
    const img = node.raft?.image;
    const n = img?.topics.get(OFFSETS_TOPIC)?.partitions ?? 0;
    const own =
      n > 0 ? img!.partitions.get(tpKey(OFFSETS_TOPIC, offsetsPartitionFor(groupId, n))) : undefined;
    if (own?.leader !== brokerId) continue;
    out.push({ brokerId, state: g.state, members: g.members.size });
  }
  return out;
}

/** Every group id: those of the consumers and those the coordinators hold, sorted. */
function groupIdsOf(w: World): string[] {
  const groupIds = new Set<string>();
  for (const c of w.consumers.values()) groupIds.add(c.groupId);
  for (const cm of w.coordinators.values()) for (const id of cm.groups.keys()) groupIds.add(id);
  return [...groupIds].sort();
}

/** A group's coordinator and its loaded state (null when no running coordinator holds it). */
function loadedGroupOf(
  w: World,
  img: MetaImage,
  groupId: string,
): { coordinator: NodeId; offsetsPartition: number; group: GroupMem | null } {
  const offsetsTopic = img.topics.get(OFFSETS_TOPIC);
  const n = offsetsTopic ? offsetsTopic.partitions : Number(w.config['offsets.topic.num.partitions']);
  const offsetsPartition = offsetsPartitionFor(groupId, n);
  const coordinator = offsetsTopic
    ? (img.partitions.get(tpKey(OFFSETS_TOPIC, offsetsPartition))?.leader ?? -1)
    : -1;
  const group = coordinator >= 0 ? loadedGroup(w, coordinator, groupId) : null;
  return { coordinator, offsetsPartition, group };
}

/**
 * A group's rows: its committed partitions, then each member's assigned partitions with nothing
 * committed yet (committed -1, lag = HW), as kafka-consumer-groups --describe lists them.
 */
function forEachOffsetRow(
  g: GroupMem,
  row: (topic: string, partition: number, committed: number) => void,
): void {
  for (const o of g.offsets.values()) row(o.topic, o.partition, o.offset);
  for (const m of g.members.values())
    for (const tp of m.assignment)
      if (!g.offsets.has(tpKey(tp.topic, tp.partition))) row(tp.topic, tp.partition, -1);
}

const lagOf = (committed: number, hw: number): number => (committed < 0 ? hw : Math.max(0, hw - committed));

/** A group's coordinator, its loaded state (null when no running coordinator holds it) and its offsets with lag. */
function groupOffsets(
  w: World,
  img: MetaImage,
  groupId: string,
  highWatermark: (tp: string) => number,
): { coordinator: NodeId; offsetsPartition: number; group: GroupMem | null; offsets: PartitionOffsetView[] } {
  const { coordinator, offsetsPartition, group: g } = loadedGroupOf(w, img, groupId);
  if (!g) return { coordinator, offsetsPartition, group: null, offsets: [] };
  const offsets: PartitionOffsetView[] = [];
  forEachOffsetRow(g, (topic, partition, committed) => {
    const hw = highWatermark(tpKey(topic, partition));
    offsets.push({ topic, partition, committed, highWatermark: hw, lag: lagOf(committed, hw) });
  });
  offsets.sort(compareTopicPartition);
  return { coordinator, offsetsPartition, group: g, offsets };
}

const totalLagOf = (offsets: readonly PartitionOffsetView[]): number =>
  offsets.reduce((s, o) => s + o.lag, 0);

/**
 * Consumer lag per group (kafka-consumer-groups --describe, summed): HW − committed offset over the
 * group's partitions, as the snapshot's groups count it. Groups no running coordinator holds are left out.
 */
export function consumerLagByGroup(
  w: World,
  img: MetaImage,
  highWatermark: (tp: string) => number,
): Record<string, number> {
  const lag = dictionary<number>();
  for (const groupId of groupIdsOf(w)) {
    // (Summed row by row: the metrics take this every simulated second, over every partition of a
    // group, and need neither the rows' views nor their order.)
    const { group } = loadedGroupOf(w, img, groupId);
    if (!group) continue;
    let total = 0;
    forEachOffsetRow(group, (topic, partition, committed) => {
      total += lagOf(committed, highWatermark(tpKey(topic, partition)));
    });
    lag[groupId] = total;
  }
  return lag;
}
