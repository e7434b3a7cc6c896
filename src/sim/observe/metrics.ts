// Vital signs: a time series sampled every simulated second into a bounded ring, as an operator's
// dashboard shows them (Kafka's JMX names in comments: kafka.controller:OfflinePartitionsCount,
// kafka.server:UnderReplicatedPartitions, UnderMinIsrPartitionCount, IsrShrinksPerSec,
// IsrExpandsPerSec, BytesInPerSec, BytesOutPerSec, request latency percentiles).
// The series' types and the traffic counter live in model/metricsSeries.ts (the brokers bump it).
// Cheap by construction: counters are bumped where traffic happens, events and the ledger are read
// from a cursor, and the partition scan runs once per simulated second.

import { eventCount, eventsFromSeq } from '../kernel/memoryBounds';
import { consumerLagByGroup } from './clientsView';
import { isReassigning } from '../kraft/reassignmentReplicas';
import { clusterImage, topicValue } from '../model/image';
import type { World } from '../model/world';
import {
  METRICS_CAPACITY,
  METRICS_INTERVAL_MS,
  type MetricsSample,
  type MetricsState,
  type ProduceLatency,
} from '../model/metricsSeries';
import type { Acks, NodeId } from '../model/types';

export { countBytes } from '../model/traffic';
export {
  METRICS_CAPACITY,
  METRICS_INTERVAL_MS,
  type MetricsSample,
  type MetricsState,
  type ProduceLatency,
} from '../model/metricsSeries';

export function newMetricsState(): MetricsState {
  return {
    samples: [],
    nextSampleMs: METRICS_INTERVAL_MS,
    ledgerCursor: 0,
    eventCursor: 0,
    lastTraffic: new Map(),
  };
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
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}

function takeSample(w: World, timeMs: number): void {
  const m = w.metrics;
  const img = clusterImage(w);
  let offline = 0;
  let under = 0;
  let underMin = 0;
  let reassigning = 0;
  // min.insync.replicas per topic, read once a sample (2,000 partitions of one topic in the large preset).
  const minIsrOf = new Map<string, number>();
  for (const p of img.partitions.values()) {
    if (p.leader < 0) offline++;
    if (p.isr.length < p.replicas.length) under++;
    let minIsr = minIsrOf.get(p.topic);
    if (minIsr === undefined)
      minIsrOf.set(p.topic, (minIsr = Number(topicValue(w, img, p.topic, 'min.insync.replicas'))));
    if (p.isr.length < Math.min(minIsr, p.replicas.length)) underMin++;
    if (isReassigning(p)) reassigning++;
  }

  let shrinks = 0;
  let expands = 0;
  let elections = 0;
  let controllerElections = 0;
  const produceErrors: Record<string, number> = {};
  // The cursor is an event seq: the oldest events may have been dropped (kernel/memoryBounds.ts).
  for (const e of eventsFromSeq(w.events, m.eventCursor)) {
    if (e.type === 'IsrShrunk') shrinks++;
    else if (e.type === 'IsrExpanded') expands++;
    else if (e.type === 'LeaderElected') elections++;
    else if (e.type === 'ControllerActivated') controllerElections++;
    else if (e.type === 'ProduceFailed') {
      const err = String(e.error ?? 'unknown');
      produceErrors[err] = (produceErrors[err] ?? 0) + 1;
    }
  }
  m.eventCursor = eventCount(w);

  // Latency of records acknowledged in (timeMs − interval, timeMs], read from the unsettled tail of the ledger.
  const from = timeMs - METRICS_INTERVAL_MS;
  const latencies: Record<string, number[]> = {};
  const ledger = w.ledger;
  let lo = 0;
  let hi = ledger.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ledger[mid]?.recordId ?? Infinity) < m.ledgerCursor) lo = mid + 1;
    else hi = mid;
  }
  let advancing = true;
  for (const e of ledger.slice(lo)) {
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
      maxMs: xs.at(-1) ?? 0,
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
