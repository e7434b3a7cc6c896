// The failure budget of a partition: how many more broker losses it takes before acks=all writes
// are refused (NOT_ENOUGH_REPLICAS, Partition.appendRecordsToLeader) and before it has no leader
// (PartitionChangeBuilder.electLeader: ISR, then ELR (KIP-966), then unclean if enabled).

import type { ChangeRules } from '../kraft/partitionChange';
import type { NodeId } from '../model/types';
import type { FailureBudget } from '../model/views';

/** The rules the controller elects leaders by (min.insync.replicas, ELR, unclean election). */
export type BudgetRules = ChangeRules;

/** Pure: the budget of one partition from its replicas, ISR, ELR and leader. */
export function failureBudget(
  p: { replicas: readonly NodeId[]; isr: readonly NodeId[]; elr?: readonly NodeId[]; leader: NodeId },
  rules: BudgetRules,
): FailureBudget {
  const rf = p.replicas.length;
  const effMinIsr = Math.min(rules.minIsr, rf);
  const noTolerance = rules.minIsr >= rf && rf > 0;
  const beforeNotEnoughReplicas = Math.max(0, p.isr.length - effMinIsr);
  let beforeOffline = 0;
  if (p.leader >= 0) {
    // Unclean election can pick any live replica; otherwise the ISR, then (with ELR) the ELR.
    beforeOffline = rules.uncleanEnabled
      ? rf - 1
      : p.isr.length - 1 + (rules.elrEnabled ? (p.elr?.length ?? 0) : 0);
  }
  const notes: string[] = [];
  if (p.leader < 0) notes.push('offline now: no leader');
  else if (p.isr.length < effMinIsr) notes.push('acks=all writes are refused now (NOT_ENOUGH_REPLICAS)');
  else
    notes.push(
      `${beforeNotEnoughReplicas} more broker loss${beforeNotEnoughReplicas === 1 ? '' : 'es'} before acks=all writes are refused, ` +
        `${beforeOffline} before the partition goes offline`,
    );
  if (noTolerance)
    notes.push(
      `min.insync.replicas (${rules.minIsr}) ≥ replication factor (${rf}): losing any one replica stops acks=all writes; use replication factor − 1`,
    );
  if (rules.uncleanEnabled)
    notes.push('unclean election is on: staying online may cost acknowledged records');
  return { beforeNotEnoughReplicas, beforeOffline, noTolerance, note: notes.join('; ') + '.' };
}
