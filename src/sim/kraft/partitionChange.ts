// PartitionChangeBuilder (metadata/.../controller/PartitionChangeBuilder.java): from a partition's
// state and a wanted change, the next state, step by step as Kafka's build(): complete a
// reassignment, populate the ELR (KIP-966), elect a leader (ISR; the ELR only when the ISR is
// empty; the last known ELR member; unclean), then the record's ISR, ELR and last known ELR.
// Checked against Kafka's own outputs (partitionChange.golden.json).

import type { MetaImage, PartitionState } from '../model/metadata';
import { isActiveBroker, tpKey } from '../model/metadata';
import type { NodeId } from '../model/types';
import { JavaHashSet, javaCopyCapacity } from '../kernel/javaHash';

export type ElectionKind = 'clean' | 'elr' | 'last-known-elr' | 'unclean' | 'preferred';

export interface ChangeRules {
  minIsr: number;
  elrEnabled: boolean;
  uncleanEnabled: boolean;
}

export interface ChangeRequest {
  isr?: NodeId[];
  /** A reassignment step: the new replica list with the replicas being added and removed (PartitionReassignmentReplicas). */
  reassign?: { replicas: NodeId[]; adding: NodeId[]; removing: NodeId[] };
  /** Brokers whose last shutdown was unclean: never kept in the ELR (KAFKA-18106). */
  uncleanShutdown?: NodeId[];
  election?: 'preferred' | 'unclean';
  /** Overrides "unfenced and not shutting down" (generateLeaderAndIsrUpdates' isAcceptableLeader). */
  acceptable?: (id: NodeId) => boolean;
}

export interface ChangeResult {
  state: PartitionState;
  election?: ElectionKind;
}

const NO_LEADER = -1;
const same = (a: readonly NodeId[], b: readonly NodeId[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** The effective min.insync.replicas: at most the replication factor of partition 0 (getTopicEffectiveMinIsr). */
export function effectiveMinIsr(img: MetaImage, p: PartitionState, minIsr: number): number {
  const rf = img.partitions.get(tpKey(p.topic, 0))?.replicas.length ?? p.replicas.length;
  return Math.min(minIsr, rf);
}

/** The inputs of Kafka's PartitionChangeBuilder, independent of the image (what the golden cases drive). */
export interface BuilderInput {
  partition: PartitionState;
  acceptable: (id: NodeId) => boolean;
  minIsr: number;
  elrEnabled: boolean;
  election: 'ONLINE' | 'PREFERRED' | 'UNCLEAN';
  targetIsr?: NodeId[];
  reassign?: { replicas: NodeId[]; adding: NodeId[]; removing: NodeId[] };
  uncleanShutdown?: NodeId[];
}

/** The PartitionChangeRecord's fields (undefined: unchanged; leader -2: no change), as Kafka writes them. */
export interface ChangeRecord {
  leader: number;
  isr?: NodeId[];
  elr?: NodeId[];
  lastKnownElr?: NodeId[];
  replicas?: NodeId[];
  adding?: NodeId[];
  removing?: NodeId[];
  /** Set to RECOVERING (1) by an unclean election. */
  leaderRecovering?: boolean;
}

const NO_LEADER_CHANGE = -2;

/** PartitionChangeBuilder.build: the record, or null when nothing changes, and how a new leader was elected. */
export function partitionChangeRecord(
  input: BuilderInput,
): { record: ChangeRecord; election?: ElectionKind } | null {
  const p = input.partition;
  const lastKnown = p.lastKnownElr ?? [];
  const record: ChangeRecord = { leader: NO_LEADER_CHANGE };
  let targetIsr = input.targetIsr ? [...input.targetIsr] : [...p.isr];
  let targetReplicas = input.reassign ? [...input.reassign.replicas] : [...p.replicas];
  let targetAdding = input.reassign ? [...input.reassign.adding] : [...p.adding];
  let targetRemoving = input.reassign ? [...input.reassign.removing] : [...p.removing];
  let targetElr = [...p.elr];
  // Kafka also tracks a targetLastKnownElr here; with useLastKnownLeaderInBalancedRecovery (always on
  // in the controller) it never reaches the record, which maybeUpdateLastKnownLeader sets instead.
  const { acceptable, elrEnabled, minIsr } = input;

  // completeReassignmentIfNeeded (PartitionReassignmentReplicas.maybeCompleteReassignment)
  if (targetAdding.length || targetRemoving.length) {
    const newIsr = targetIsr.filter((r) => !targetRemoving.includes(r));
    const newReplicas = targetReplicas.filter((r) => !targetRemoving.includes(r));
    if (newIsr.length && newReplicas.length && newReplicas.every((r) => newIsr.includes(r))) {
      targetIsr = newIsr;
      targetReplicas = newReplicas;
      targetRemoving = [];
      targetAdding = [];
    }
  }
  // maybePopulateTargetElr: in HashSet order (Integer hash = the broker id).
  if (elrEnabled) {
    if (targetIsr.length >= minIsr) targetElr = [];
    else {
      const candidates = new JavaHashSet<number>(
        (r) => r,
        String,
        javaCopyCapacity(targetElr.length),
        targetElr,
      );
      for (const r of p.isr) candidates.add(r);
      targetElr = candidates
        .values()
        .filter((r) => !targetIsr.includes(r) && !(input.uncleanShutdown ?? []).includes(r));
    }
  }
  // tryElection: electLeader (electPreferredLeader or electAnyLeader)
  const valid = (r: NodeId) =>
    (targetIsr.includes(r) || (!targetIsr.length && targetElr.includes(r))) && acceptable(r);
  const canElectLastKnown = elrEnabled && !targetElr.length && !targetIsr.length && lastKnown.length === 1;
  let node = NO_LEADER;
  let unclean = false;
  const online = (skip: number) => targetReplicas.slice(skip).find(valid);
  if (input.election === 'PREFERRED') {
    const preferred = targetReplicas[0]!;
    if (valid(preferred)) node = preferred;
    else if (valid(p.leader)) node = p.leader;
    else if (online(1) !== undefined) node = online(1)!;
    else if (canElectLastKnown) [node, unclean] = [lastKnown[0]!, true];
  } else if (valid(p.leader)) node = p.leader;
  else if (online(0) !== undefined) node = online(0)!;
  else if (canElectLastKnown) [node, unclean] = [lastKnown[0]!, true];
  else if (input.election === 'UNCLEAN') {
    const any = targetReplicas.find(acceptable);
    if (any !== undefined) [node, unclean] = [any, true];
  }
  let election: ElectionKind | undefined;
  if (node !== p.leader) {
    if (targetElr.includes(node)) {
      targetIsr = [node];
      targetElr = targetElr.filter((r) => r !== node);
      election = 'elr';
    } else if (unclean)
      election =
        lastKnown.length === 1 && node === lastKnown[0] && canElectLastKnown ? 'last-known-elr' : 'unclean';
    else election = input.election === 'PREFERRED' && node === targetReplicas[0] ? 'preferred' : 'clean';
    record.leader = node;
    if (unclean) {
      record.isr = [node];
      record.leaderRecovering = true;
    }
  }
  // triggerLeaderEpochBumpForReplicaReassignmentIfNeeded: replicas removed bump the leader epoch.
  if (record.leader === NO_LEADER_CHANGE && !p.replicas.every((r) => targetReplicas.includes(r)))
    record.leader = p.leader;
  // maybeUpdateRecordElr (useLastKnownLeaderInBalancedRecovery is on)
  if (record.isr !== undefined || !elrEnabled) targetElr = [];
  if (!same(targetElr, p.elr)) record.elr = targetElr;
  if (record.isr === undefined && (targetIsr.length || elrEnabled) && !same(targetIsr, p.isr))
    record.isr = targetIsr;
  // maybeUpdateLastKnownLeader
  if (elrEnabled) {
    if (
      record.isr !== undefined &&
      !record.isr.length &&
      (lastKnown.length !== 1 || lastKnown[0] !== p.leader)
    )
      record.lastKnownElr = [p.leader];
    else if (
      (record.leader >= 0 || (p.leader !== NO_LEADER && record.leader !== NO_LEADER)) &&
      lastKnown.length
    )
      record.lastKnownElr = [];
  }
  // setAssignmentChanges
  if (targetReplicas.length && !same(targetReplicas, p.replicas)) record.replicas = targetReplicas;
  if (!same(targetRemoving, p.removing)) record.removing = targetRemoving;
  if (!same(targetAdding, p.adding)) record.adding = targetAdding;
  const noOp =
    record.isr === undefined &&
    record.elr === undefined &&
    record.lastKnownElr === undefined &&
    record.leader === NO_LEADER_CHANGE &&
    record.replicas === undefined &&
    record.removing === undefined &&
    record.adding === undefined &&
    !record.leaderRecovering;
  return noOp
    ? null
    : { record, election: record.leader >= 0 && record.leader !== p.leader ? election : undefined };
}

/** PartitionRegistration.merge: the state after the record. */
export function mergeChange(p: PartitionState, r: ChangeRecord): PartitionState {
  const next: PartitionState = {
    ...p,
    replicas: r.replicas ?? p.replicas,
    isr: r.isr ?? p.isr,
    elr: r.elr ?? p.elr,
    adding: r.adding ?? p.adding,
    removing: r.removing ?? p.removing,
    leader: r.leader === NO_LEADER_CHANGE ? p.leader : r.leader,
    leaderEpoch: r.leader === NO_LEADER_CHANGE ? p.leaderEpoch : p.leaderEpoch + 1,
    partitionEpoch: p.partitionEpoch + 1,
  };
  const lastKnownElr = r.lastKnownElr ?? p.lastKnownElr ?? [];
  if (lastKnownElr.length) next.lastKnownElr = [...lastKnownElr];
  else delete next.lastKnownElr;
  return next;
}

/** Returns the next state, or null when nothing changes. */
export function buildPartitionChange(
  img: MetaImage,
  p: PartitionState,
  req: ChangeRequest,
  rules: ChangeRules,
): ChangeResult | null {
  const res = partitionChangeRecord({
    partition: p,
    acceptable: req.acceptable ?? ((id) => isActiveBroker(img, id)),
    minIsr: effectiveMinIsr(img, p, rules.minIsr),
    elrEnabled: rules.elrEnabled,
    election:
      req.election === 'preferred'
        ? 'PREFERRED'
        : req.election === 'unclean' || rules.uncleanEnabled
          ? 'UNCLEAN'
          : 'ONLINE',
    targetIsr: req.isr,
    reassign: req.reassign,
    uncleanShutdown: req.uncleanShutdown,
  });
  if (!res) return null;
  return { state: mergeChange(p, res.record), election: res.election };
}
