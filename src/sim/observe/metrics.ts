// Vital signs: a time series sampled every simulated second into a bounded ring, as an operator's
// dashboard shows them (Kafka's JMX names in comments: kafka.controller:OfflinePartitionsCount,
// kafka.server:UnderReplicatedPartitions, UnderMinIsrPartitionCount, IsrShrinksPerSec,
// IsrExpandsPerSec, BytesInPerSec, BytesOutPerSec, request latency percentiles).
// Cheap by construction: counters are bumped where traffic happens, events and the ledger are read
// from a cursor, and the partition scan runs once per simulated second.

import { consumerLagByGroup } from './clientsView';
import { topicValue } from '../kraft/controller';
import { isReassigning } from '../operations/reassignment';
import { clusterImage } from './snapshot';
import type { World } from '../model/world';
import type { Acks, NodeId } from '../model/types';

/** Samples kept: ten simulated minutes. */
export const METRICS_CAPACITY = 600;
export const METRICS_INTERVAL_MS = 1000;

export interface ProduceLatency {
  /** Records acknowledged in this second. */
  acked: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface MetricsSample {
  timeMs: number;
  offlinePartitions: number;
  underReplicatedPartitions: number;
  underMinIsrPartitions: number;
  /** Partitions with a reassignment in progress. */
  reassigningPartitions: number;
  isrShrinksPerSec: number;
  isrExpandsPerSec: number;
  leaderElectionsPerSec: number;
  /** KRaft controller activations (a new active controller) in this second. */
  controllerElections: number;
  /** Records that failed for good in this second (ProduceFailed), by error. */
  produceErrors: Record<string, number>;
  /** Acknowledged records and their send-to-ack latency, by acks ("0", "1", "all"). */
  produce: Record<string, ProduceLatency>;
  /**
   * Consumer lag per group: HW − committed offset summed over its partitions (HW for an assigned partition
   * with nothing committed), as the snapshot's groups count it; a group no running coordinator holds is absent.
   */
  consumerLag: Record<string, number>;
  /** Per broker: bytes in and out in this second, and how many metadata records it has not applied yet. */
  brokers: { nodeId: NodeId; bytesInPerSec: number; bytesOutPerSec: number; metadataLag: number }[];
}

export interface MetricsState {
  samples: MetricsSample[];
  nextSampleMs: number;
  /** Ledger entries below this record id are settled and counted. */
  ledgerCursor: number;
  eventCursor: number;
  /** Cumulative traffic at the previous sample, per node. */
  lastTraffic: Map<NodeId, { bytesIn: number; bytesOut: number }>;
}

export function newMetricsState(): MetricsState {
  return {
    samples: [],
    nextSampleMs: METRICS_INTERVAL_MS,
    ledgerCursor: 0,
    eventCursor: 0,
    lastTraffic: new Map(),
  };
}

/** Counts bytes received and sent by a node (produce, replication, consumer fetches). */
export function countBytes(w: World, nodeId: NodeId, bytesIn: number, bytesOut: number): void {
  let t = w.traffic.get(nodeId);
  if (!t) w.traffic.set(nodeId, (t = { bytesIn: 0, bytesOut: 0 }));
  t.bytesIn += bytesIn;
  t.bytesOut += bytesOut;
}

/** Takes every sample due at or before `uptoMs` (each one sees the state after all events due by then). */
export function sampleUpTo(w: World, uptoMs: number): void {
  const m = w.metrics;
  while (m.nextSampleMs <= uptoMs) {
    const saved = w.nowMs;
    if (m.nextSampleMs > w.nowMs) w.nowMs = m.nextSampleMs;
    takeSample(w, m.nextSampleMs);
    w.nowMs = Math.max(saved, w.nowMs);
    m.nextSampleMs += METRICS_INTERVAL_MS;
  }
}

function percentile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

function takeSample(w: World, timeMs: number): void {
  const m = w.metrics;
  const img = clusterImage(w);
  let offline = 0;
  let under = 0;
  let underMin = 0;
  let reassigning = 0;
  for (const p of img.partitions.values()) {
    if (p.leader < 0) offline++;
    if (p.isr.length < p.replicas.length) under++;
    const minIsr = Number(topicValue(w, img, p.topic, 'min.insync.replicas'));
    if (p.isr.length < Math.min(minIsr, p.replicas.length)) underMin++;
    if (isReassigning(p)) reassigning++;
  }

  let shrinks = 0;
  let expands = 0;
  let elections = 0;
  let controllerElections = 0;
  const produceErrors: Record<string, number> = {};
  const events = w.events;
  for (let i = m.eventCursor; i < events.length; i++) {
    const e = events[i]!;
    if (e.type === 'IsrShrunk') shrinks++;
    else if (e.type === 'IsrExpanded') expands++;
    else if (e.type === 'LeaderElected') elections++;
    else if (e.type === 'ControllerActivated') controllerElections++;
    else if (e.type === 'ProduceFailed') {
      const err = String(e.error ?? 'unknown');
      produceErrors[err] = (produceErrors[err] ?? 0) + 1;
    }
  }
  m.eventCursor = events.length;

  // Latency of records acknowledged in (timeMs − interval, timeMs], read from the unsettled tail of the ledger.
  const from = timeMs - METRICS_INTERVAL_MS;
  const latencies: Record<string, number[]> = {};
  const ledger = w.ledger;
  let lo = 0;
  let hi = ledger.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ledger[mid]!.recordId < m.ledgerCursor) lo = mid + 1;
    else hi = mid;
  }
  let advancing = true;
  for (let i = lo; i < ledger.length; i++) {
    const e = ledger[i]!;
    if (e.status === 'acked' && e.ackedAtMs !== undefined && e.ackedAtMs > from && e.ackedAtMs <= timeMs)
      (latencies[String(e.acks)] ??= []).push(e.ackedAtMs - e.sentAtMs);
    if (advancing && e.status !== 'pending' && (e.ackedAtMs === undefined || e.ackedAtMs <= timeMs))
      m.ledgerCursor = e.recordId + 1;
    else advancing = false;
  }
  const produce: Record<string, ProduceLatency> = {};
  for (const acks of ['0', '1', 'all'] satisfies `${Acks}`[]) {
    const list = latencies[acks];
    if (!list) continue;
    // A typed array sorts numerically, as (a, b) => a - b would, without a call per comparison.
    const xs = new Float64Array(list).sort();
    produce[acks] = {
      acked: xs.length,
      p50Ms: percentile(xs, 0.5),
      p99Ms: percentile(xs, 0.99),
      maxMs: xs[xs.length - 1]!,
    };
  }

  const brokers: MetricsSample['brokers'] = [];
  const ids = [...w.nodes.values()]
    .filter((n) => n.isBroker)
    .map((n) => n.id)
    .sort((a, b) => a - b);
  for (const id of ids) {
    const node = w.nodes.get(id)!;
    const t = w.traffic.get(id) ?? { bytesIn: 0, bytesOut: 0 };
    const last = m.lastTraffic.get(id) ?? { bytesIn: 0, bytesOut: 0 };
    brokers.push({
      nodeId: id,
      bytesInPerSec: t.bytesIn - last.bytesIn,
      bytesOutPerSec: t.bytesOut - last.bytesOut,
      metadataLag: node.raft ? Math.max(0, img.offset - node.raft.image.offset) : img.offset + 1,
    });
    m.lastTraffic.set(id, { bytesIn: t.bytesIn, bytesOut: t.bytesOut });
  }

  m.samples.push({
    timeMs,
    offlinePartitions: offline,
    underReplicatedPartitions: under,
    underMinIsrPartitions: underMin,
    reassigningPartitions: reassigning,
    isrShrinksPerSec: shrinks,
    isrExpandsPerSec: expands,
    leaderElectionsPerSec: elections,
    controllerElections,
    produceErrors,
    produce,
    consumerLag: consumerLagByGroup(w, img, (tp) => {
      const p = img.partitions.get(tp);
      return p && p.leader >= 0 ? (w.nodes.get(p.leader)?.disk.partitions.get(tp)?.highWatermark ?? 0) : 0;
    }),
    brokers,
  });
  if (m.samples.length > METRICS_CAPACITY) m.samples.splice(0, m.samples.length - METRICS_CAPACITY);
}

/** The last sample's bytes per second of a broker (0 before the first sample). */
export function lastRates(w: World, nodeId: NodeId): { bytesInPerSec: number; bytesOutPerSec: number } {
  const last = w.metrics.samples[w.metrics.samples.length - 1];
  const b = last?.brokers.find((x) => x.nodeId === nodeId);
  return { bytesInPerSec: b?.bytesInPerSec ?? 0, bytesOutPerSec: b?.bytesOutPerSec ?? 0 };
}
