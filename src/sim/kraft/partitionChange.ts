// PartitionChangeBuilder: from a partition's state and a wanted change, the next state:
// ISR, ELR (KIP-966) and leader election in Kafka's order (ISR, then ELR, then unclean).

import type { MetaImage, PartitionState } from '../model/metadata';
import { isActiveBroker } from '../model/metadata';
import type { NodeId } from '../model/types';

export type ElectionKind = 'clean' | 'elr' | 'unclean' | 'preferred';

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
}

export interface ChangeResult {
  state: PartitionState;
  election?: ElectionKind;
}

const without = (xs: NodeId[], drop: NodeId[]): NodeId[] => xs.filter((x) => !drop.includes(x));

/** Returns the next state, or null when nothing changes. */
export function buildPartitionChange(
  img: MetaImage,
  p: PartitionState,
  req: ChangeRequest,
  rules: ChangeRules,
): ChangeResult | null {
  const active = (id: NodeId) => isActiveBroker(img, id);
  const unclean = req.uncleanShutdown ?? [];
  let replicas = req.reassign ? [...req.reassign.replicas] : [...p.replicas];
  let adding = req.reassign ? [...req.reassign.adding] : [...p.adding];
  let removing = req.reassign ? [...req.reassign.removing] : [...p.removing];
  let isr = replicas.filter((r) => (req.isr ?? p.isr).includes(r));
  let elr = p.elr.filter((r) => replicas.includes(r));
  // PartitionChangeBuilder.completeReassignmentIfNeeded: once the ISR holds every target replica,
  // the removed replicas leave the replica list and the ISR (PartitionReassignmentReplicas.maybeCompleteReassignment).
  if (adding.length || removing.length) {
    const targetIsr = isr.filter((r) => !removing.includes(r));
    const targetReplicas = replicas.filter((r) => !removing.includes(r));
    if (targetIsr.length && targetReplicas.length && targetReplicas.every((r) => targetIsr.includes(r))) {
      replicas = targetReplicas;
      isr = targetIsr;
      elr = elr.filter((r) => replicas.includes(r));
      adding = [];
      removing = [];
    }
  }
  const effMinIsr = Math.min(rules.minIsr, replicas.length);

  if (rules.elrEnabled) {
    // maybePopulateTargetElr: replicas leaving the ISR while it is below min ISR stay eligible.
    elr =
      isr.length < effMinIsr
        ? replicas.filter((r) => (elr.includes(r) || p.isr.includes(r)) && !isr.includes(r))
        : [];
    elr = without(elr, unclean);
  } else if (isr.length === 0 && p.isr.length > 0) {
    // Without ELR the last ISR member stays in the ISR, so that it can lead again when it returns.
    isr = [p.isr[p.isr.length - 1]!];
  }

  let leader = p.leader;
  let election: ElectionKind | undefined;
  const leaderOk = leader !== -1 && isr.includes(leader) && active(leader);
  const preferred = replicas[0]!;
  if (req.election === 'preferred') {
    if (preferred !== leader && isr.includes(preferred) && active(preferred)) {
      leader = preferred;
      election = 'preferred';
    }
  }
  if (!election && !leaderOk) {
    // PartitionChangeBuilder.electAnyLeader: replica order, in the ISR and active.
    const fromIsr = replicas.find((r) => isr.includes(r) && active(r));
    const fromElr = rules.elrEnabled ? replicas.find((r) => elr.includes(r) && active(r)) : undefined;
    if (fromIsr !== undefined) {
      leader = fromIsr;
      election = 'clean';
    } else if (fromElr !== undefined) {
      leader = fromElr;
      isr = [fromElr];
      elr = without(elr, [fromElr]);
      election = 'elr';
    } else if ((rules.uncleanEnabled || req.election === 'unclean') && replicas.some(active)) {
      leader = replicas.find(active)!;
      isr = [leader];
      elr = [];
      election = 'unclean';
    } else {
      leader = -1;
    }
  }
  if (rules.elrEnabled && isr.length >= effMinIsr) elr = [];

  const same = (a: NodeId[], b: NodeId[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  if (
    leader === p.leader &&
    same(isr, p.isr) &&
    same(elr, p.elr) &&
    same(replicas, p.replicas) &&
    same(adding, p.adding) &&
    same(removing, p.removing)
  )
    return null;
  return {
    state: {
      ...p,
      replicas,
      adding,
      removing,
      isr,
      elr,
      leader,
      leaderEpoch: leader !== p.leader ? p.leaderEpoch + 1 : p.leaderEpoch,
      partitionEpoch: p.partitionEpoch + 1,
    },
    election: leader !== p.leader && leader !== -1 ? election : undefined,
  };
}
