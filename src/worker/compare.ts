// Fork and compare: from one moment, run two branches with one thing changed and report what
// differs — acknowledged records lost, time unavailable, and the errors clients saw.
import type { Simulation } from '../sim/simulation';
import type { Command, Snapshot } from '../sim/types';

/** A command at a time relative to the fork (0 = at once). */
export interface TimedCommand {
  afterMs: number;
  command: Command;
}

export interface BranchOutcome {
  /** Acknowledged records no longer in their partition at their offset, at the end. */
  lostAcknowledged: number;
  /** Partition-milliseconds without a leader (offline), summed over partitions. */
  offlinePartitionMs: number;
  /** Errors seen by producers after the fork (every attempt), by Kafka error name. */
  errors: Record<string, number>;
  acknowledged: number;
  failed: number;
  /** Commands the engine refused, with the reason. */
  refused: string[];
  stateHash: string;
}

export interface Difference {
  what: string;
  a: number;
  b: number;
}

export interface Comparison {
  durationMs: number;
  a: BranchOutcome;
  b: BranchOutcome;
  /** What differs between the two, one line each (empty when they agree). */
  differences: Difference[];
}

/** Virtual milliseconds between two looks at partition availability. */
const SAMPLE_MS = 100;

/**
 * Runs two independent copies of `base` (which is not changed) for `durationMs`, one with each
 * variant's commands, and returns what differs.
 */
export function compareBranches(
  base: Simulation,
  variantA: (Command | TimedCommand)[],
  variantB: (Command | TimedCommand)[],
  durationMs: number,
): Comparison {
  const a = runBranch(base, variantA, durationMs);
  const b = runBranch(base, variantB, durationMs);
  const differences: Difference[] = [];
  const diff = (what: string, x: number, y: number) => {
    if (x !== y) differences.push({ what, a: x, b: y });
  };
  diff('acknowledged records lost', a.lostAcknowledged, b.lostAcknowledged);
  diff('offline partition-seconds', a.offlinePartitionMs / 1000, b.offlinePartitionMs / 1000);
  for (const name of [...new Set([...Object.keys(a.errors), ...Object.keys(b.errors)])].sort())
    diff(`${name} errors`, a.errors[name] ?? 0, b.errors[name] ?? 0);
  diff('records acknowledged', a.acknowledged, b.acknowledged);
  diff('records failed', a.failed, b.failed);
  return { durationMs, a, b, differences };
}

function runBranch(base: Simulation, variant: (Command | TimedCommand)[], durationMs: number): BranchOutcome {
  const sim = base.clone();
  const startMs = sim.nowMs;
  const ledgerBefore = sim.ledger().length;
  const lostBefore = new Set(sim.lostAcknowledged().map((e) => e.recordId));
  const pending = variant
    .map((c, index) => ('command' in c ? { ...c, index } : { afterMs: 0, command: c, index }))
    .sort((x, y) => x.afterMs - y.afterMs || x.index - y.index);
  const refused: string[] = [];
  let offlinePartitionMs = 0;
  let next = 0;
  const endMs = startMs + durationMs;
  while (sim.nowMs < endMs || next < pending.length) {
    while (next < pending.length && startMs + pending[next].afterMs <= sim.nowMs) {
      const { command } = pending[next++];
      const result = sim.apply(command);
      if (!result.ok) refused.push(`${command.type}: ${result.error}`);
    }
    if (sim.nowMs >= endMs) break;
    const stepTo = Math.min(
      endMs,
      sim.nowMs + SAMPLE_MS,
      next < pending.length ? startMs + pending[next].afterMs : Infinity,
    );
    const dt = stepTo - sim.nowMs;
    sim.advance(dt);
    offlinePartitionMs += offlineCount(sim.snapshot()) * dt;
  }
  const errors: Record<string, number> = {};
  let acknowledged = 0;
  let failed = 0;
  for (const entry of sim.ledger())
    for (const attempt of entry.attempts)
      if (attempt.error && attempt.atMs >= startMs) errors[attempt.error] = (errors[attempt.error] ?? 0) + 1;
  for (const entry of sim.ledger().slice(ledgerBefore)) {
    if (entry.status === 'acked') acknowledged++;
    if (entry.status === 'failed') {
      failed++;
      if (entry.error && !entry.attempts.some((x) => x.error === entry.error))
        errors[entry.error] = (errors[entry.error] ?? 0) + 1;
    }
  }
  const lostAcknowledged = sim.lostAcknowledged().filter((e) => !lostBefore.has(e.recordId)).length;
  return {
    lostAcknowledged,
    offlinePartitionMs,
    errors,
    acknowledged,
    failed,
    refused,
    stateHash: sim.stateHash(),
  };
}

function offlineCount(s: Snapshot): number {
  let n = 0;
  for (const p of s.partitions) if (p.leader < 0) n++;
  return n;
}

/** The experiments the compare panel offers: one thing changed, the rest equal. */
export interface Experiment {
  id: string;
  title: string;
  labelA: string;
  labelB: string;
  /** Commands of each side, built for a topic/partition of the cluster as it is now. */
  build(s: Snapshot, topic: string): { a: TimedCommand[]; b: TimedCommand[]; durationMs: number };
}

/** Partition 0 of `topic`, which every experiment writes to and breaks. */
const partitionZero = (s: Snapshot, topic: string) =>
  s.partitions.find((x) => x.topic === topic && x.partition === 0);

/** `count` records to partition 0 of `topic`, `afterMs` after the previous step. */
function write(
  afterMs: number,
  topic: string,
  value: string,
  acks: 0 | 1 | 'all',
  count: number,
): TimedCommand {
  return {
    afterMs,
    command: { type: 'produce', topic, partition: 0, key: null, value, acks, count, producerId: 'compare' },
  };
}

/** A workload and a fault: writes, the leader crashes, more writes, the leader returns. */
function leaderCrashStory(s: Snapshot, topic: string, acks: 0 | 1 | 'all'): TimedCommand[] {
  const p = partitionZero(s, topic);
  const leader = p && p.leader >= 0 ? p.leader : (p?.replicas[0] ?? 0);
  return [
    write(0, topic, 'before', acks, 10),
    { afterMs: 5, command: { type: 'crashNode', nodeId: leader } },
    write(100, topic, 'during', acks, 10),
    write(15_000, topic, 'after', acks, 10),
    { afterMs: 30_000, command: { type: 'restartNode', nodeId: leader } },
  ];
}

const setTopic = (topic: string, configs: Record<string, number | boolean>): TimedCommand => ({
  afterMs: 0,
  command: { type: 'alterConfig', resourceType: 'topic', resourceName: topic, configs },
});

export const EXPERIMENTS: readonly Experiment[] = [
  {
    id: 'acks',
    title: 'acks=1 vs acks=all, and the leader crashes',
    labelA: 'acks=1',
    labelB: 'acks=all',
    build: (s, topic) => ({
      a: leaderCrashStory(s, topic, 1),
      b: leaderCrashStory(s, topic, 'all'),
      durationMs: 60_000,
    }),
  },
  {
    id: 'unclean',
    title: 'unclean.leader.election.enable on vs off, when the in-sync replicas die',
    labelA: 'unclean on',
    labelB: 'unclean off',
    build: (s, topic) => {
      const story = uncleanStory(s, topic);
      return {
        a: [setTopic(topic, { 'unclean.leader.election.enable': true }), ...story],
        b: [setTopic(topic, { 'unclean.leader.election.enable': false }), ...story],
        durationMs: 90_000,
      };
    },
  },
  {
    id: 'min-isr',
    title: 'min.insync.replicas 2 vs 3, with one broker down',
    labelA: 'min.insync.replicas=2',
    labelB: 'min.insync.replicas=3',
    build: (s, topic) => {
      const p = partitionZero(s, topic);
      const follower = p?.replicas.find((r) => r !== p.leader) ?? p?.replicas[0] ?? 0;
      const story: TimedCommand[] = [
        { afterMs: 1_000, command: { type: 'crashNode', nodeId: follower } },
        write(15_000, topic, 'w', 'all', 10),
      ];
      return {
        a: [setTopic(topic, { 'min.insync.replicas': 2 }), ...story],
        b: [setTopic(topic, { 'min.insync.replicas': 3 }), ...story],
        durationMs: 60_000,
      };
    },
  },
];

/** A follower falls behind, a write lands on the others, then the in-sync replicas die and it returns. */
function uncleanStory(s: Snapshot, topic: string): TimedCommand[] {
  const p = partitionZero(s, topic);
  if (!p) return [];
  const [stale, ...insync] = [...p.replicas].reverse();
  return [
    { afterMs: 500, command: { type: 'crashNode', nodeId: stale } },
    write(15_000, topic, 'acked', 1, 5),
    ...insync.map((nodeId, i) => ({
      afterMs: 20_000 + i * 10,
      command: { type: 'crashNode' as const, nodeId },
    })),
    { afterMs: 21_000, command: { type: 'restartNode', nodeId: stale } },
  ];
}
