// The dispatcher: runs one event of the queue (a delivered message, a node's or a client's timer,
// a script step) by handing it to the subsystem that owns it.

import {
  onBrokerHeartbeatResponse,
  onBrokerRegistrationResponse,
  onBrokerTimer,
  onMetadataApplied,
  setBrokerListener,
} from './broker/broker';
import { stopProcess } from './process';
import { createTopic } from './kraft/replicationControl';
import {
  onAlterPartition,
  onBecomeRaftLeader,
  onBrokerHeartbeat,
  onBrokerRegistration,
  onControllerCommit,
  onControllerTimer,
  onLoseRaftLeadership,
} from './kraft/quorumController';
import { emit, reachable, send } from './kernel/kernel';
import type { Message, MessageKind, MessageOf } from './model/messages';
import {
  onProducerDisconnected,
  onProducerMetadataResponse,
  onProducerProduceResponse,
  onProducerTimer,
} from './clients/producer';
import {
  onConsumerDisconnected,
  onConsumerFetchResponse,
  onConsumerFindCoordinatorResponse,
  onConsumerGroupHeartbeatResponse,
  onConsumerHeartbeatResponse,
  onConsumerJoinGroupResponse,
  onConsumerListOffsetsResponse,
  onConsumerMetadataResponse,
  onConsumerOffsetCommitResponse,
  onConsumerOffsetFetchResponse,
  onConsumerOffsetsForLeaderEpochResponse,
  onConsumerSyncGroupResponse,
  onConsumerTimer,
  onConsumerPolled,
  tick as consumerTick,
} from './clients/consumer';
import { noteClientActivity } from './clients/consumerFetcher';
import { drain } from './clients/recordAccumulator';
import { connectionWorks } from './clients/connectionBackoff';
import {
  onProcessorPolled,
  onProcessorProducerProgress,
  onProcessorTimer,
  onProcessorTransaction,
} from './clients/streamProcessor';
import {
  onConsumerFetch,
  onConsumerFetchExpired,
  onListOffsets,
  onOffsetsForLeaderEpoch,
} from './broker/consumerFetch';
import {
  onCoordinatorAppendResponse,
  onOffsetsTxnMarker,
  syncLoadedGroups,
} from './groups/groupMetadataManager';
import {
  onConsumerGroupHeartbeatRequest,
  onFindCoordinator,
  onGroupTimer,
  onHeartbeatRequest,
  onJoinGroupRequest,
  onLeaveGroupRequest,
  onOffsetCommitRequest,
  onOffsetFetchRequest,
  onTxnOffsetCommitRequest,
  onSyncGroupRequest,
} from './groups/groupCoordinator';
import { onParkedRaftFetchExpired, setQuorumListener } from './kraft/raftLog';
import {
  onBeginQuorumEpoch,
  onRaftFetch,
  onRaftFetchResponse,
  onRaftTimer,
  onVote,
  onVoteResponse,
} from './kraft/quorum';
import { onAlterPartitionResponse, onAlterPartitionRetry, onIsrShrinkCheck } from './broker/partition';
import { onDelayedProduceExpired, setOffsetsMarkerListener } from './broker/delayedProduce';
import { onFetchDisconnected, onFetchResponse, onFetcherTimer } from './broker/replicaFetcher';
import { onFetchRequest, onParkedFetchExpired } from './broker/replicaManager';
import { onProduceRequest, onVerifyPartitionsResponse, onWriteTxnMarkers } from './broker/appendRecords';
import { verificationDisconnected } from './broker/transactionVerification';
import {
  onAbortTimedOutTransactions,
  onAddPartitionsToTxn,
  onEndTxn,
  onAddOffsetsToTxn,
  onFindTransactionCoordinator,
  onInitProducerId,
  onTxnLogAppendResponse,
  onTxnMarkerTimer,
  onTxnMetadataApplied,
} from './txn/transactionCoordinator';
import { onWriteTxnMarkersDisconnected, onWriteTxnMarkersResponse } from './txn/transactionMarkerChannel';
import {
  onAddPartitionsToTxnResponse,
  onEndTxnResponse,
  onAddOffsetsToTxnResponse,
  onTxnOffsetCommitResponse,
  setTransactionListener,
  onInitProducerIdResponse,
  onProducerFindCoordinatorResponse,
} from './clients/transactionManager';
import { onRetentionCheck } from './broker/logManager';
import type { ConsumerClient, ProducerClient, QueueItem, SimNode, World } from './model/world';
import type { Command, CommandResult } from './model/types';
import { answerMetadata } from './broker/metadataCache';
import { itemAt } from './model/arrays';
import { trailDrop } from './model/messageTrail';

type Handler<K extends MessageKind = MessageKind> = (w: World, node: SimNode, msg: MessageOf<K>) => void;

/** Who handles a message kind on a running node, and which memory of the node it needs. */
interface Route<K extends MessageKind> {
  needs: 'broker' | 'controller' | 'raft' | null;
  /** A client's request: its sender learns at once that the peer's process is down (connection refused). */
  refused?: true;
  handle(w: World, node: SimNode, msg: MessageOf<K>): void;
}

/** A client's request to a broker. */
function request<K extends MessageKind>(handle: Handler<K>): Route<K> {
  return { needs: 'broker', refused: true, handle };
}

/** A KRaft RPC, for the node's Raft client (voters and observers alike). */
function raft<K extends MessageKind>(handle: Handler<K>): Route<K> {
  return { needs: 'raft', handle };
}
/** A controller RPC, for the node's controller (which answers NOT_CONTROLLER unless it is the active one). */
function controller<K extends MessageKind>(handle: Handler<K>): Route<K> {
  return { needs: 'controller', handle };
}

/**
 * Every message kind and its handler on a node (Kafka's KafkaApis, ControllerApis and the Raft
 * client, as one table). null: the kind is a response that only a client reads, so a node drops it.
 * Messages to a client go to the producer or the consumer (deliver).
 */
const ROUTES: { readonly [K in MessageKind]: Route<K> | null } = {
  Vote: raft(onVote),
  VoteResponse: raft(onVoteResponse),
  BeginQuorumEpoch: raft(onBeginQuorumEpoch),
  RaftFetch: raft(onRaftFetch),
  RaftFetchResponse: raft(onRaftFetchResponse),
  BrokerRegistration: controller(onBrokerRegistration),
  BrokerHeartbeat: controller(onBrokerHeartbeat),
  AlterPartition: controller(onAlterPartition),
  BrokerRegistrationResponse: { needs: 'broker', handle: onBrokerRegistrationResponse },
  BrokerHeartbeatResponse: { needs: 'broker', handle: onBrokerHeartbeatResponse },
  AlterPartitionResponse: { needs: 'broker', handle: onAlterPartitionResponse },
  Fetch: request(onFetchRequest),
  FetchResponse: { needs: 'broker', handle: onFetchResponse },
  Produce: request((w, node, msg) => onProduceRequest(w, node, msg)),
  Metadata: request(answerMetadata),
  // The coordinators' own appends to __consumer_offsets and __transaction_state (each takes its own).
  ProduceResponse: {
    needs: 'broker',
    handle: (w, node, msg) => {
      onCoordinatorAppendResponse(w, node, msg);
      onTxnLogAppendResponse(w, node, msg);
    },
  },
  // FindCoordinator key type GROUP (0) or TRANSACTION (1).
  FindCoordinator: request((w, node, msg) =>
    msg.body.keyType === 'transaction'
      ? onFindTransactionCoordinator(w, node, msg)
      : onFindCoordinator(w, node, msg),
  ),
  // The transaction coordinator's RPCs (txn/transactionCoordinator.ts) and its markers to partition leaders.
  InitProducerId: request(onInitProducerId),
  AddPartitionsToTxn: request(onAddPartitionsToTxn),
  AddOffsetsToTxn: request(onAddOffsetsToTxn),
  EndTxn: request(onEndTxn),
  WriteTxnMarkers: request(onWriteTxnMarkers),
  WriteTxnMarkersResponse: { needs: 'broker', handle: onWriteTxnMarkersResponse },
  InitProducerIdResponse: null,
  // KIP-890: the coordinator's answer to a partition leader's verification.
  AddPartitionsToTxnResponse: { needs: 'broker', handle: onVerifyPartitionsResponse },
  AddOffsetsToTxnResponse: null,
  EndTxnResponse: null,
  // The group coordinator's RPCs (groups/groupCoordinator.ts).
  JoinGroup: request(onJoinGroupRequest),
  SyncGroup: request(onSyncGroupRequest),
  Heartbeat: request(onHeartbeatRequest),
  LeaveGroup: request(onLeaveGroupRequest),
  OffsetCommit: request(onOffsetCommitRequest),
  OffsetFetch: request(onOffsetFetchRequest),
  TxnOffsetCommit: request(onTxnOffsetCommitRequest),
  ConsumerGroupHeartbeat: request(onConsumerGroupHeartbeatRequest),
  ConsumerFetch: request(onConsumerFetch),
  ListOffsets: request(onListOffsets),
  OffsetsForLeaderEpoch: request(onOffsetsForLeaderEpoch),
  // A replica fetcher whose leader is down learns it at once (connection refused).
  Disconnected: {
    needs: 'broker',
    handle: (w, node, msg) => {
      if (msg.body.requestKind === 'Fetch') onFetchDisconnected(w, node, msg);
      else if (msg.body.requestKind === 'WriteTxnMarkers') onWriteTxnMarkersDisconnected(w, node, msg.reqId);
      else if (msg.body.requestKind === 'AddPartitionsToTxn') verificationDisconnected(w, node, msg.reqId);
    },
  },
  MetadataResponse: null,
  FindCoordinatorResponse: null,
  JoinGroupResponse: null,
  SyncGroupResponse: null,
  HeartbeatResponse: null,
  LeaveGroupResponse: null,
  OffsetCommitResponse: null,
  OffsetFetchResponse: null,
  TxnOffsetCommitResponse: null,
  ConsumerGroupHeartbeatResponse: null,
  ConsumerFetchResponse: null,
  ListOffsetsResponse: null,
  OffsetsForLeaderEpochResponse: null,
};

/**
 * A client's handler of an answer: true when it did all there is to do; otherwise the client goes
 * on (the consumer ticks, the producer drains its accumulator).
 */
type ClientHandler<C, K extends MessageKind> = (w: World, client: C, msg: MessageOf<K>) => boolean | void;

interface ClientRoute<K extends MessageKind> {
  producer?: ClientHandler<ProducerClient, K>;
  consumer?: ClientHandler<ConsumerClient, K>;
}

/**
 * Every message kind a client receives and its handler in the producer and in the consumer (the
 * clients' NetworkClient completing a request). A kind not listed is not meant for clients: the
 * client ignores it and goes on.
 */
const CLIENT_ROUTES: { readonly [K in MessageKind]?: ClientRoute<K> } = {
  MetadataResponse: { producer: onProducerMetadataResponse, consumer: onConsumerMetadataResponse },
  ProduceResponse: { producer: onProducerProduceResponse },
  Disconnected: { producer: onProducerDisconnected, consumer: onConsumerDisconnected },
  FindCoordinatorResponse: {
    producer: onProducerFindCoordinatorResponse,
    consumer: onConsumerFindCoordinatorResponse,
  },
  InitProducerIdResponse: { producer: onInitProducerIdResponse },
  AddPartitionsToTxnResponse: { producer: onAddPartitionsToTxnResponse },
  EndTxnResponse: { producer: onEndTxnResponse },
  AddOffsetsToTxnResponse: { producer: onAddOffsetsToTxnResponse },
  TxnOffsetCommitResponse: { producer: onTxnOffsetCommitResponse },
  JoinGroupResponse: { consumer: onConsumerJoinGroupResponse },
  SyncGroupResponse: { consumer: onConsumerSyncGroupResponse },
  HeartbeatResponse: { consumer: onConsumerHeartbeatResponse },
  ConsumerGroupHeartbeatResponse: { consumer: onConsumerGroupHeartbeatResponse },
  OffsetCommitResponse: { consumer: onConsumerOffsetCommitResponse },
  OffsetFetchResponse: { consumer: onConsumerOffsetFetchResponse },
  ListOffsetsResponse: { consumer: onConsumerListOffsetsResponse },
  OffsetsForLeaderEpochResponse: { consumer: onConsumerOffsetsForLeaderEpochResponse },
  ConsumerFetchResponse: { consumer: onConsumerFetchResponse },
};

/** The quorum's news for the controller and the broker (kraft/quorum.ts never imports them). */
setQuorumListener({
  becameLeader: onBecomeRaftLeader,
  lostLeadership: onLoseRaftLeadership,
  committed(w, node, applied) {
    if (node.isController) onControllerCommit(w, node);
    if (node.isBroker) {
      onMetadataApplied(w, node, applied);
      // A batch of NoOpRecords alone (KIP-835, twice a second) moves no partition's leader: the
      // coordinators have nothing to load or drop.
      if (applied.some((r) => r.type !== 'NoOpRecord')) {
        syncLoadedGroups(w, node);
        onTxnMetadataApplied(w, node);
      }
    }
  },
});

/** A marker on __consumer_offsets completes a transaction's offsets at the group coordinator. */
setOffsetsMarkerListener((w, nodeId, partition, producerId, committed) => {
  const node = w.nodes.get(nodeId);
  if (node) onOffsetsTxnMarker(w, node, partition, producerId, committed);
});

/** A processor's producer tells it how its transactions end. */
setTransactionListener(onProcessorTransaction);

/** The broker's news: its controlled shutdown is over (broker/broker.ts never imports process.ts). */
setBrokerListener({ stopped: (w, node) => stopProcess(w, node, 'stopped') });

/** Runs one event of the queue; a script step's command goes through `sim.apply`, as a user's would. */
export function dispatch(w: World, item: QueueItem, sim: { apply(command: Command): CommandResult }): void {
  switch (item.t) {
    case 'deliver':
      deliver(w, item);
      return;
    case 'client':
      noteClientActivity(w);
      if (item.name === 'processorCommit') onProcessorTimer(w, item.client, item.token);
      else if (w.consumers.has(item.client)) onConsumerTimer(w, item.client, item.name, item.token);
      else onProducerTimer(w, item.client, item.name, item.token);
      return;
    case 'script': {
      const step = itemAt(w.script, item.index);
      const result = sim.apply(step.command);
      // A script's read-only line leaves its output in the log (a changing one already did).
      if (step.command.type === 'cli' && result.ok && result.readOnly)
        emit(w, 'CliOutput', `$ ${step.command.line}\n${result.output ?? ''}`, {
          line: step.command.line,
          output: result.output ?? '',
        });
      if (!result.ok)
        emit(
          w,
          'CommandRefused',
          `Script step ${item.index} (${step.command.type}) was refused: ${result.error}`,
          {
            error: result.error,
          },
        );
      return;
    }
    case 'timer': {
      const node = w.nodes.get(item.node);
      if (!node || node.state !== 'running' || node.incarnation !== item.incarnation) return;
      switch (item.name) {
        case 'raftElection':
        case 'raftFetchTimeout':
        case 'raftCheckQuorum':
        case 'raftRequestTimeout':
          onRaftTimer(w, node, item.name, item.token);
          return;
        case 'raftParkExpire':
          onParkedRaftFetchExpired(w, node, item.key!, item.token);
          return;
        case 'heartbeat':
        case 'controllerRequestTimeout':
          onBrokerTimer(w, node, item.name, item.token);
          return;
        case 'fenceCheck':
        case 'controllerPeriodic':
        case 'noOpRecord':
          onControllerTimer(w, node, item.name, item.token);
          if (item.name === 'controllerPeriodic') maybeCreateScenarioTopics(w, node);
          return;
        case 'isrShrinkCheck':
          onIsrShrinkCheck(w, node, item.token);
          return;
        case 'fetchRequestTimeout':
          onFetcherTimer(w, node, item.token, item.key!);
          return;
        case 'parkedFetchExpire':
          onParkedFetchExpired(w, node, item.key!, item.token);
          return;
        case 'delayedProduceExpire':
          onDelayedProduceExpired(w, node, item.key!, item.token);
          return;
        case 'alterPartitionRetry':
          onAlterPartitionRetry(w, node, item.key!, item.token);
          return;
        case 'retention':
          onRetentionCheck(w, node);
          return;
        case 'groupTimer':
          onGroupTimer(w, node, item.key!, item.token);
          return;
        case 'consumerFetchExpire':
          onConsumerFetchExpired(w, node, item.token);
          return;
        case 'txnAbortTimedOut':
          onAbortTimedOutTransactions(w, node, item.token);
          return;
        case 'txnMarkers':
          onTxnMarkerTimer(w, node, item.token);
          return;
      }
    }
  }
}

function deliver(w: World, msg: Message): void {
  w.network.inFlight--;
  // A link cut while the packet was on the wire loses it too.
  if (!reachable(w, msg.from, msg.to)) {
    trailDrop(w.messageTrail, msg.seq, w.nowMs, msg.from, msg.to, msg.body, 'link cut');
    return;
  }
  if (typeof msg.to === 'string') {
    deliverToClient(w, msg, msg.to);
    return;
  }
  const node = w.nodes.get(msg.to);
  const route = ROUTES[msg.body.kind];
  if (!node || node.state !== 'running' || node.incarnation !== msg.toIncarnation) {
    trailDrop(w.messageTrail, msg.seq, w.nowMs, msg.from, msg.to, msg.body, 'receiver down');
    if (route?.refused && node && node.state !== 'running')
      send(
        w,
        msg.to,
        msg.from,
        { kind: 'Disconnected', requestKind: msg.body.kind },
        msg.reqId,
        msg.fromIncarnation,
      );
    return;
  }
  // A request to a node without the memory it needs (a controller-only node, a broker-only one) is dropped.
  if (route && (route.needs === null || node[route.needs])) (route.handle as Handler)(w, node, msg);
}

function deliverToClient(w: World, msg: Message, id: string): void {
  const route = CLIENT_ROUTES[msg.body.kind] as ClientRoute<MessageKind> | undefined;
  const b = msg.body;
  if (b.kind !== 'ConsumerFetchResponse' || b.error || b.parts.length > 0) noteClientActivity(w);
  const c = w.consumers.get(id);
  if (c) {
    if (c.state === 'stopped' || c.state === 'crashed') {
      trailDrop(w.messageTrail, msg.seq, w.nowMs, msg.from, msg.to, msg.body, 'receiver down');
      return;
    }
    if (route?.consumer?.(w, c, msg) !== true) consumerTick(w, c);
    // The application's side of poll(): a processor, or a consumer's processing (processMs).
    if (c.polled?.length) {
      if (c.processorId) onProcessorPolled(w, c);
      else onConsumerPolled(w, c);
    }
    return;
  }
  const p = w.producers.get(id);
  if (!p) return;
  // An answer other than a refused connection: the producer's connection to that broker works.
  if (msg.body.kind !== 'Disconnected' && typeof msg.from === 'number')
    connectionWorks(p.connections, msg.from);
  if (route?.producer?.(w, p, msg) !== true) drain(w, p);
  if (p.processorId) onProcessorProducerProgress(w, p);
}

/** Scenario topics are created once every scenario broker is registered and unfenced (or after 10 s). */
function maybeCreateScenarioTopics(w: World, node: SimNode): void {
  if (w.scenarioTopics.length === 0 || !node.controller?.active) return;
  const img = node.controller.work!;
  const brokers = [...w.nodes.values()].filter((n) => n.isBroker);
  const ready = brokers.every((n) => img.brokers.get(n.id)?.fenced === false);
  if (!ready && w.nowMs < 10000) return;
  const topics = w.scenarioTopics;
  w.scenarioTopics = [];
  for (const t of topics) {
    const error = createTopic(w, node, t);
    if (error)
      emit(w, 'CommandRefused', `Topic ${t.name} of the scenario could not be created: ${error}`, {
        topic: t.name,
        error,
      });
  }
}
