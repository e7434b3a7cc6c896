// The card of each node: its broker part (fencing, metadata lag, replicas), its controller part
// (the voter's state in the KRaft quorum), its cut state, and the sentence a screen reader hears.
import type { NodeId, NodeView, Snapshot } from '../../sim/types';
import { cutKeys, cutStates } from './cuts';
import { fencedReason } from './fencing';
import { NO_RACK, plural } from './keys';
import { replicaChips, replicaCounts, type PlacedReplica } from './replicas';
import type { BrokerPart, ClusterNodeData, ControllerPart, ReplicaChip } from './types';

function brokerPart(
  n: NodeView,
  list: readonly PlacedReplica[],
  compact: boolean,
  snapshot: Snapshot,
): BrokerPart {
  let chips: ReplicaChip[] | null = null;
  let hiddenReplicas = list.length;
  if (!compact) {
    chips = replicaChips(n, list);
    hiddenReplicas = list.length - chips.length;
  }
  return {
    fenced: n.fenced,
    shuttingDown: n.shuttingDown,
    brokerEpoch: n.brokerEpoch,
    metadataLag:
      // The quorum HW is an exclusive end; metadataOffset is the last record applied.
      n.state === 'running' ? Math.max(0, snapshot.quorum.highWatermark - 1 - n.metadataOffset) : null,
    counts: replicaCounts(list),
    chips,
    hiddenReplicas,
    fencedReason: fencedReason(n, snapshot),
  };
}

/** One card a node, in the snapshot's node order. */
export function nodeCards(
  snapshot: Snapshot,
  replicasOf: ReadonlyMap<NodeId, PlacedReplica[]>,
  compact: boolean,
  tile = false,
): ClusterNodeData[] {
  const cutOf = cutStates(
    snapshot.nodes.map((n) => n.id),
    cutKeys(snapshot),
  );
  const voters = new Map(snapshot.quorum.voters.map((v) => [v.id, v]));
  return snapshot.nodes.map((n) => {
    const rack = n.rack ?? NO_RACK;
    const cut = cutOf.get(n.id) ?? 'none';
    const broker = n.roles.includes('broker')
      ? brokerPart(n, replicasOf.get(n.id) ?? [], compact, snapshot)
      : null;
    const voter = voters.get(n.id);
    const controller: ControllerPart | null = voter
      ? {
          voterState: voter.state,
          epoch: voter.epoch,
          logEndOffset: voter.logEndOffset,
          highWatermark: voter.highWatermark,
          active: snapshot.quorum.leaderId === n.id,
        }
      : null;
    const words = [
      `${broker ? 'Broker' : 'Controller'} ${n.id}`,
      rack,
      n.state === 'running' ? (n.shuttingDown ? 'shutting down' : 'running') : n.state,
    ];
    if (broker && controller) words[0] = `Broker and controller ${n.id}`;
    if (broker?.fenced && n.state === 'running')
      words.push(broker.fencedReason ? `fenced, ${broker.fencedReason.text}` : 'fenced');
    if (cut === 'isolated') words.push('cut off from the cluster');
    if (cut === 'partial') words.push('some links cut');
    if (controller) words.push(`quorum ${controller.voterState}, epoch ${controller.epoch}`);
    if (broker) words.push(`leader of ${plural(broker.counts.leader, 'partition')}`);
    if (broker && broker.counts.outofsync > 0) words.push(`${broker.counts.outofsync} out of sync`);
    return {
      id: n.id,
      rack,
      state: n.state,
      cut,
      compact,
      tile,
      broker,
      controller,
      label: words.join(', '),
    };
  });
}
