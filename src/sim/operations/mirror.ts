// More than one cluster: a standby cluster in another region, fed by a MirrorMaker-style client
// (MirrorMaker 2's MirrorSourceConnector: a consumer of the source cluster, a producer to the
// target), so that after losing the first region one can see which acknowledged records the
// standby never received. The standby is a simulation of its own, with its own controllers,
// brokers and metadata; the Simulation of a scenario with a `mirror` advances both in lockstep on
// one virtual clock and runs the mirror at its due times (simulation.ts).
// Simplifications: MirrorMaker runs in the standby's region, reads committed records (below the
// source HW) every pollIntervalMs (records on the wire between the regions are lost with the first
// region, as on any cut link), and produces them to the same partition of a topic of the same
// name (MM2's IdentityReplicationPolicy); no offset translation, no checkpoints, no heartbeats
// topic, no topic config sync.

import { emit } from '../kernel/kernel';
import { entryAt, firstHeldOffset, logEndOffset } from '../model/log';
import { compareTopicPartition, tpKey } from '../model/metadata';
import { clusterImage } from '../model/image';
import type { World } from '../model/world';
import type { Acks, Command, CommandResult, ScenarioMirror } from '../model/types';
import type { FailoverReport, MirrorLagView, MirrorView, MissingRecord } from '../model/views';

export type { FailoverReport, MirrorLagView, MissingRecord, MirrorView } from '../model/views';

/** Missing records a snapshot lists at most (the newest); `missingCount` has them all. */
/** What MirrorMaker needs of a region's simulation: its clock, its world, and its commands (the Simulation is one). */
export interface MirrorSide {
  readonly nowMs: number;
  readonly world: World;
  apply(cmd: Command): CommandResult;
}

export const MIRROR_MISSING_VIEW_MAX = 500;

export const MIRROR_DEFAULTS = Object.freeze({
  crossRegionLatencyMs: 40,
  pollIntervalMs: 100,
  acks: 'all' as Acks,
  primaryRegion: 'region-1',
  standbyRegion: 'region-2',
  /** Client id of MirrorMaker's producer in the standby. */
  producerId: 'mirror-maker',
});

interface InTransit {
  sourceRecordId: number;
  topic: string;
  partition: number;
  key: string | null;
  value: string;
  timestampMs: number;
  arriveAtMs: number;
}

interface PartitionMirror {
  /** Next source offset to read. */
  position: number;
  startOffset: number;
  read: number;
  /** Standby record ids produced, not yet seen acknowledged there, with their source timestamps. */
  pending: { standbyRecordId: number; timestampMs: number }[];
  mirrored: number;
}

/**
 * The mirror's whole state, plain data (Maps and arrays), so that a checkpoint copies it with
 * structuredClone and the state hash covers it. It changes only at its due times (mirrorDueMs),
 * never when it is looked at, so that looking never changes a run.
 */
export interface MirrorState {
  topics: string[];
  latencyMs: number;
  pollMs: number;
  acks: Acks;
  producerId: string;
  primaryRegion: string;
  standbyRegion: string;
  nextPollMs: number;
  inTransit: InTransit[];
  /** By tpKey, in the order MirrorMaker first read them. */
  parts: Map<string, PartitionMirror>;
  /** Source record id → standby record id. */
  mapping: Map<number, number>;
  /** Topics MirrorMaker created in the standby. */
  created: string[];
  lostAtMs: number | null;
  /** Source record ids that were on the wire when the region was lost. */
  lostInTransit: number[];
  /** Per partition, what the primary had committed when it was lost (its metadata is gone with it). */
  atLoss: Map<string, SourceProgress>;
}

interface SourceProgress {
  /** Records committed in the source partition since mirroring began. */
  sourceCommitted: number;
  /** Timestamp of the oldest record committed but not yet produced to the standby (Infinity if none). */
  oldestUnsentMs: number;
}

/** The mirror of a scenario's `mirror` block, starting at `nowMs`. */
export function newMirrorState(mirror: ScenarioMirror, nowMs: number): MirrorState {
  const pollMs = mirror.pollIntervalMs ?? MIRROR_DEFAULTS.pollIntervalMs;
  return {
    topics: [...mirror.topics],
    latencyMs: mirror.crossRegionLatencyMs ?? MIRROR_DEFAULTS.crossRegionLatencyMs,
    pollMs,
    acks: mirror.acks ?? MIRROR_DEFAULTS.acks,
    producerId: MIRROR_DEFAULTS.producerId,
    primaryRegion: mirror.primaryRegion ?? MIRROR_DEFAULTS.primaryRegion,
    standbyRegion: mirror.standby.region ?? MIRROR_DEFAULTS.standbyRegion,
    nextPollMs: nowMs + pollMs,
    inTransit: [],
    parts: new Map(),
    mapping: new Map(),
    created: [],
    lostAtMs: null,
    lostInTransit: [],
    atLoss: new Map(),
  };
}

/** Logs MirrorStarted in the primary's event log. */
export function noteMirrorStarted(primary: World, m: MirrorState): void {
  emit(
    primary,
    'MirrorStarted',
    `MirrorMaker copies [${m.topics.join(', ')}] from ${m.primaryRegion} to the standby cluster in ${m.standbyRegion}, ` +
      `${m.latencyMs} ms away, polling every ${m.pollMs} ms. Mirroring is asynchronous: the primary acknowledges a write before the standby has it.`,
  );
}

/** When the mirror next has something to do (a record arriving, a poll); Infinity when never. */
export function mirrorDueMs(m: MirrorState): number {
  const arrival = m.inTransit[0]?.arriveAtMs ?? Infinity;
  const poll = m.lostAtMs === null ? m.nextPollMs : Infinity;
  return Math.min(arrival, poll);
}

/**
 * Does what is due at the primary's current time: records that crossed the regions are produced
 * to the standby, then (at a poll) MirrorMaker reads what the primary committed since. Both
 * clusters must stand at that time.
 */
export function runMirror(primary: MirrorSide, standby: MirrorSide, m: MirrorState): void {
  const now = primary.nowMs;
  deliver(standby, m, now);
  if (m.lostAtMs === null && now >= m.nextPollMs) {
    poll(primary.world, standby, m, now);
    while (m.nextPollMs <= now) m.nextPollMs += m.pollMs;
    settlePending(standby.world, m);
  }
}

/**
 * The primary region goes dark: what is on the wire between the regions is lost (as on any cut
 * link, kernel.ts) and MirrorMaker reads no more. The caller crashes the primary's nodes.
 */
export function loseRegion(primary: World, standby: World, m: MirrorState): void {
  for (const key of m.parts.keys()) m.atLoss.set(key, sourceProgress(primary, m, key));
  m.lostAtMs = primary.nowMs;
  m.lostInTransit = m.inTransit.splice(0).map((t) => t.sourceRecordId);
  const report = failoverReport(primary, standby, m);
  emit(
    primary,
    'RegionLost',
    `${m.primaryRegion} is lost: every node of the primary cluster goes down and the link to ${m.standbyRegion} is cut. ` +
      (report.missing.length
        ? `${report.missing.length} record(s) the primary had acknowledged were not yet acknowledged by the standby, ` +
          `from the last ${report.windowMs} ms: clients that fail over to the standby will not find them (asynchronous replication, RPO > 0).`
        : 'The standby had every record the primary acknowledged.'),
    { missingRecords: report.missing.length, windowMs: report.windowMs },
  );
}

/** Per mirrored partition: how far behind the standby is. */
export function mirrorLag(primary: World, standby: World, m: MirrorState): MirrorLagView[] {
  const now = m.lostAtMs ?? primary.nowMs;
  const ledger = standby.ledgerIndex;
  const out: MirrorLagView[] = [];
  for (const [key, part] of [...m.parts.entries()].sort((a, b) => compareKeys(a[0], b[0]))) {
    const { topic, partition } = splitKey(key);
    const source = m.atLoss.get(key) ?? sourceProgress(primary, m, key);
    const sourceCommitted = source.sourceCommitted;
    let mirrored = part.mirrored;
    let oldest = source.oldestUnsentMs;
    for (const x of part.pending) {
      if (ledger.get(x.standbyRecordId)?.status === 'acked') mirrored++;
      else oldest = Math.min(oldest, x.timestampMs);
    }
    out.push({
      topic,
      partition,
      sourceCommitted,
      read: part.read,
      mirrored,
      lagRecords: Math.max(0, sourceCommitted - mirrored),
      lagMs: oldest === Infinity ? 0 : Math.max(0, now - oldest),
    });
  }
  return out;
}

/** What the source partition has committed, and the oldest of it still on its way (not read, or on the wire). */
function sourceProgress(primary: World, m: MirrorState, key: string): SourceProgress {
  const part = m.parts.get(key)!;
  const { topic, partition } = splitKey(key);
  const p = clusterImage(primary).partitions.get(key);
  const disk = p && p.leader >= 0 ? primary.nodes.get(p.leader)?.disk.partitions.get(key) : undefined;
  const hw = disk ? Math.min(disk.highWatermark, logEndOffset(disk.log)) : part.position;
  let oldest = Infinity;
  for (const t of m.inTransit)
    if (t.topic === topic && t.partition === partition) oldest = Math.min(oldest, t.timestampMs);
  if (disk && part.position < hw) {
    const rec = entryAt(disk.log, Math.max(part.position, firstHeldOffset(disk.log)));
    if (rec) oldest = Math.min(oldest, rec.timestampMs);
  }
  return { sourceCommitted: Math.max(part.read, hw - part.startOffset), oldestUnsentMs: oldest };
}

/** The records the primary acknowledged (up to the loss) that the standby does not hold. */
export function failoverReport(primary: World, standby: World, m: MirrorState): FailoverReport {
  const lostAtMs = m.lostAtMs ?? primary.nowMs;
  const transit = new Set([...m.inTransit.map((t) => t.sourceRecordId), ...m.lostInTransit]);
  const standbyLedger = standby.ledgerIndex;
  const missing: MissingRecord[] = [];
  let newestMirroredAckMs = -1;
  for (const e of primary.ledger) {
    if (e.status !== 'acked' || e.offset < 0 || !m.topics.includes(e.topic)) continue;
    if (e.ackedAtMs! > lostAtMs) continue;
    const standbyId = m.mapping.get(e.recordId);
    const there = standbyId === undefined ? undefined : standbyLedger.get(standbyId);
    if (there && there.status === 'acked') {
      newestMirroredAckMs = Math.max(newestMirroredAckMs, e.ackedAtMs!);
      continue;
    }
    missing.push({
      topic: e.topic,
      partition: e.partition,
      offset: e.offset,
      key: e.key,
      value: e.value,
      ackedAtMs: e.ackedAtMs!,
      stage:
        standbyId !== undefined
          ? 'not-acknowledged-by-standby'
          : transit.has(e.recordId)
            ? 'in-transit'
            : 'not-read',
    });
  }
  const oldest = missing.reduce((a, r) => Math.min(a, r.ackedAtMs), Infinity);
  const windowMs = missing.length ? lostAtMs - oldest : 0;
  return {
    lostAtMs,
    missing,
    newestMirroredAckMs,
    windowMs,
    message: missing.length
      ? `The standby is missing ${missing.length} record(s) the primary had acknowledged, from the last ${windowMs} ms before the region was lost: mirroring is asynchronous.`
      : 'The standby holds every record the primary had acknowledged.',
  };
}

/** The snapshot's `mirror` part. */
export function mirrorView(primary: World, standby: MirrorSide, m: MirrorState): MirrorView {
  const sw = standby.world;
  const img = clusterImage(sw);
  const nodes = [...sw.nodes.values()]
    .sort((a, b) => a.id - b.id)
    .map((n) => ({
      id: n.id,
      roles: [...n.roles],
      rack: n.rack,
      alive: n.state === 'running',
      fenced: n.isBroker ? (img.brokers.get(n.id)?.fenced ?? true) : false,
    }));
  let controllerId = -1;
  for (const id of sw.voterIds) {
    const n = sw.nodes.get(id)!;
    if (n.state === 'running' && n.controller?.active) controllerId = id;
  }
  const partitions = [...img.partitions.values()]
    .filter((p) => m.topics.includes(p.topic))
    .sort(compareTopicPartition)
    .map((p) => {
      const disk =
        p.leader >= 0 ? sw.nodes.get(p.leader)?.disk.partitions.get(tpKey(p.topic, p.partition)) : undefined;
      return {
        topic: p.topic,
        partition: p.partition,
        replicas: [...p.replicas],
        leader: p.leader,
        isr: [...p.isr],
        highWatermark: disk ? disk.highWatermark : 0,
      };
    });
  let failover: MirrorView['failover'] = null;
  if (m.lostAtMs !== null) {
    const report = failoverReport(primary, sw, m);
    const byStage = { 'not-read': 0, 'in-transit': 0, 'not-acknowledged-by-standby': 0 };
    for (const r of report.missing) byStage[r.stage]++;
    failover = {
      ...report,
      missingCount: report.missing.length,
      byStage,
      missing: report.missing.slice(-MIRROR_MISSING_VIEW_MAX),
    };
  }
  return {
    primaryRegion: m.primaryRegion,
    standbyRegion: m.standbyRegion,
    topics: [...m.topics],
    crossRegionLatencyMs: m.latencyMs,
    pollIntervalMs: m.pollMs,
    acks: m.acks,
    standby: { nodes, controllerId, partitions },
    lag: mirrorLag(primary, sw, m),
    regionLost: m.lostAtMs !== null,
    failover,
  };
}

/** The MirrorSourceConnector's poll: committed records past each partition's position. */
function poll(primary: World, standby: MirrorSide, m: MirrorState, now: number): void {
  const img = clusterImage(primary);
  const standbyImg = clusterImage(standby.world);
  for (const topic of m.topics) {
    const t = img.topics.get(topic);
    if (!t) continue;
    if (!standbyImg.topics.has(topic)) {
      createInStandby(primary, standby, m, topic, t.partitions);
      continue;
    }
    for (let partition = 0; partition < t.partitions; partition++) {
      const key = tpKey(topic, partition);
      const p = img.partitions.get(key);
      if (!p || p.leader < 0) continue;
      const node = primary.nodes.get(p.leader);
      if (!node || node.state !== 'running') continue;
      const disk = node.disk.partitions.get(key);
      if (!disk) continue;
      let part = m.parts.get(key);
      if (!part) {
        // A new mirror starts from the beginning of the log (auto.offset.reset=earliest, as MM2 does).
        part = {
          position: disk.log.logStartOffset,
          startOffset: disk.log.logStartOffset,
          read: 0,
          pending: [],
          mirrored: 0,
        };
        m.parts.set(key, part);
      }
      const hw = Math.min(disk.highWatermark, logEndOffset(disk.log));
      // Records the ceiling forgot (kernel/recordCeiling.ts) are not mirrored.
      for (let off = Math.max(part.position, firstHeldOffset(disk.log)); off < hw; off++) {
        const rec = entryAt(disk.log, off)!;
        m.inTransit.push({
          sourceRecordId: rec.id,
          topic,
          partition,
          key: rec.key,
          value: rec.value,
          timestampMs: rec.timestampMs,
          arriveAtMs: now + m.latencyMs,
        });
        part.read++;
      }
      if (hw > part.position) part.position = hw;
    }
  }
}

function createInStandby(
  primary: World,
  standby: MirrorSide,
  m: MirrorState,
  topic: string,
  partitions: number,
): void {
  if (m.created.includes(topic)) return;
  const brokers = [...standby.world.nodes.values()].filter((n) => n.isBroker).length;
  const rf = Math.min(3, brokers);
  const r = standby.apply({ type: 'createTopic', name: topic, partitions, replicationFactor: rf });
  if (!r.ok) return; // e.g. no active controller yet: try at the next poll
  m.created.push(topic);
  emit(
    primary,
    'MirrorTopicCreated',
    `MirrorMaker created ${topic} in the standby cluster in ${m.standbyRegion} (${partitions} partitions, replication factor ${rf}), as MirrorMaker 2 does before it copies a topic.`,
    { topic },
  );
}

/** Records that crossed the regions are produced to the standby, to the same partition. */
function deliver(standby: MirrorSide, m: MirrorState, now: number): void {
  for (let t = m.inTransit[0]; t && t.arriveAtMs <= now; t = m.inTransit[0]) {
    m.inTransit.shift();
    const id = standby.world.nextRecordId;
    const r = standby.apply({
      type: 'produce',
      topic: t.topic,
      key: t.key,
      value: t.value,
      acks: m.acks,
      partition: t.partition,
      producerId: m.producerId,
    });
    if (!r.ok) continue;
    m.mapping.set(t.sourceRecordId, id);
    m.parts
      .get(tpKey(t.topic, t.partition))
      ?.pending.push({ standbyRecordId: id, timestampMs: t.timestampMs });
  }
}

/** Moves the records the standby acknowledged from `pending` to the `mirrored` count. */
function settlePending(standby: World, m: MirrorState): void {
  const ledger = standby.ledgerIndex;
  for (const part of m.parts.values()) {
    if (part.pending.length === 0) continue;
    part.pending = part.pending.filter((x) => {
      if (ledger.get(x.standbyRecordId)?.status !== 'acked') return true;
      part.mirrored++;
      return false;
    });
  }
}

function splitKey(key: string): { topic: string; partition: number } {
  const i = key.lastIndexOf('-');
  return { topic: key.slice(0, i), partition: Number(key.slice(i + 1)) };
}

function compareKeys(a: string, b: string): number {
  return compareTopicPartition(splitKey(a), splitKey(b));
}
