// Fork and compare: from one moment, run two branches with one thing changed and report what
// differs (acknowledged records lost, time without a working leader, what each producer saw),
// each row explained in plain words. The experiments use the engine's own mechanics only.
import type { Simulation } from '../sim/types';
import type { Acks, Command, NodeId, PartitionView, Snapshot, StableOffsets } from '../sim/types';

/** A command at a time relative to the fork (0 = at once). */
export interface TimedCommand {
  afterMs: number;
  command: Command;
}

/** What one producer did and saw in one branch, after the fork. */
export interface ProducerOutcome {
  producerId: string;
  /** The acks of its records sent after the fork (or before, if it sent none since). */
  acks: Acks | null;
  /** Records sent after the fork. */
  sent: number;
  acknowledged: number;
  failed: number;
  /** Sent after the fork and neither acknowledged nor failed at the end. */
  pending: number;
  /** Its acknowledged records (from any time) lost during the branch. */
  lost: number;
  /** Failed attempts after the fork, by Kafka error name. */
  errors: Record<string, number>;
  /** The brokers those attempts went to, by error name. */
  errorBrokers: Record<string, NodeId[]>;
  /** Virtual ms after the fork of the last acknowledgement of a record sent after the fork. */
  lastAckAfterMs: number | null;
}

/** What one consumer group read during the branch (for the groups an experiment starts). */
export interface GroupReadOutcome {
  groupId: string;
  /** The isolation.level of its member at the end ('' when it has none). */
  isolationLevel: string;
  /** Records its members returned during the branch, of any producer, on any partition. */
  returned: number;
  /** Of those, the ones of the focus partition. */
  returnedFocus: number;
  /** Values of the experiment producer's records it returned, in order. */
  experimentValues: string[];
  /** Its member's next offset on the focus partition at the end (null without one). */
  focusPosition: number | null;
}

/** The experiment producer's records in the focus partition's log (leader, below the HW) at the end. */
export interface ExperimentLogOutcome {
  /** Distinct records (ledger entries) of the experiment's producer found in the log. */
  records: number;
  /** Copies of them: more than `records` when a retry wrote a record again. */
  copies: number;
  /** Their values in log order (for the order they are in). */
  values: string[];
  /** Some record comes before one sent earlier (retries overtook each other). */
  outOfOrder: boolean;
}

export interface BranchOutcome {
  /** Acknowledged records no longer in their partition at their offset at the end (lost during the branch). */
  lostAcknowledged: number;
  /** Partition-milliseconds without a working leader (none, or a crashed one not fenced yet), summed over all partitions. */
  offlinePartitionMs: number;
  /** The same for the partition the experiment is about (0 without one). */
  focusUnavailableMs: number;
  /** Errors seen by producers after the fork (every attempt), by Kafka error name. */
  errors: Record<string, number>;
  acknowledged: number;
  failed: number;
  /** Each producer that sent or retried after the fork, by id. */
  producers: ProducerOutcome[];
  /** Leaders the partition of the experiment got during the branch, with how they were elected. */
  elections: { afterMs: number; leader: NodeId; election: string }[];
  /** Records removed from the experiment partition's logs by truncation, per broker. */
  truncated: { nodeId: NodeId; removed: number }[];
  /** Its leader at the end (-1: none). */
  leaderAtEnd: NodeId;
  /** Commands the engine refused, with the reason. */
  refused: string[];
  /** The focus partition's high watermark, last stable offset and open transactions at the end. */
  focusStable: StableOffsets | null;
  /** The experiment's records in the focus partition's log at the end. */
  experimentLog: ExperimentLogOutcome | null;
  /** The groups named by `observe.groups`, as they read during the branch. */
  reads: GroupReadOutcome[];
  /**
   * The branch's state hash at its end (determinism checks), or null when not asked for: the page's
   * comparisons leave it out, as hashing a large cluster takes a long while (CompareJob).
   */
  stateHash: string | null;
}

export interface Difference {
  what: string;
  a: number;
  b: number;
}

/** One line of the comparison, with what it counts and why the two sides differ. */
export interface ExplainedRow {
  what: string;
  /** What the number counts. */
  about: string;
  a: string;
  b: string;
  /** Why the two columns differ (or why they agree). */
  why: string;
}

/** One producer's line in "who saw which error". */
export interface ProducerRow {
  producerId: string;
  /** Whose producer it is: the experiment's, or one already running in the cluster. */
  role: string;
  a: ProducerOutcome | null;
  b: ProducerOutcome | null;
}

export interface Explained {
  /** The partition the experiment writes to and breaks, as `topic-0`. */
  partition: string;
  /** What the experiment shows, in one sentence. */
  question: string;
  /** What happens, in order: the same on both sides but for the one thing. */
  story: string[];
  rows: ExplainedRow[];
  producers: ProducerRow[];
  /** Every error a producer saw on either side, with what it means here. */
  errors: { name: string; meaning: string }[];
  /** Virtual ms the cluster ran before the fork until the partition was healthy (0: it was). */
  settledAfterMs: number;
}

export interface Comparison {
  durationMs: number;
  a: BranchOutcome;
  b: BranchOutcome;
  /** What differs between the two, one line each (empty when they agree). */
  differences: Difference[];
  /** Plain-words rows, with runExperiment. */
  explained?: Explained;
}

/** Virtual milliseconds between two looks at partition availability. */
const SAMPLE_MS = 100;

/** The partition a comparison follows closely. */
export interface Focus {
  topic: string;
  partition: number;
}

/** What else a branch reports: the consumer groups whose reads matter to the experiment. */
export interface Observe {
  groups?: string[];
}

/**
 * Runs two independent copies of `base` (which is not changed) for `durationMs`, one with each
 * variant's commands, and returns what differs.
 */
export function compareBranches(
  base: Simulation,
  variantA: (Command | TimedCommand)[],
  variantB: (Command | TimedCommand)[],
  durationMs: number,
  focus?: Focus,
  observe: Observe = {},
): Comparison {
  return drain(compareBranchSteps(base, variantA, variantB, durationMs, focus, observe));
}

/** Runs a job's steps to the end, at once (tests and the command line; the worker slices them: CompareJob). */
function drain<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** compareBranches as steps: each step advances one branch by one sample (SAMPLE_MS) at most. */
function* compareBranchSteps(
  base: Simulation,
  variantA: (Command | TimedCommand)[],
  variantB: (Command | TimedCommand)[],
  durationMs: number,
  focus: Focus | undefined,
  observe: Observe = {},
  withHash = true,
): Generator<void, Comparison> {
  const a = yield* runBranch(base, variantA, durationMs, focus, observe, withHash);
  const b = yield* runBranch(base, variantB, durationMs, focus, observe, withHash);
  const differences: Difference[] = [];
  const diff = (what: string, x: number, y: number) => {
    if (x !== y) differences.push({ what, a: x, b: y });
  };
  diff('acknowledged records lost', a.lostAcknowledged, b.lostAcknowledged);
  diff(
    'partition-seconds without a working leader',
    a.offlinePartitionMs / 1000,
    b.offlinePartitionMs / 1000,
  );
  for (const name of [...new Set([...Object.keys(a.errors), ...Object.keys(b.errors)])].sort())
    diff(`${name} errors`, a.errors[name] ?? 0, b.errors[name] ?? 0);
  diff('records acknowledged', a.acknowledged, b.acknowledged);
  diff('records failed', a.failed, b.failed);
  if (a.experimentLog && b.experimentLog)
    diff("copies of the experiment's records in the log", a.experimentLog.copies, b.experimentLog.copies);
  for (const group of observe.groups ?? []) {
    const ra = a.reads.find((r) => r.groupId === group);
    const rb = b.reads.find((r) => r.groupId === group);
    diff(`records ${group} returned`, ra?.returned ?? 0, rb?.returned ?? 0);
  }
  return { durationMs, a, b, differences };
}

function* runBranch(
  base: Simulation,
  variant: (Command | TimedCommand)[],
  durationMs: number,
  focus: Focus | undefined,
  observe: Observe,
  withHash: boolean,
): Generator<void, BranchOutcome> {
  const sim = base.clone();
  // A copy of a large cluster takes a while: a step of its own, as do the reads before and after.
  yield;
  const startMs = sim.nowMs;
  const readBefore = new Map((observe.groups ?? []).map((g) => [g, sim.consumedRecords(g).length]));
  // Cursors by record id and event seq: retention, the record ceiling and the memory bounds drop old entries.
  const ledgerBefore = (sim.ledger().at(-1)?.recordId ?? -1) + 1;
  const eventsBefore = sim.eventCount();
  const lostBefore = new Set(sim.lostAcknowledged().map((e) => e.recordId));
  const downAtStart = downNodes(sim.snapshot());
  yield;
  const pending = variant
    .map((c, index) => ('command' in c ? { ...c, index } : { afterMs: 0, command: c, index }))
    .sort((x, y) => x.afterMs - y.afterMs || x.index - y.index);
  const refused: string[] = [];
  let offlinePartitionMs = 0;
  let focusUnavailableMs = 0;
  let next = 0;
  const endMs = startMs + durationMs;
  while (sim.nowMs < endMs || next < pending.length) {
    let due = pending[next];
    while (due && startMs + due.afterMs <= sim.nowMs) {
      const result = sim.apply(due.command);
      if (!result.ok) refused.push(`${due.command.type}: ${result.error}`);
      due = pending[++next];
    }
    if (sim.nowMs >= endMs) break;
    const stepTo = Math.min(endMs, sim.nowMs + SAMPLE_MS, due ? startMs + due.afterMs : Infinity);
    const dt = stepTo - sim.nowMs;
    sim.advance(dt);
    const s = sim.snapshot();
    const down = downNodes(s);
    for (const p of s.partitions) {
      if (!leaderless(p, down)) continue;
      offlinePartitionMs += dt;
      if (focus && p.topic === focus.topic && p.partition === focus.partition) focusUnavailableMs += dt;
    }
    yield;
  }

  yield;
  const ledger = sim.ledger();
  const byProducer = new Map<string, ProducerOutcome>();
  const producer = (id: string) => {
    let p = byProducer.get(id);
    if (!p) {
      p = {
        producerId: id,
        acks: null,
        sent: 0,
        acknowledged: 0,
        failed: 0,
        pending: 0,
        lost: 0,
        errors: {},
        errorBrokers: {},
        lastAckAfterMs: null,
      };
      byProducer.set(id, p);
    }
    return p;
  };
  const errors: Record<string, number> = {};
  const countError = (p: ProducerOutcome, name: string, brokerId: NodeId | null) => {
    errors[name] = (errors[name] ?? 0) + 1;
    p.errors[name] = (p.errors[name] ?? 0) + 1;
    const brokers = (p.errorBrokers[name] ??= []);
    if (brokerId !== null && brokerId >= 0 && !brokers.includes(brokerId)) {
      brokers.push(brokerId);
      brokers.sort((x, y) => x - y);
    }
  };
  let acknowledged = 0;
  let failed = 0;
  ledger.forEach((entry) => {
    const after = entry.recordId >= ledgerBefore;
    const retried = entry.attempts.filter((x) => x.error && x.atMs >= startMs);
    if (!after && retried.length === 0) return;
    const p = producer(entry.producerId);
    if (after || p.acks === null) p.acks = entry.acks;
    for (const attempt of retried) countError(p, attempt.error!, attempt.brokerId);
    if (!after) return;
    p.sent++;
    if (entry.status === 'acked') {
      acknowledged++;
      p.acknowledged++;
      const at = (entry.ackedAtMs ?? startMs) - startMs;
      p.lastAckAfterMs = Math.max(p.lastAckAfterMs ?? 0, at);
    } else if (entry.status === 'failed') {
      failed++;
      p.failed++;
      // A record that fails without a failed attempt (delivery.timeout.ms while queued) shows its reason.
      if (entry.error && !entry.attempts.some((x) => x.error === entry.error))
        countError(p, entry.error, null);
    } else p.pending++;
  });
  const lost = sim.lostAcknowledged().filter((e) => !lostBefore.has(e.recordId));
  for (const e of lost) producer(e.producerId).lost++;
  yield;

  const elections: BranchOutcome['elections'] = [];
  const truncated: BranchOutcome['truncated'] = [];
  if (focus) {
    // An election of a broker that is down but not yet fenced (the controller moved leadership to
    // the next ISR member, dead too) brings nothing back: it is not one of the branch's elections.
    const down = new Set(downAtStart);
    for (const e of sim.eventsSince(eventsBefore)) {
      if (e.type === 'NodeCrashed') down.add(e.nodeId!);
      if (e.type === 'NodeRestarted') down.delete(e.nodeId!);
      if (e.topic !== focus.topic || e.partition !== focus.partition) continue;
      if (e.type === 'LeaderElected' && !down.has(e.leader as NodeId))
        elections.push({
          afterMs: e.timeMs - startMs,
          leader: e.leader as NodeId,
          election: String(e.election),
        });
      if (e.type === 'LogTruncated') {
        const row = truncated.find((t) => t.nodeId === e.nodeId);
        if (row) row.removed += e.removed as number;
        else truncated.push({ nodeId: e.nodeId!, removed: e.removed as number });
      }
    }
  }
  const end = sim.snapshot();
  const focusPartition = focus ? findPartition(end, focus.topic, focus.partition) : undefined;
  const experimentIds = new Set(
    ledger.filter((e) => e.producerId === EXPERIMENT_PRODUCER).map((e) => e.recordId),
  );
  const sentOrder = new Map([...experimentIds].map((id, i) => [id, i]));
  let experimentLog: ExperimentLogOutcome | null = null;
  if (focus) {
    const mine = sim
      .committedRecords(focus.topic, focus.partition)
      .filter((r) => experimentIds.has(r.recordId));
    // Out of order: a record's first copy comes after the first copy of one sent later.
    const firsts = firstCopies(mine.map((r) => sentOrder.get(r.recordId)!));
    experimentLog = {
      records: new Set(mine.map((r) => r.recordId)).size,
      copies: mine.length,
      values: mine.map((r) => r.value),
      outOfOrder: firsts.some((o, i) => i > 0 && o < firsts[i - 1]!),
    };
  }
  const byRecord = new Map(ledger.map((e) => [e.recordId, e.producerId]));
  const reads: GroupReadOutcome[] = (observe.groups ?? []).map((groupId) => {
    const got = sim.consumedRecords(groupId).slice(readBefore.get(groupId) ?? 0);
    const member = end.clients.consumers.find((c) => c.groupId === groupId && c.state !== 'crashed');
    const position = focus
      ? member?.positions.find((p) => p.topic === focus.topic && p.partition === focus.partition)
      : undefined;
    return {
      groupId,
      isolationLevel: String(member?.config['isolation.level'] ?? ''),
      returned: got.length,
      returnedFocus: focus
        ? got.filter((r) => r.topic === focus.topic && r.partition === focus.partition).length
        : 0,
      experimentValues: got
        .filter((r) => byRecord.get(r.recordId) === EXPERIMENT_PRODUCER)
        .map((r) => r.value),
      focusPosition: position ? position.offset : null,
    };
  });
  return {
    lostAcknowledged: lost.length,
    offlinePartitionMs,
    focusUnavailableMs,
    errors,
    acknowledged,
    failed,
    producers: [...byProducer.values()].sort((x, y) => x.producerId.localeCompare(y.producerId)),
    elections,
    truncated,
    leaderAtEnd: focusPartition ? focusPartition.leader : -1,
    refused,
    focusStable: focus ? sim.stableOffsets(focus.topic, focus.partition) : null,
    experimentLog,
    reads,
    stateHash: withHash ? sim.stateHash() : null,
  };
}

/** The order (by send) of each record's first copy in the log, in log order. */
function firstCopies(order: number[]): number[] {
  const seen = new Set<number>();
  return order.filter((o) => !seen.has(o) && seen.add(o));
}

function downNodes(s: Snapshot): Set<NodeId> {
  return new Set(s.nodes.filter((n) => n.state !== 'running').map((n) => n.id));
}

/** No leader, or a leader whose process is down (the controller has not fenced it yet). */
function leaderless(p: PartitionView, down: Set<NodeId>): boolean {
  return p.leader < 0 || down.has(p.leader);
}

const findPartition = (s: Snapshot, topic: string, partition: number) =>
  s.partitions.find((x) => x.topic === topic && x.partition === partition);

// ---- the experiments ----------------------------------------------------------------------------

/** Who the experiment involves, read from the cluster at the fork. */
export interface Cast {
  topic: string;
  /** `topic-0` */
  tp: string;
  leader: NodeId;
  /** The other replicas of partition 0, in replica order. */
  followers: NodeId[];
  minInsyncReplicas: number;
}

/** One experiment's commands for both sides, and its story. */
export interface ExperimentPlan {
  a: TimedCommand[];
  b: TimedCommand[];
  durationMs: number;
  story: string[];
  /** Brokers the story crashes (their connections break: NETWORK_EXCEPTION). */
  crashed: NodeId[];
  /** How many records the experiment's producer sends. */
  records: number;
  /** Consumer groups the experiment starts, whose reads each branch reports. */
  observe?: Observe;
}

/** The experiments the compare panel offers: one thing changed, the rest equal. */
export interface Experiment {
  id: string;
  title: string;
  labelA: string;
  labelB: string;
  /** What it shows, in one sentence. */
  question: string;
  /** The least replication factor that can show the difference, and why, for a topic below it. */
  minReplicationFactor: number;
  needs: string;
  /** Why the cluster cannot carry the experiment (beyond the replication factor), or null. */
  unsuitable?(s: Snapshot): string | null;
  /** Commands of each side, built for partition 0 of `topic` in a healthy cluster. */
  build(cast: Cast, s: Snapshot): ExperimentPlan;
  /** The rows, explained from what happened. */
  explain(c: Comparison, cast: Cast, plan: ExperimentPlan): ExplainedRow[];
}

/** The producer an experiment writes with (one per branch, so one name). */
export const EXPERIMENT_PRODUCER = 'compare';

function write(afterMs: number, topic: string, value: string, acks: Acks, count: number): TimedCommand {
  return {
    afterMs,
    command: {
      type: 'produce',
      topic,
      partition: 0,
      key: null,
      value,
      acks,
      count,
      producerId: EXPERIMENT_PRODUCER,
    },
  };
}

const setTopic = (topic: string, configs: Record<string, number | boolean>): TimedCommand => ({
  afterMs: 0,
  command: { type: 'alterConfig', resourceType: 'topic', resourceName: topic, configs },
});

const brokers = (ids: NodeId[]) =>
  ids.length === 1 ? `broker ${ids[0]}` : `brokers ${ids.slice(0, -1).join(', ')} and ${ids.at(-1)}`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const experimentProducer = (o: BranchOutcome) =>
  o.producers.find((p) => p.producerId === EXPERIMENT_PRODUCER);

/** The leaders partition 0 got, in words: "broker 5 (clean election at 9.6 s)". */
function electedWords(o: BranchOutcome): string {
  if (o.elections.length === 0) return 'no new leader';
  return o.elections
    .map((e) => `broker ${e.leader} (${e.election} election at ${seconds(e.afterMs)})`)
    .join(', then ');
}

function truncatedWords(o: BranchOutcome): string {
  return o.truncated.map((t) => `broker ${t.nodeId} removed ${plural(t.removed, 'record')}`).join(', ');
}

/** The rows every experiment shows; `why` gives each its experiment's reason. */
function commonRows(
  c: Comparison,
  cast: Cast,
  plan: ExperimentPlan,
  why: { lost: string; unavailable: string; acked: string; failed: string },
): ExplainedRow[] {
  const pa = experimentProducer(c.a);
  const pb = experimentProducer(c.b);
  const lostBy = (o: BranchOutcome) => String(o.lostAcknowledged);
  const rows: ExplainedRow[] = [
    {
      what: 'Acknowledged records lost',
      about:
        'Records a producer was told were written (acknowledged) that are no longer in their partition at the end: the data-loss detector.',
      a: lostBy(c.a),
      b: lostBy(c.b),
      why: why.lost,
    },
    {
      what: `Seconds ${cast.tp} had no working leader`,
      about: `Time ${cast.tp} had no leader, or a leader that had crashed and that the controller had not fenced yet: nobody could write to it or read from it.`,
      a: seconds(c.a.focusUnavailableMs),
      b: seconds(c.b.focusUnavailableMs),
      why: why.unavailable,
    },
    {
      what: `Experiment's records acknowledged (of ${plan.records})`,
      about: `Records of the experiment's producer, ${EXPERIMENT_PRODUCER}, that a leader acknowledged, and when the last acknowledgement came.`,
      a: ackedWords(pa),
      b: ackedWords(pb),
      why: why.acked,
    },
    {
      what: "Experiment's records failed",
      about:
        'Records the producer gave up on: the application is told the write failed (after delivery.timeout.ms of retries, 120 s by default, or an error that is not retriable).',
      a: failedWords(pa),
      b: failedWords(pb),
      why: why.failed,
    },
  ];
  return rows;
}

function ackedWords(p: ProducerOutcome | undefined): string {
  if (!p || p.acknowledged === 0) return '0';
  return `${p.acknowledged}, the last after ${seconds(p.lastAckAfterMs ?? 0)}`;
}

function failedWords(p: ProducerOutcome | undefined): string {
  if (!p) return '0';
  return p.pending > 0 ? `${p.failed} (${p.pending} still retried at the end)` : String(p.failed);
}

const acksStory: Experiment = {
  id: 'acks',
  title: 'acks=1 vs acks=all, and the leader crashes before its followers fetched',
  labelA: 'acks=1',
  labelB: 'acks=all',
  question:
    'Is a record acknowledged by the leader alone (acks=1) safe when the leader dies before its followers copied it?',
  minReplicationFactor: 2,
  needs:
    'with a single copy there is no follower to elect or to wait for. Pick a topic with replication factor 2 or more.',
  build(cast) {
    const { topic, tp, leader, followers } = cast;
    // Both ways: a fetch already parked at the leader would otherwise still bring the records.
    const cut = followers.map((f) => ({
      afterMs: 0,
      command: { type: 'cutLink', from: f, to: leader } as Command,
    }));
    const story = (acks: Acks): TimedCommand[] => [
      ...cut,
      write(100, topic, `acks-${acks}`, acks, 10),
      { afterMs: 1_000, command: { type: 'crashNode', nodeId: leader } },
      // The followers' fetches flow again (the base's own cuts are put back by restoreCuts).
      { afterMs: 1_100, command: { type: 'healNetwork' } },
      { afterMs: 30_000, command: { type: 'restartNode', nodeId: leader } },
    ];
    return {
      a: story(1),
      b: story('all'),
      durationMs: 60_000,
      crashed: [leader],
      records: 10,
      story: [
        `0 s: ${brokers(followers)}, the followers of ${tp}, stop getting records from the leader, broker ${leader}: the links between them are cut, as in a network hiccup or a long GC pause. They stay in the ISR, since replica.lag.time.max.ms (30 s) has not passed.`,
        `0.1 s: the producer ${EXPERIMENT_PRODUCER} sends 10 records to ${tp}, with acks=1 on one side and acks=all on the other.`,
        `1 s: broker ${leader} crashes; at 1.1 s the links are healed.`,
        `About 9 s after its last heartbeat (broker.session.timeout.ms), the controller fences broker ${leader} and elects a follower from the ISR.`,
        `30 s: broker ${leader} restarts and follows the new leader. Each side runs 60 simulated seconds.`,
      ],
    };
  },
  explain(c, cast, plan) {
    const { leader, tp } = cast;
    const pa = experimentProducer(c.a);
    const pb = experimentProducer(c.b);
    const lostA = pa?.lost ?? 0;
    const lostB = pb?.lost ?? 0;
    const lost =
      lostA > 0 && lostB === 0
        ? `acks=1: broker ${leader} acknowledged ${plural(lostA, 'record')} as soon as it had appended them, while it alone held them. The controller then elected ${electedWords(c.a)}, which never had them; when broker ${leader} came back it truncated its log to the new leader's (${truncatedWords(c.a) || 'LogTruncated'}), so they are gone. acks=all: the leader acknowledges a record only once every in-sync replica has it, so nothing was acknowledged before the crash; the producer retried the records on the new leader and none was lost${c.b.truncated.length ? ` (${truncatedWords(c.b)} on its return too, but it had acknowledged none of them)` : ''}.`
        : `acks=1 lost ${lostA} of the experiment's records, acks=all ${lostB}. acks=1 loses records only if the leader dies before a follower fetched them and that follower is elected; acks=all never loses an acknowledged record in a clean election.`;
    const unavailable =
      Math.abs(c.a.focusUnavailableMs - c.b.focusUnavailableMs) < 1_000
        ? `About the same: ${tp} has no working leader from the crash of broker ${leader} until the controller fences it and elects a follower, whatever acks the producer asks for. acks decides when a write is acknowledged, not when the partition is available.`
        : `acks=1 ${seconds(c.a.focusUnavailableMs)}, acks=all ${seconds(c.b.focusUnavailableMs)}: the elections differed (acks=1: ${electedWords(c.a)}; acks=all: ${electedWords(c.b)}).`;
    const acked = `acks=1: broker ${leader} acknowledged at once, before any follower had the records. acks=all: the records waited at broker ${leader} for the followers, which did not fetch; when it crashed the producer got NETWORK_EXCEPTION, refreshed its metadata and retried on ${electedWords(c.b)}, which acknowledged them once its ISR had them. Both sides count the records as acknowledged: the difference is which acknowledgement held.`;
    const failed =
      (pa?.failed ?? 0) === 0 && (pb?.failed ?? 0) === 0
        ? `None on either side: the producer retries within delivery.timeout.ms (120 s), and a new leader was there long before.`
        : `acks=1 ${pa?.failed ?? 0}, acks=all ${pb?.failed ?? 0}: see the errors below.`;
    return commonRows(c, cast, plan, { lost, unavailable, acked, failed });
  },
};

const uncleanStory: Experiment = {
  id: 'unclean',
  title: 'unclean.leader.election.enable on vs off, when the in-sync replicas die',
  labelA: 'unclean on',
  labelB: 'unclean off',
  question:
    'When every in-sync replica is gone, is it better to elect a stale replica (back at once, records lost) or to wait (nothing lost, offline)?',
  minReplicationFactor: 2,
  needs:
    'with a single copy there is no follower to elect or to wait for. Pick a topic with replication factor 2 or more.',
  build(cast) {
    const { topic, tp, leader, followers, minInsyncReplicas } = cast;
    const replicas = [leader, ...followers];
    const stale = followers.at(-1)!;
    const insync = replicas.filter((r) => r !== stale);
    // acks=all when the ISR left after the stale replica's removal still meets min.insync.replicas.
    const acks: Acks = insync.length >= minInsyncReplicas ? 'all' : 1;
    const story: TimedCommand[] = [
      { afterMs: 500, command: { type: 'crashNode', nodeId: stale } },
      write(15_000, topic, 'written-while-stale-was-down', acks, 5),
      ...insync.map((nodeId, i) => ({
        afterMs: 20_000 + i * 10,
        command: { type: 'crashNode' as const, nodeId },
      })),
      { afterMs: 21_000, command: { type: 'restartNode', nodeId: stale } },
    ];
    return {
      a: [setTopic(topic, { 'unclean.leader.election.enable': true }), ...story],
      b: [setTopic(topic, { 'unclean.leader.election.enable': false }), ...story],
      durationMs: 90_000,
      crashed: replicas,
      records: 5,
      story: [
        `0 s: unclean.leader.election.enable is set to true for ${topic} on one side, false on the other.`,
        `0.5 s: broker ${stale}, a follower of ${tp}, crashes; about 9 s later the controller fences it and removes it from the ISR.`,
        `15 s: the producer ${EXPERIMENT_PRODUCER} writes 5 records to ${tp} with acks=${acks}; ${brokers(insync)} (the ISR) have them, broker ${stale} does not.`,
        `20 s: ${brokers(insync)} crash: no in-sync replica is left.`,
        `21 s: broker ${stale} restarts. It is not in the ISR: only an unclean election can make it the leader. Each side runs 90 simulated seconds.`,
      ],
    };
  },
  explain(c, cast, plan) {
    const { tp, followers } = cast;
    const stale = followers.at(-1)!;
    const pa = experimentProducer(c.a);
    const lostA = pa?.lost ?? 0;
    const unclean = c.a.elections.find((e) => e.election === 'unclean');
    const lost =
      unclean && c.b.lostAcknowledged === 0
        ? `unclean on: broker ${stale} became the leader of ${tp} by an unclean election at ${seconds(unclean.afterMs)}, without the records written while it was down: ${plural(lostA, 'record')} of the experiment${c.a.lostAcknowledged > lostA ? ` and ${c.a.lostAcknowledged - lostA} of other producers` : ''} are lost, although they had been acknowledged. unclean off: broker ${stale} may not lead, so nothing acknowledged is lost: the records wait on the in-sync replicas' disks for them to return.`
        : `unclean on ${c.a.lostAcknowledged}, off ${c.b.lostAcknowledged}: an unclean election (${electedWords(c.a)}) loses what the stale replica lacks.`;
    const unavailable = `unclean on: ${tp} was back ${unclean ? `at ${seconds(unclean.afterMs)}, when broker ${stale} had restarted and was elected by an unclean election` : 'only when a leader was elected'}. unclean off: ${c.b.elections.length ? `it waited for ${electedWords(c.b)}` : 'it stayed without a leader until the end of the run'}, because Kafka waits for a replica of the ISR (or of the ELR, KIP-966) to return rather than lose data.`;
    const acked = `The same on both sides: the records were written before anything differed.`;
    const failed = `None: the experiment's records were acknowledged before the in-sync replicas died.`;
    return commonRows(c, cast, plan, { lost, unavailable, acked, failed });
  },
};

const minIsrStory: Experiment = {
  id: 'min-isr',
  title: 'min.insync.replicas 2 vs 3, with two in-sync replicas left',
  labelA: 'min.insync.replicas=2',
  labelB: 'min.insync.replicas=3',
  question: 'With only two in-sync replicas, does an acks=all write go through?',
  minReplicationFactor: 3,
  // KIP-966: the effective min.insync.replicas is capped at the replication factor.
  needs:
    'Kafka caps min.insync.replicas at the replication factor, so 3 would count as 2 and both sides would behave alike. Pick a topic with replication factor 3 or more.',
  build(cast) {
    const { topic, tp, followers } = cast;
    // Leave exactly two replicas in the ISR: crash all followers but one.
    const crashed = followers.slice(1);
    const story: TimedCommand[] = [
      ...crashed.map((nodeId) => ({ afterMs: 1_000, command: { type: 'crashNode' as const, nodeId } })),
      write(15_000, topic, 'w', 'all', 10),
    ];
    const leftWords =
      crashed.length === 0
        ? `0 s: ${tp} has two replicas, both in the ISR.`
        : `1 s: ${brokers(crashed)} ${crashed.length === 1 ? 'crashes' : 'crash'}; about 9 s later the controller fences ${crashed.length === 1 ? 'it' : 'them'} and shrinks the ISR of ${tp} to two replicas.`;
    return {
      a: [setTopic(topic, { 'min.insync.replicas': 2 }), ...story],
      b: [setTopic(topic, { 'min.insync.replicas': 3 }), ...story],
      durationMs: 150_000,
      crashed,
      records: 10,
      story: [
        `0 s: min.insync.replicas is set to 2 for ${topic} on one side, 3 on the other.`,
        leftWords,
        `15 s: the producer ${EXPERIMENT_PRODUCER} writes 10 records to ${tp} with acks=all.`,
        `Each side runs 150 simulated seconds, longer than the producer's delivery.timeout.ms (120 s).`,
      ],
    };
  },
  explain(c, cast, plan) {
    const { tp } = cast;
    const pb = experimentProducer(c.b);
    const lost =
      c.a.lostAcknowledged === 0 && c.b.lostAcknowledged === 0
        ? `None on either side: min.insync.replicas decides whether a write is taken, never which leader is elected, and no unclean election happened.`
        : `min.insync.replicas=2: ${c.a.lostAcknowledged}, =3: ${c.b.lostAcknowledged}.`;
    const unavailable = `The same: ${tp} kept a leader all along. min.insync.replicas refuses writes, not reads: consumers go on reading it.`;
    const acked = `min.insync.replicas=2: the ISR of two is enough, so the leader acknowledged each batch once both replicas had it. min.insync.replicas=3: the ISR is smaller than 3, so the leader refused every attempt with NOT_ENOUGH_REPLICAS before appending.`;
    const failed =
      (pb?.failed ?? 0) > 0
        ? `min.insync.replicas=3: the producer retried each record until delivery.timeout.ms (120 s) ran out, then failed it: the application is told, and nothing was written. Safer, but unavailable for writes while one broker is down.`
        : `min.insync.replicas=3: ${failedWords(pb)}: the producer keeps retrying (NOT_ENOUGH_REPLICAS) until delivery.timeout.ms.`;
    return commonRows(c, cast, plan, { lost, unavailable, acked, failed });
  },
};

/** The consumer group an experiment reads with (one per branch, so one name). */
export const EXPERIMENT_READER = 'compare-reader';

const countValues = (values: string[], prefix: string) => values.filter((v) => v.startsWith(prefix)).length;
const readerOf = (o: BranchOutcome) => o.reads.find((r) => r.groupId === EXPERIMENT_READER);

/** The brokers running now that can hold __transaction_state (KIP-98: its replication factor, 3 by default). */
function transactionStateUnsuitable(s: Snapshot): string | null {
  const brokersUp = s.nodes.filter((n) => n.roles.includes('broker') && n.state === 'running').length;
  const topic = s.topics.find((t) => t.name === '__transaction_state');
  if (topic || brokersUp >= 3) return null;
  return `A transactional producer needs __transaction_state, which Kafka creates only once transaction.state.log.replication.factor (3) brokers are up; ${plural(brokersUp, 'broker is', 'brokers are')} running.`;
}

const isolationStory: Experiment = {
  id: 'isolation',
  title: 'isolation.level read_uncommitted vs read_committed, with an aborted and an open transaction',
  labelA: 'read_uncommitted',
  labelB: 'read_committed',
  question:
    'What does a consumer return of a transaction that aborted, and of one still open, and what does an open transaction cost the readers of other records?',
  minReplicationFactor: 1,
  needs: '',
  unsuitable: transactionStateUnsuitable,
  build(cast) {
    const { topic, tp } = cast;
    const txn = (type: 'beginTransaction' | 'abortTransaction', afterMs: number): TimedCommand => ({
      afterMs,
      command: { type, producerId: EXPERIMENT_PRODUCER },
    });
    // A transactional producer's records: acks=all, as idempotence needs.
    const send = (afterMs: number, value: string) => write(afterMs, topic, value, 'all', 5);
    const side = (isolation: 'read_uncommitted' | 'read_committed'): TimedCommand[] => [
      {
        afterMs: 0,
        command: {
          type: 'startProducer',
          producerId: EXPERIMENT_PRODUCER,
          topic,
          ratePerSec: 0,
          config: { 'transactional.id': EXPERIMENT_PRODUCER },
        },
      },
      {
        afterMs: 0,
        command: {
          type: 'startConsumer',
          consumerId: EXPERIMENT_READER,
          groupId: EXPERIMENT_READER,
          topics: [topic],
          config: { 'isolation.level': isolation, 'auto.offset.reset': 'latest' },
        },
      },
      txn('beginTransaction', 10_000),
      send(10_000, 'aborted'),
      txn('abortTransaction', 12_000),
      txn('beginTransaction', 14_000),
      send(14_000, 'open'),
    ];
    return {
      a: side('read_uncommitted'),
      b: side('read_committed'),
      durationMs: 30_000,
      crashed: [],
      records: 10,
      observe: { groups: [EXPERIMENT_READER] },
      story: [
        `0 s: the producer ${EXPERIMENT_PRODUCER} starts with transactional.id=${EXPERIMENT_PRODUCER} (initTransactions: its transaction coordinator gives it a producer id and epoch). The consumer ${EXPERIMENT_READER} joins its own group on ${topic}, from the latest offset, with isolation.level=read_uncommitted on one side and read_committed on the other.`,
        `10 s: ${EXPERIMENT_PRODUCER} begins a transaction and writes 5 records ("aborted-0" …) to ${tp}; at 12 s it aborts it: the coordinator writes an ABORT marker into ${tp}.`,
        `14 s: it begins another transaction and writes 5 records ("open-0" …), and never commits it: the transaction stays open to the end (its transaction.timeout.ms is 60 s). Each side runs 30 simulated seconds.`,
      ],
    };
  },
  explain(c, cast) {
    const { tp } = cast;
    const ra = readerOf(c.a);
    const rb = readerOf(c.b);
    const got = (r: GroupReadOutcome | undefined, prefix: string) =>
      String(countValues(r?.experimentValues ?? [], prefix));
    const stable = (o: BranchOutcome) =>
      o.focusStable
        ? `LSO ${o.focusStable.lastStableOffset}, HW ${o.focusStable.highWatermark}`
        : 'no leader';
    const lag = (o: BranchOutcome, r: GroupReadOutcome | undefined) =>
      r?.focusPosition != null && o.focusStable
        ? String(Math.max(0, o.focusStable.highWatermark - r.focusPosition))
        : '—';
    const others = (r: GroupReadOutcome | undefined) =>
      String((r?.returnedFocus ?? 0) - (r?.experimentValues.length ?? 0));
    const open = c.b.focusStable?.openTransactions[0];
    return [
      {
        what: 'Aborted records returned (of 5)',
        about: `Records of the aborted transaction that ${EXPERIMENT_READER} returned to its application.`,
        a: got(ra, 'aborted'),
        b: got(rb, 'aborted'),
        why: `read_uncommitted returns every record below the high watermark as soon as it is there, so its application saw records that were then rolled back. read_committed asks the leader for the aborted transactions of each range it fetches (the transaction index) and drops their records; it never returns the ABORT marker either (no consumer does).`,
      },
      {
        what: 'Open transaction\u2019s records returned (of 5)',
        about: `Records of the transaction still open at the end that ${EXPERIMENT_READER} returned.`,
        a: got(ra, 'open'),
        b: got(rb, 'open'),
        why: `read_uncommitted: they are below the HW, so they are returned, although the transaction may yet abort. read_committed reads only below the last stable offset (LSO), the first offset of the oldest open transaction: it waits for the COMMIT (then it returns them) or the ABORT (then never).`,
      },
      {
        what: `Other producers\u2019 records of ${tp} returned`,
        about: `Records of ${tp} from producers outside the experiment that ${EXPERIMENT_READER} returned during the run.`,
        a: others(ra),
        b: others(rb),
        why:
          Number(others(ra)) > Number(others(rb))
            ? `read_committed stops at the LSO for every producer, not only the transactional one: the open transaction holds back the records written after it began, committed or not. A transaction left open (a crashed producer) stalls read_committed readers of its partitions until transaction.timeout.ms aborts it.`
            : `No other producer wrote to ${tp} after the open transaction began, so there was nothing else to hold back; with one, read_committed would stop at the LSO for its records too.`,
      },
      {
        what: `${EXPERIMENT_READER}\u2019s lag on ${tp} at the end`,
        about: `How far its position is behind the high watermark of ${tp} (records it cannot or has not read yet).`,
        a: lag(c.a, ra),
        b: lag(c.b, rb),
        why: `read_uncommitted keeps up with the HW. read_committed is parked at the LSO${open ? ` (offset ${open.firstOffset}, where the open transaction began)` : ''}, and its lag grows with every record written behind it while the transaction stays open.`,
      },
      {
        what: `Last stable offset and high watermark of ${tp}`,
        about: `The leader's LSO (what read_committed may read up to) and HW (what read_uncommitted may read up to) at the end.`,
        a: stable(c.a),
        b: stable(c.b),
        why: `The same on both sides: the isolation level is the consumer's choice and changes nothing in the log. The open transaction pins the LSO below the HW on both.`,
      },
    ];
  },
};

const idempotenceStory: Experiment = {
  id: 'idempotence',
  title: 'enable.idempotence false vs true, when produce responses are lost and the producer retries',
  labelA: 'enable.idempotence=false',
  labelB: 'enable.idempotence=true',
  question:
    'The leader writes a batch but its answer never reaches the producer, which retries: is the record written twice?',
  minReplicationFactor: 1,
  needs: '',
  build(cast) {
    const { topic, tp, leader } = cast;
    const side = (idempotent: boolean): TimedCommand[] => [
      {
        afterMs: 0,
        command: {
          type: 'startProducer',
          producerId: EXPERIMENT_PRODUCER,
          topic,
          ratePerSec: 0,
          // request.timeout.ms 5 s rather than 30 s, so the retry comes soon.
          config: { 'enable.idempotence': idempotent, 'request.timeout.ms': 5_000 },
        },
      },
      { afterMs: 1_000, command: { type: 'cutLink', from: leader, to: EXPERIMENT_PRODUCER, oneWay: true } },
      write(1_000, topic, 'pay', 'all', 5),
      { afterMs: 3_000, command: { type: 'healNetwork' } },
    ];
    return {
      a: side(false),
      b: side(true),
      durationMs: 30_000,
      crashed: [],
      records: 5,
      story: [
        `0 s: the producer ${EXPERIMENT_PRODUCER} starts (acks=all, retries=2147483647, request.timeout.ms=5000) with enable.idempotence=false on one side and true on the other (Kafka's default since 3.0).`,
        `1 s: the link from broker ${leader}, the leader of ${tp}, to the producer is cut one way: requests arrive, answers are lost. The producer sends 5 records ("pay-0" …) to ${tp}; the leader writes them and its answers go nowhere.`,
        `3 s: the link is healed. About 5 s after sending, the producer gives up waiting (REQUEST_TIMED_OUT) and retries the batches it was never answered for. Each side runs 30 simulated seconds.`,
      ],
    };
  },
  explain(c, cast, plan) {
    const { tp, leader } = cast;
    const la = c.a.experimentLog;
    const lb = c.b.experimentLog;
    const copies = (l: ExperimentLogOutcome | null) => (l ? `${l.copies} (of ${plan.records} records)` : '—');
    const dupes = (l: ExperimentLogOutcome | null) => (l ? String(l.copies - l.records) : '—');
    const order = (l: ExperimentLogOutcome | null) =>
      !l ? '—' : l.outOfOrder ? 'out of order' : 'in the order sent';
    const pa = experimentProducer(c.a);
    const pb = experimentProducer(c.b);
    return [
      {
        what: `Copies of the experiment's records in ${tp}`,
        about: `How many times the experiment's records are in the log of ${tp} (committed, below the HW) at the end.`,
        a: copies(la),
        b: copies(lb),
        why: `Both producers sent each batch twice: once when the answer was lost, once on the retry after REQUEST_TIMED_OUT. Without idempotence broker ${leader} cannot tell a retry from a new batch and appends it again. With it, each batch carries the producer id, epoch and sequence numbers; the leader remembers the last five batches of each producer (ProducerStateManager), recognises the retry as a duplicate and answers with the offset it already wrote, without writing anything.`,
      },
      {
        what: 'Duplicates a consumer would read',
        about: 'Copies beyond the first of each record: what every consumer of the partition reads twice.',
        a: dupes(la),
        b: dupes(lb),
        why: `enable.idempotence=false: retries give at-least-once writes, duplicates included. enable.idempotence=true: exactly one copy per record in the partition, whatever the retries (KIP-98; it needs acks=all, retries > 0 and max.in.flight.requests.per.connection ≤ 5).`,
      },
      {
        what: 'Order of the first copies',
        about: `Whether the experiment's records appear in ${tp} in the order the producer sent them.`,
        a: order(la),
        b: order(lb),
        why: `With up to 5 requests in flight, a non-idempotent producer's retries may overtake each other. An idempotent producer's sequence numbers let the leader refuse a batch that comes out of turn (OUT_OF_ORDER_SEQUENCE_NUMBER), so order holds too.`,
      },
      {
        what: `Experiment's records acknowledged (of ${plan.records})`,
        about: `Records the producer was finally told were written.`,
        a: ackedWords(pa),
        b: ackedWords(pb),
        why: `Both sides: every record is acknowledged after its retry. The application sees no difference; only the log does.`,
      },
    ];
  },
};

export const EXPERIMENTS: readonly Experiment[] = [
  acksStory,
  uncleanStory,
  minIsrStory,
  isolationStory,
  idempotenceStory,
];

// ---- running one ---------------------------------------------------------------------------------

/** Virtual ms an experiment lets the cluster run first, for its partition to become healthy. */
const SETTLE_LIMIT_MS = 60_000;

/** Why partition 0 of `topic` cannot carry an experiment now, or null when it can. */
function unhealthy(s: Snapshot, topic: string): string | null {
  const p = findPartition(s, topic, 0);
  if (!p) return `There is no topic ${topic} yet`;
  const down = downNodes(s);
  const fenced = new Set(s.nodes.filter((n) => n.fenced).map((n) => n.id));
  if (leaderless(p, down)) return `${topic}-0 has no working leader`;
  const missing = p.replicas.filter((r) => down.has(r) || fenced.has(r) || !p.isr.includes(r));
  if (missing.length)
    return `${brokers(missing)} of ${topic}-0 ${missing.length === 1 ? 'is' : 'are'} not in sync`;
  return null;
}

/**
 * Runs `experiment` on partition 0 of `topic` from `base` (not changed): waits first, on a copy,
 * until every replica of the partition is in sync (the page may ask while the cluster boots), then
 * compares both sides and explains each row.
 */
export function runExperiment(base: Simulation, experiment: Experiment, topic: string): Comparison {
  return drain(experimentSteps(base, experiment, topic));
}

/**
 * An experiment run in slices, so the worker keeps playing the live run and answering the page while
 * both branches run forward (on the large preset a comparison takes seconds of engine time). The
 * branches start from a copy made when the job is made, so the live run moving on changes nothing.
 */
export class CompareJob {
  private readonly steps: Generator<void, Comparison>;
  private outcome: Comparison | null = null;

  constructor(base: Simulation, experiment: Experiment, topic: string) {
    // Copied now: the live simulation plays on between slices.
    this.steps = experimentSteps(base.clone(), experiment, topic, false);
  }

  /** Runs steps until `shouldYield` says so or the comparison is done; true when done (errors throw). */
  run(shouldYield: () => boolean): boolean {
    if (this.outcome) return true;
    do {
      const step = this.steps.next();
      if (step.done) {
        this.outcome = step.value;
        return true;
      }
    } while (!shouldYield());
    return false;
  }

  result(): Comparison {
    if (!this.outcome) throw new Error('the comparison is not done yet');
    return this.outcome;
  }
}

function* experimentSteps(
  base: Simulation,
  experiment: Experiment,
  topic: string,
  withHash = true,
): Generator<void, Comparison> {
  let start = base;
  let why = unhealthy(base.snapshot(), topic);
  if (why) {
    start = base.clone();
    while (why && start.nowMs - base.nowMs < SETTLE_LIMIT_MS) {
      start.advance(250);
      why = unhealthy(start.snapshot(), topic);
      yield;
    }
    if (why)
      throw new Error(
        `${why}, and it did not recover within ${SETTLE_LIMIT_MS / 1000} simulated seconds. The experiment needs every replica of ${topic}-0 running and in the ISR: restart the crashed brokers, heal the network, or go back on the timeline.`,
      );
  }
  const s = start.snapshot();
  const topicView = s.topics.find((t) => t.name === topic)!;
  if (topicView.replicationFactor < experiment.minReplicationFactor)
    throw new Error(`${topic} has replication factor ${topicView.replicationFactor}: ${experiment.needs}`);
  const unsuitable = experiment.unsuitable?.(s);
  if (unsuitable) throw new Error(unsuitable);
  const p = findPartition(s, topic, 0)!;
  // The effective min.insync.replicas, from the failure budget (|ISR| − min(min ISR, RF)) when shown.
  const minIsr = p.budget
    ? p.isr.length - p.budget.beforeNotEnoughReplicas
    : Number(topicView.config['min.insync.replicas'] ?? 1);
  const cast: Cast = {
    topic,
    tp: `${topic}-0`,
    leader: p.leader,
    followers: p.replicas.filter((r) => r !== p.leader),
    minInsyncReplicas: minIsr,
  };
  const plan = experiment.build(cast, s);
  const restore = restoreCuts(s);
  const withRestore = (side: TimedCommand[]) =>
    side.flatMap((c) =>
      c.command.type === 'healNetwork'
        ? [c, ...restore.map((command) => ({ afterMs: c.afterMs, command }))]
        : [c],
    );
  const comparison = yield* compareBranchSteps(
    start,
    withRestore(plan.a),
    withRestore(plan.b),
    plan.durationMs,
    { topic, partition: 0 },
    plan.observe,
    withHash,
  );
  comparison.explained = {
    partition: cast.tp,
    question: experiment.question,
    story: plan.story,
    rows: experiment.explain(comparison, cast, plan),
    producers: producerRows(comparison, plan),
    errors: errorMeanings(comparison, cast, plan),
    settledAfterMs: start.nowMs - base.nowMs,
  };
  return comparison;
}

/** The network cuts of the fork, put back after an experiment heals its own. */
function restoreCuts(s: Snapshot): Command[] {
  return s.network.cuts.map((c) => ({ type: 'cutLink', from: c.from, to: c.to, oneWay: true }));
}

function producerRows(c: Comparison, plan: ExperimentPlan): ProducerRow[] {
  const ids = [...new Set([...c.a.producers, ...c.b.producers].map((p) => p.producerId))].sort((x, y) =>
    x === EXPERIMENT_PRODUCER ? -1 : y === EXPERIMENT_PRODUCER ? 1 : x.localeCompare(y),
  );
  return ids.map((producerId) => ({
    producerId,
    role:
      producerId === EXPERIMENT_PRODUCER
        ? `the experiment's: sends its ${plan.records} records`
        : 'already in the cluster: its load goes on in both branches',
    a: c.a.producers.find((p) => p.producerId === producerId) ?? null,
    b: c.b.producers.find((p) => p.producerId === producerId) ?? null,
  }));
}

/** What each error a producer saw means, with the brokers and settings of this experiment. */
function errorMeanings(c: Comparison, cast: Cast, plan: ExperimentPlan): Explained['errors'] {
  const names = [...new Set([...Object.keys(c.a.errors), ...Object.keys(c.b.errors)])].sort();
  const brokersFor = (name: string) =>
    [
      ...new Set(
        [...c.a.producers, ...c.b.producers].flatMap((p: ProducerOutcome) => p.errorBrokers[name] ?? []),
      ),
    ].sort((x, y) => x - y);
  return names.map((name) => {
    const at = brokersFor(name);
    const atWords = at.length ? ` (here: ${brokers(at)})` : '';
    switch (name) {
      case 'NETWORK_EXCEPTION':
        return {
          name,
          meaning: `The producer's connection to a broker broke: it sent to ${at.length ? brokers(at) : 'a broker'}${plan.crashed.length ? `, which had crashed` : ''}, and the broker was gone before it answered. The producer refreshes its metadata and retries (after retry.backoff.ms), again and again until the controller fences the broker and names a new leader. A retried record is not lost by it; the many attempts are why the count is large.`,
        };
      case 'NOT_ENOUGH_REPLICAS':
        return {
          name,
          meaning: `An acks=all write refused by the leader before appending it${atWords}: the partition's ISR was smaller than its min.insync.replicas. Retriable: the producer tries again until delivery.timeout.ms (120 s). acks=1 and acks=0 writes are never refused for this.`,
        };
      case 'NOT_ENOUGH_REPLICAS_AFTER_APPEND':
        return {
          name,
          meaning: `The leader appended an acks=all write${atWords}, but the ISR shrank below min.insync.replicas before the followers had it. The producer retries; with idempotence the retry is not written twice.`,
        };
      case 'REQUEST_TIMED_OUT':
        return {
          name,
          meaning: `No answer within request.timeout.ms (30 s by default)${atWords}: an acks=all write waited at the leader for followers that did not fetch, the broker could not be reached, or its answer was lost on the way. The producer retries; without idempotence a retry of a batch the leader did write is written again.`,
        };
      case 'NOT_LEADER_OR_FOLLOWER':
        return {
          name,
          meaning: `The producer wrote to a broker that no longer leads the partition${atWords}: its metadata was out of date after an election. The answer names the new leader (KIP-951) and the producer retries there.`,
        };
      case 'LEADER_NOT_AVAILABLE':
        return {
          name,
          meaning: `The partition had no leader${atWords}, as while ${cast.tp} was offline. The producer waits and retries.`,
        };
      case 'OUT_OF_ORDER_SEQUENCE_NUMBER':
        return {
          name,
          meaning: `An idempotent producer's batch no longer follows the last one the leader holds${atWords}: the batch before it is gone from the log (after an unclean election or a truncation). The producer fails the batch and bumps its epoch (KIP-360).`,
        };
      case 'UNKNOWN_TOPIC_OR_PARTITION':
        return {
          name,
          meaning: `The broker did not know the topic or partition${atWords}, as before it applied the metadata.`,
        };
      default:
        return { name, meaning: `A Kafka error${atWords}; the event log of the branch names it in context.` };
    }
  });
}
