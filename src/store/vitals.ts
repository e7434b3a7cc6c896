// The "Vital signs" tab: the metrics time series and the invariant violations the
// worker reports on request, and pure view models of them, of the failure budgets and of a
// capacity plan.
import { create } from 'zustand';
import type { CapacityInput, CapacityPlan } from '../sim/types';
import type { Violation } from '../sim/types';
import type { MetricsSample } from '../sim/types';
import type { Snapshot } from '../sim/types';
import { requestMetrics } from './connection';
import { byTopicThenPartition, topicMinIsr } from './panels';
import { formatSimTime } from './selectors';

export type { CapacityInput, CapacityPlan } from '../sim/types';
export type { Violation } from '../sim/types';
export type { MetricsSample } from '../sim/types';

/** Simulated seconds the charts show (one sample a second). */
export const CHART_WINDOW_S = 120;

export interface VitalsState {
  samples: MetricsSample[];
  violations: Violation[];
  /** A reply has arrived since the page started. */
  loaded: boolean;
}

export const useVitalsStore = create<VitalsState>(() => ({ samples: [], violations: [], loaded: false }));

let inFlight = false;

/** Asks the worker for the latest samples and violations; a request still in flight is not repeated. */
export async function refreshVitals(): Promise<void> {
  if (inFlight) return;
  inFlight = true;
  try {
    const reply = await requestMetrics(CHART_WINDOW_S);
    useVitalsStore.setState({ samples: reply.samples, violations: reply.violations, loaded: true });
  } finally {
    inFlight = false;
  }
}

// ---- charts ---------------------------------------------------------------------------------

export interface ChartSeries {
  label: string;
  /** One value per sample; null where the series has no value that second (no record acknowledged). */
  values: (number | null)[];
  /** SVG stroke-dasharray, so series differ by more than colour. */
  dash: string;
}

export interface ChartView {
  id: string;
  title: string;
  /** The y axis's unit, in words. */
  unit: string;
  series: ChartSeries[];
  /** The top of the y axis (at least 1). */
  max: number;
  /** The top of the y axis in the chart's unit, e.g. "4 kB/s". */
  maxLabel: string;
  fromMs: number;
  toMs: number;
  /** One sentence for screen readers: the values now and the maximum over the window. */
  summary: string;
  /** What the chart says when it has no series (default: no records acknowledged). */
  emptyText?: string;
}

const DASHES = ['', '6 3', '2 3', '8 3 2 3', '1 2', '10 4'];

const round = (value: number): number => Math.round(value * 100) / 100;

/** Bytes in decimal units, as network vendors count: 0 B, 1.5 kB, 12.96 TB. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${round(value)} ${units[unit]}`;
}

function maxOf(values: readonly (number | null)[]): number | null {
  let max: number | null = null;
  for (const v of values) if (v !== null && (max === null || v > max)) max = v;
  return max;
}

function lastOf(values: readonly (number | null)[]): number | null {
  return values.at(-1) ?? null;
}

function chart(
  id: string,
  title: string,
  unit: string,
  samples: readonly MetricsSample[],
  series: { label: string; values: (number | null)[] }[],
  format: (value: number) => string = (v) => String(round(v)),
): ChartView {
  const windowS = samples.length;
  const fromMs = samples[0]?.timeMs ?? 0;
  const toMs = samples[samples.length - 1]?.timeMs ?? 0;
  const top = Math.max(1, ...series.map((s) => maxOf(s.values) ?? 0));
  const over = `over the last ${windowS} s`;
  const shown = (value: number | null) => (value === null ? 'none' : format(value));
  const nowAndMax = (values: (number | null)[]) =>
    `now ${shown(lastOf(values))}, max ${shown(maxOf(values))}`;
  const [first] = series;
  let summary: string;
  if (windowS === 0) summary = `${title}: no samples yet.`;
  else if (!first) summary = `${title}: none ${over}.`;
  else if (series.length === 1) summary = `${title}: ${nowAndMax(first.values)} ${over}.`;
  else summary = `${title} ${over}: ${series.map((s) => `${s.label} ${nowAndMax(s.values)}`).join('; ')}.`;
  return {
    id,
    title,
    unit,
    series: series.map((s, i) => ({ ...s, dash: DASHES[i % DASHES.length] ?? '' })),
    max: top,
    maxLabel: format(top),
    fromMs,
    toMs,
    summary,
  };
}

const ACKS = ['all', '1', '0'] as const;

/** The charts of the Vital signs tab, over the last `windowS` samples. */
export function selectVitalCharts(
  all: readonly MetricsSample[],
  windowS: number = CHART_WINDOW_S,
): ChartView[] {
  const samples = all.slice(Math.max(0, all.length - windowS));
  const pick = (f: (s: MetricsSample) => number | null) => samples.map(f);
  // Only the acks settings that acknowledged a record in the window get a line.
  const acksSeen = ACKS.filter((acks) => samples.some((s) => s.produce[acks]));
  // A line per consumer group seen in the window, a gap where no running coordinator held it.
  const groupsSeen = [...new Set(samples.flatMap((s) => Object.keys(s.consumerLag)))].sort();
  const bytesPerSec = (v: number) => `${formatBytes(v)}/s`;
  const topIn = (s: MetricsSample) =>
    s.brokers.reduce<MetricsSample['brokers'][number] | null>(
      (top, b) => (top === null || b.bytesInPerSec > top.bytesInPerSec ? b : top),
      null,
    );
  const charts = [
    chart('offline', 'Offline partitions', 'partitions without a leader', samples, [
      { label: 'offline', values: pick((s) => s.offlinePartitions) },
    ]),
    chart('under-replicated', 'Under-replicated partitions', 'partitions with ISR < replicas', samples, [
      { label: 'under-replicated', values: pick((s) => s.underReplicatedPartitions) },
    ]),
    chart('under-min-isr', 'Under min ISR partitions', 'partitions with ISR < min.insync.replicas', samples, [
      { label: 'under min ISR', values: pick((s) => s.underMinIsrPartitions) },
    ]),
    chart('isr-changes', 'ISR shrinks and expands', 'per second', samples, [
      { label: 'shrinks', values: pick((s) => s.isrShrinksPerSec) },
      { label: 'expands', values: pick((s) => s.isrExpandsPerSec) },
    ]),
    chart(
      'throughput',
      'Produce throughput by acks',
      'records acknowledged per second',
      samples,
      acksSeen.map((acks) => ({
        label: `acks=${acks}`,
        values: pick((s) => s.produce[acks]?.acked ?? 0),
      })),
    ),
    chart(
      'latency',
      'Produce latency by acks',
      'ms from send to acknowledgement, p50 and p99',
      samples,
      acksSeen.flatMap((acks) => [
        { label: `acks=${acks} p50`, values: pick((s) => s.produce[acks]?.p50Ms ?? null) },
        { label: `acks=${acks} p99`, values: pick((s) => s.produce[acks]?.p99Ms ?? null) },
      ]),
      (v) => `${round(v)} ms`,
    ),
    {
      ...chart(
        'consumer-lag',
        'Consumer lag',
        'records behind: HW − committed offset, summed per group',
        samples,
        groupsSeen.map((groupId) => ({
          label: groupId,
          values: pick((s) => s.consumerLag[groupId] ?? null),
        })),
      ),
      emptyText: 'No consumer group in this window.',
    },
    chart('controller-elections', 'Controller elections', 'new active controllers per second', samples, [
      { label: 'elections', values: pick((s) => s.controllerElections) },
    ]),
    chart('metadata-lag', 'Metadata lag', 'metadata records not yet applied, max over brokers', samples, [
      { label: 'max lag', values: pick((s) => Math.max(0, ...s.brokers.map((b) => b.metadataLag))) },
    ]),
    chart(
      'bytes',
      'Bytes in and out',
      'bytes per second, sum over brokers',
      samples,
      [
        { label: 'in', values: pick((s) => s.brokers.reduce((sum, b) => sum + b.bytesInPerSec, 0)) },
        { label: 'out', values: pick((s) => s.brokers.reduce((sum, b) => sum + b.bytesOutPerSec, 0)) },
      ],
      bytesPerSec,
    ),
  ];
  const last = samples.at(-1);
  const top = last ? topIn(last) : null;
  const bytes = charts.at(-1);
  if (top && top.bytesInPerSec > 0 && bytes) {
    bytes.summary += ` Busiest broker now: ${top.nodeId}, ${bytesPerSec(top.bytesInPerSec)} in, ${bytesPerSec(top.bytesOutPerSec)} out.`;
  }
  return charts;
}

// ---- failure budget -------------------------------------------------------------------------

export interface BudgetRow {
  key: string;
  topic: string;
  partition: number;
  isr: number;
  replicationFactor: number;
  beforeNotEnoughReplicas: number;
  beforeOffline: number;
  noTolerance: boolean;
  note: string;
}

export interface NoToleranceTopic {
  topic: string;
  minInsyncReplicas: number;
  replicationFactor: number;
}

/** One row per partition of the users' topics (not "__"-prefixed), from snapshot.partitions[].budget. */
export function selectBudgetRows(snapshot: Snapshot | null): BudgetRow[] {
  if (!snapshot) return [];
  return snapshot.partitions
    .filter((p) => p.budget && !p.topic.startsWith('__'))
    .map((p) => ({
      key: `${p.topic}-${p.partition}`,
      topic: p.topic,
      partition: p.partition,
      isr: p.isr.length,
      replicationFactor: p.replicas.length,
      beforeNotEnoughReplicas: p.budget!.beforeNotEnoughReplicas,
      beforeOffline: p.budget!.beforeOffline,
      noTolerance: p.budget!.noTolerance,
      note: p.budget!.note,
    }))
    .sort(byTopicThenPartition);
}

/** Topics where min.insync.replicas ≥ replication factor: losing any one replica refuses acks=all writes. */
export function selectNoToleranceTopics(snapshot: Snapshot | null): NoToleranceTopic[] {
  if (!snapshot) return [];
  const flagged = new Set(snapshot.partitions.filter((p) => p.budget?.noTolerance).map((p) => p.topic));
  return snapshot.topics
    .filter((t) => flagged.has(t.name))
    .map((t) => ({
      topic: t.name,
      minInsyncReplicas: topicMinIsr(t.config),
      replicationFactor: t.replicationFactor,
    }))
    .sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0));
}

// ---- invariants -----------------------------------------------------------------------------

export interface ViolationRow {
  key: string;
  time: string;
  /** "orders-0", "node 4", or "cluster". */
  where: string;
  invariant: string;
  message: string;
}

/** The violations, newest first. */
export function selectViolationRows(violations: readonly Violation[]): ViolationRow[] {
  return violations
    .map((v, i) => ({
      key: `${i}`,
      time: formatSimTime(v.timeMs),
      where:
        v.topic !== undefined
          ? `${v.topic}-${v.partition ?? '?'}${v.nodeId !== undefined ? ` on node ${v.nodeId}` : ''}`
          : v.nodeId !== undefined
            ? `node ${v.nodeId}`
            : 'cluster',
      invariant: v.invariant,
      message: v.message,
    }))
    .reverse();
}

// ---- capacity -------------------------------------------------------------------------------

/** The capacity form's fields, in the units a person types. */
export interface CapacityForm {
  writeMBPerSec: number;
  retentionDays: number;
  replicationFactor: number;
  consumerGroups: number;
  brokers: number;
}

const MB = 1e6;
const DAY_MS = 24 * 3600 * 1000;

export function capacityFormOf(input: CapacityInput): CapacityForm {
  return {
    writeMBPerSec: input.writeBytesPerSec / MB,
    retentionDays: input.retentionMs / DAY_MS,
    replicationFactor: input.replicationFactor,
    consumerGroups: input.consumerGroups,
    brokers: input.brokers,
  };
}

export function capacityInputOf(form: CapacityForm): CapacityInput {
  return {
    writeBytesPerSec: form.writeMBPerSec * MB,
    retentionMs: form.retentionDays * DAY_MS,
    replicationFactor: form.replicationFactor,
    consumerGroups: form.consumerGroups,
    brokers: form.brokers,
  };
}

export interface CapacityView {
  storageTotal: string;
  storagePerBroker: string;
  networkInPerBroker: string;
  networkOutPerBroker: string;
  networkIn: string;
  networkOut: string;
  explanation: string[];
}

export function capacityView(plan: CapacityPlan): CapacityView {
  return {
    storageTotal: formatBytes(plan.storageBytes),
    storagePerBroker: formatBytes(plan.storageBytesPerBroker),
    networkIn: `${formatBytes(plan.networkInBytesPerSec)}/s`,
    networkOut: `${formatBytes(plan.networkOutBytesPerSec)}/s`,
    networkInPerBroker: `${formatBytes(plan.networkInBytesPerSecPerBroker)}/s`,
    networkOutPerBroker: `${formatBytes(plan.networkOutBytesPerSecPerBroker)}/s`,
    explanation: plan.explanation,
  };
}
