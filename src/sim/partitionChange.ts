// PartitionChangeBuilder: from a partition's state and a wanted change, the next state:
// ISR, ELR (KIP-966) and leader election in Kafka's order (ISR, then ELR, then unclean).

import type { MetaImage, PartitionState } from './metadata';
import { isActiveBroker } from './metadata';
import type { NodeId } from './types';

export type ElectionKind = 'clean' | 'elr' | 'unclean' | 'preferred';

export interface ChangeRules {
  minIsr: number;
  elrEnabled: boolean;
  uncleanEnabled: boolean;
}

export interface ChangeRequest {
  isr?: NodeId[];
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
  let isr = req.isr ? p.replicas.filter((r) => req.isr!.includes(r)) : [...p.isr];
  let elr = [...p.elr];
  const effMinIsr = Math.min(rules.minIsr, p.replicas.length);

  if (rules.elrEnabled) {
    // maybePopulateTargetElr: replicas leaving the ISR while it is below min ISR stay eligible.
    elr =
      isr.length < effMinIsr
        ? p.replicas.filter((r) => (elr.includes(r) || p.isr.includes(r)) && !isr.includes(r))
        : [];
    elr = without(elr, unclean);
  } else if (isr.length === 0 && p.isr.length > 0) {
    // Without ELR the last ISR member stays in the ISR, so that it can lead again when it returns.
    isr = [p.isr[p.isr.length - 1]!];
  }

  let leader = p.leader;
  let election: ElectionKind | undefined;
  const leaderOk = leader !== -1 && isr.includes(leader) && active(leader);
  const preferred = p.replicas[0]!;
  if (req.election === 'preferred') {
    if (preferred !== leader && isr.includes(preferred) && active(preferred)) {
      leader = preferred;
      election = 'preferred';
    }
  }
  if (!election && !leaderOk) {
    // PartitionChangeBuilder.electAnyLeader: replica order, in the ISR and active.
    const fromIsr = p.replicas.find((r) => isr.includes(r) && active(r));
    const fromElr = rules.elrEnabled ? p.replicas.find((r) => elr.includes(r) && active(r)) : undefined;
    if (fromIsr !== undefined) {
      leader = fromIsr;
      election = 'clean';
    } else if (fromElr !== undefined) {
      leader = fromElr;
      isr = [fromElr];
      elr = without(elr, [fromElr]);
      election = 'elr';
    } else if ((rules.uncleanEnabled || req.election === 'unclean') && p.replicas.some(active)) {
      leader = p.replicas.find(active)!;
      isr = [leader];
      elr = [];
      election = 'unclean';
    } else {
      leader = -1;
    }
  }
  if (rules.elrEnabled && isr.length >= effMinIsr) elr = [];

  const same = (a: NodeId[], b: NodeId[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  if (leader === p.leader && same(isr, p.isr) && same(elr, p.elr)) return null;
  return {
    state: {
      ...p,
      isr,
      elr,
      leader,
      leaderEpoch: leader !== p.leader ? p.leaderEpoch + 1 : p.leaderEpoch,
      partitionEpoch: p.partitionEpoch + 1,
    },
    election: leader !== p.leader && leader !== -1 ? election : undefined,
  };
}
