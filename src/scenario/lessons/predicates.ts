// Small pure readers of a snapshot and the event log, so that lesson steps read as sentences.
import type { Scenario, SimEvent, Snapshot } from '..';
import type { LessonView } from './types';

export const partitionOf = (s: Snapshot, topic: string, partition = 0) =>
  s.partitions.find((p) => p.topic === topic && p.partition === partition);

export const partitionsOf = (s: Snapshot, topic: string) => s.partitions.filter((p) => p.topic === topic);

export const nodeOf = (s: Snapshot, id: number) => s.nodes.find((n) => n.id === id);

export const producerOf = (s: Snapshot, id: string) => s.clients.producers.find((p) => p.id === id);

export const acked = (s: Snapshot, producerId: string): number =>
  producerOf(s, producerId)?.acknowledged ?? 0;

/** Every partition of the cluster (or of `topic`) has a leader. */
export const allLed = (s: Snapshot, topic?: string): boolean => {
  const parts = topic ? partitionsOf(s, topic) : s.partitions;
  return parts.length > 0 && parts.every((p) => p.leader >= 0);
};

/** The node runs and the active controller has unfenced it. */
export const brokerUp = (s: Snapshot, id: number): boolean => {
  const n = nodeOf(s, id);
  return n !== undefined && n.state === 'running' && !n.fenced;
};

/**
 * The learner ran `tool` (with or without `.sh`, or a bin/ path) with every word of `words` since
 * the step began, in any order, and the tool succeeded: "run kafka-topics.sh --describe
 * --under-replicated-partitions" is `ranCli(view, 'kafka-topics.sh', ['--describe',
 * '--under-replicated-partitions'])`.
 */
export function ranCli(view: LessonView, tool: string, words: readonly string[] = []): boolean {
  const name = (word: string) => word.slice(word.lastIndexOf('/') + 1).replace(/\.sh$/, '');
  return (view.cliLines ?? []).some((run) => {
    if (!run.ok) return false;
    const typed = run.line.trim().split(/\s+/);
    return typed[0] !== undefined && name(typed[0]) === name(tool) && words.every((w) => typed.includes(w));
  });
}

/** Events since the step began that match. */
export function eventsSince(
  view: LessonView,
  type: string,
  match: (e: SimEvent) => boolean = () => true,
): SimEvent[] {
  const out: SimEvent[] = [];
  const events = view.events;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (!e || e.timeMs < view.start.timeMs) break;
    if (e.type === type && match(e)) out.push(e);
  }
  return out.reverse();
}

/** Virtual milliseconds since the step began. */
export const elapsed = (view: LessonView): number => view.snapshot.timeMs - view.start.timeMs;

/** Every running broker has applied the metadata log up to the active controller's high watermark. */
export const metadataCaughtUp = (s: Snapshot): boolean =>
  s.nodes
    .filter((n) => n.roles.includes('broker') && n.state === 'running')
    .every((n) => n.metadataOffset >= s.quorum.highWatermark - 1);

/** No two voters lead in the same epoch: the quorum's promise against split brain. */
export const oneLeaderPerEpoch = (s: Snapshot): boolean => {
  const epochs = s.quorum.voters.filter((v) => v.state === 'leader').map((v) => v.epoch);
  return new Set(epochs).size === epochs.length;
};

interface ClusterSpec {
  seed?: number;
  controllers: { id: number; rack?: string }[];
  brokers: { id: number; rack?: string }[];
  config?: Scenario['config'];
  topics: NonNullable<Scenario['topics']>;
}

/** A lesson's cluster: controllers and brokers as separate nodes, Kafka's defaults elsewhere. */
export function lessonCluster(spec: ClusterSpec): Scenario {
  const node = (roles: ('controller' | 'broker')[]) => (n: { id: number; rack?: string }) => ({
    id: n.id,
    roles,
    ...(n.rack ? { rack: n.rack } : {}),
  });
  return {
    version: 1,
    seed: spec.seed ?? 7,
    nodes: [...spec.controllers.map(node(['controller'])), ...spec.brokers.map(node(['broker']))],
    config: spec.config ?? {},
    network: { latencyMs: 2, jitterMs: 1 },
    topics: spec.topics,
  };
}
