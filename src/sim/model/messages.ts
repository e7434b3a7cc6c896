// What travels on the simulated network: Kafka's RPCs, by their API names.

import type { MetaEntry, PartitionState } from './metadata';
import type { Acks, NodeId } from './types';

export type Addr = NodeId | string;

/** A record as stored in a partition log. Shared by reference between replicas (immutable). */
export interface LogRecord {
  id: number;
  epoch: number;
  key: string | null;
  value: string;
  producerId: string;
  /** Idempotent producer id and sequence; -1 when not idempotent. */
  pid: number;
  seq: number;
  /** CreateTime, set by the producer; retention.ms counts from it. */
  timestampMs: number;
  /** A transactional producer's epoch (KIP-98); absent for other records. */
  producerEpoch?: number;
  /** Part of a transaction (the batch's isTransactional flag); absent otherwise. */
  transactional?: true;
  /** A control record (ControlRecordType): the COMMIT or ABORT marker of a transaction; absent for data. */
  control?: 'COMMIT' | 'ABORT';
}

export interface FetchPart {
  /** tpKey(topic, partition), as the follower already has it (saves the leader building it). */
  key?: string;
  topic: string;
  partition: number;
  fetchOffset: number;
  lastFetchedEpoch: number;
  currentLeaderEpoch: number;
  /** The follower's own cap for this partition (a throttled replica asks for no more than its quota allows). */
  maxBytes?: number;
}

export interface FetchRespPart {
  /** The request part's key, echoed. */
  key?: string;
  topic: string;
  partition: number;
  error?: string;
  highWatermark: number;
  logStartOffset: number;
  records: LogRecord[];
  /** Size of `records` on the wire (see recordSizeBytes). */
  bytes?: number;
  /** The offset of records[0] when the leader forgot the records from fetchOffset on (the simulator's record ceiling). */
  firstOffset?: number;
  divergingEpoch?: { epoch: number; endOffset: number };
}

export interface MetadataPartition {
  topic: string;
  partition: number;
  leader: NodeId;
  leaderEpoch: number;
  replicas: NodeId[];
  isr: NodeId[];
}

export type Body =
  | {
      kind: 'Vote';
      epoch: number;
      candidateId: NodeId;
      lastEpoch: number;
      lastOffset: number;
      preVote: boolean;
    }
  | { kind: 'VoteResponse'; epoch: number; granted: boolean; preVote: boolean; leaderId: NodeId | null }
  | { kind: 'BeginQuorumEpoch'; epoch: number; leaderId: NodeId }
  | { kind: 'RaftFetch'; epoch: number; replicaId: NodeId; fetchOffset: number; lastFetchedEpoch: number }
  | {
      kind: 'RaftFetchResponse';
      epoch: number;
      leaderId: NodeId | null;
      error?: 'NOT_LEADER_OR_FOLLOWER' | 'FENCED_LEADER_EPOCH';
      entries: MetaEntry[];
      highWatermark: number;
      divergingEpoch?: { epoch: number; endOffset: number };
    }
  | { kind: 'BrokerRegistration'; brokerId: NodeId; rack: string | null; previousBrokerEpoch: number }
  | { kind: 'BrokerRegistrationResponse'; error?: string; brokerEpoch: number }
  | {
      kind: 'BrokerHeartbeat';
      brokerId: NodeId;
      brokerEpoch: number;
      currentMetadataOffset: number;
      wantFence: boolean;
      wantShutDown: boolean;
    }
  | {
      kind: 'BrokerHeartbeatResponse';
      error?: string;
      isCaughtUp: boolean;
      isFenced: boolean;
      shouldShutDown: boolean;
    }
  | {
      kind: 'AlterPartition';
      brokerId: NodeId;
      brokerEpoch: number;
      topic: string;
      partition: number;
      leaderEpoch: number;
      partitionEpoch: number;
      newIsr: NodeId[];
    }
  | {
      kind: 'AlterPartitionResponse';
      topic: string;
      partition: number;
      error?: string;
      state?: PartitionState;
    }
  | { kind: 'Fetch'; replicaId: NodeId; parts: FetchPart[] }
  | { kind: 'FetchResponse'; parts: FetchRespPart[] }
  | {
      kind: 'Produce';
      topic: string;
      partition: number;
      acks: Acks;
      timeoutMs: number;
      /** Each with epoch -1: the leader stamps its leader epoch on them as it appends. */
      records: LogRecord[];
      /**
       * AppendOrigin.COORDINATOR: the group coordinator's own append of a TxnOffsetCommit, written
       * with the producer's id and epoch but no sequence numbers (no sequence check is made).
       */
      origin?: 'coordinator';
      /** ProduceRequest.transactionalId: set by a transactional producer (the leader verifies with its coordinator, KIP-890). */
      transactionalId?: string;
    }
  | {
      kind: 'ProduceResponse';
      topic: string;
      partition: number;
      error?: string;
      baseOffset: number;
      /** KIP-951: the new leader, when the error is NOT_LEADER_OR_FOLLOWER. */
      currentLeader?: { leaderId: NodeId; leaderEpoch: number };
    }
  | { kind: 'Metadata'; topics: string[] }
  | { kind: 'MetadataResponse'; brokers: NodeId[]; partitions: MetadataPartition[]; unknownTopics: string[] }
  /** The peer's process is down: the connection was refused or reset. */
  | { kind: 'Disconnected'; requestKind: string }
  // ---- consumer groups (classic protocol) and consumer fetches: see groupCoordinator.ts, consumer.ts
  /** keyType 'transaction' (FindCoordinatorRequest key type 1): `groupId` holds the transactional.id. */
  | { kind: 'FindCoordinator'; groupId: string; keyType?: 'transaction' }
  | {
      kind: 'FindCoordinatorResponse';
      groupId: string;
      keyType?: 'transaction';
      error?: string;
      nodeId: NodeId;
    }
  | TxnRequest
  | TxnResponse
  | GroupRequest
  | GroupResponse
  | {
      kind: 'ConsumerFetch';
      /** KIP-227: 0 with epoch 0 opens a session; an id with epoch 0 closes it and opens another. */
      sessionId: number;
      sessionEpoch: number;
      /** A full fetch: every partition; an incremental one: only those added or changed. */
      parts: ConsumerFetchPart[];
      /** Partitions to drop from the session ("forgotten topics data"). */
      forgotten: { topic: string; partition: number }[];
      maxWaitMs: number;
      /** isolation.level=read_committed (FetchRequest isolation_level 1); absent for read_uncommitted. */
      readCommitted?: true;
    }
  | {
      kind: 'ConsumerFetchResponse';
      /** FETCH_SESSION_ID_NOT_FOUND or INVALID_FETCH_SESSION_EPOCH: the consumer starts a new session. */
      error?: string;
      sessionId: number;
      parts: ConsumerFetchRespPart[];
    }
  | {
      kind: 'ListOffsets';
      parts: { topic: string; partition: number; timestamp: -1 | -2 }[];
      /** isolation.level=read_committed: latest is the last stable offset, not the high watermark. */
      readCommitted?: true;
    }
  | {
      kind: 'ListOffsetsResponse';
      parts: { topic: string; partition: number; error?: string; offset: number; leaderEpoch: number }[];
    }
  | { kind: 'OffsetsForLeaderEpoch'; parts: EpochQueryPart[] }
  | { kind: 'OffsetsForLeaderEpochResponse'; parts: EpochAnswerPart[] };

export interface ConsumerFetchPart {
  topic: string;
  partition: number;
  fetchOffset: number;
  currentLeaderEpoch: number;
}

export interface ConsumerFetchRespPart {
  topic: string;
  partition: number;
  error?: string;
  highWatermark: number;
  logStartOffset: number;
  records: LogRecord[];
  /** The offset of records[0] when the leader forgot the records from the fetch offset on (the simulator's record ceiling). */
  firstOffset?: number;
  /** read_committed only: the partition's last stable offset and the aborted transactions in range. */
  lastStableOffset?: number;
  abortedTransactions?: AbortedTxn[];
}

/** FetchResponse.AbortedTransaction: a producer's aborted transaction starting at firstOffset. */
export interface AbortedTxn {
  producerId: number;
  firstOffset: number;
}

/**
 * The transaction RPCs (KIP-98): to the transaction coordinator (InitProducerId, AddPartitionsToTxn,
 * EndTxn) and from it to the partition leaders (WriteTxnMarkers, one partition per request here).
 */
export type TxnRequest =
  | {
      kind: 'InitProducerId';
      transactionalId: string;
      transactionTimeoutMs: number;
    }
  | {
      kind: 'AddPartitionsToTxn';
      transactionalId: string;
      producerId: number;
      producerEpoch: number;
      partitions: TopicPartition[];
      /**
       * KIP-890 part 1 (AddPartitionsToTxn v4+, from a partition leader): only check that the
       * partitions are in the ongoing transaction; the coordinator changes nothing.
       */
      verifyOnly?: true;
    }
  | {
      kind: 'EndTxn';
      transactionalId: string;
      producerId: number;
      producerEpoch: number;
      committed: boolean;
    }
  | {
      // sendOffsetsToTransaction, first step: the group's __consumer_offsets partition joins the transaction.
      kind: 'AddOffsetsToTxn';
      transactionalId: string;
      producerId: number;
      producerEpoch: number;
      groupId: string;
    }
  | {
      kind: 'WriteTxnMarkers';
      transactionalId: string;
      producerId: number;
      producerEpoch: number;
      /** The leader epoch of the coordinator's __transaction_state partition. */
      coordinatorEpoch: number;
      committed: boolean;
      topic: string;
      partition: number;
    };

export type TxnResponse =
  | { kind: 'InitProducerIdResponse'; error?: string; producerId: number; producerEpoch: number }
  | { kind: 'AddPartitionsToTxnResponse'; error?: string; partitions: TopicPartition[] }
  | { kind: 'EndTxnResponse'; error?: string; committed: boolean }
  | { kind: 'AddOffsetsToTxnResponse'; error?: string; groupId: string }
  | {
      kind: 'WriteTxnMarkersResponse';
      transactionalId: string;
      producerId: number;
      topic: string;
      partition: number;
      error?: string;
      /** The marker's offset in the partition. */
      offset: number;
    };

export interface EpochQueryPart {
  topic: string;
  partition: number;
  /** The epoch of the last record the consumer saw (KIP-320). */
  leaderEpoch: number;
  currentLeaderEpoch: number;
}

export interface EpochAnswerPart {
  topic: string;
  partition: number;
  error?: string;
  leaderEpoch: number;
  endOffset: number;
}

export interface TopicPartition {
  topic: string;
  partition: number;
}

export interface CommittedOffset extends TopicPartition {
  offset: number;
  leaderEpoch: number;
}

/** What a member says in JoinGroup (ConsumerProtocolSubscription). */
export interface Subscription {
  topics: string[];
  ownedPartitions: TopicPartition[];
  /** ConsumerProtocolSubscription v2+ generationId: the member's generation, -1 when it has none. */
  generationId?: number;
  /** The generation in cooperative-sticky's user data: the last one the member was assigned in. */
  userDataGeneration?: number;
}

export type GroupRequest =
  | {
      kind: 'JoinGroup';
      groupId: string;
      memberId: string;
      clientId: string;
      sessionTimeoutMs: number;
      rebalanceTimeoutMs: number;
      /** Assignor names in the member's order of preference, with its subscription. */
      protocols: string[];
      subscription: Subscription;
    }
  | {
      kind: 'SyncGroup';
      groupId: string;
      memberId: string;
      generation: number;
      /** From the leader only: member id → partitions. */
      assignments: { memberId: string; partitions: TopicPartition[] }[];
    }
  | { kind: 'Heartbeat'; groupId: string; memberId: string; generation: number }
  | { kind: 'LeaveGroup'; groupId: string; memberId: string }
  | {
      kind: 'OffsetCommit';
      groupId: string;
      memberId: string;
      generation: number;
      offsets: CommittedOffset[];
    }
  | {
      kind: 'OffsetFetch';
      groupId: string;
      partitions: TopicPartition[];
      /** KIP-447 require_stable (a read_committed consumer): refuse an offset a transaction has pending. */
      requireStable?: true;
    }
  | {
      // sendOffsetsToTransaction, second step (KIP-447): to the group coordinator, with the
      // producer's id and epoch and the consumer's group metadata; visible once the marker lands.
      kind: 'TxnOffsetCommit';
      groupId: string;
      transactionalId: string;
      producerId: number;
      producerEpoch: number;
      memberId: string;
      generation: number;
      offsets: CommittedOffset[];
    }
  | {
      // KIP-848 ConsumerGroupHeartbeatRequest: join (memberEpoch 0), heartbeat, leave (-1).
      kind: 'ConsumerGroupHeartbeat';
      groupId: string;
      memberId: string;
      memberEpoch: number;
      clientId: string;
      rebalanceTimeoutMs: number;
      subscribedTopicNames: string[];
      /** group.remote.assignor, null for the group's default. */
      serverAssignor: string | null;
      /** The partitions the member owns now: how it acknowledges a revocation. */
      topicPartitions: TopicPartition[];
    };

export type GroupResponse =
  | {
      kind: 'JoinGroupResponse';
      groupId: string;
      error?: string;
      memberId: string;
      generation: number;
      protocol: string;
      leaderId: string;
      /** For the leader only: every member and its subscription. */
      members: { memberId: string; subscription: Subscription }[];
    }
  | { kind: 'SyncGroupResponse'; groupId: string; error?: string; partitions: TopicPartition[] }
  | { kind: 'HeartbeatResponse'; groupId: string; error?: string }
  | { kind: 'LeaveGroupResponse'; groupId: string; error?: string }
  | { kind: 'OffsetCommitResponse'; groupId: string; error?: string; offsets: CommittedOffset[] }
  | {
      kind: 'OffsetFetchResponse';
      groupId: string;
      error?: string;
      /** A partition's error: UNSTABLE_OFFSET_COMMIT while a transaction holds an offset for it. */
      offsets: (CommittedOffset & { error?: string })[];
    }
  | { kind: 'TxnOffsetCommitResponse'; groupId: string; error?: string; offsets: CommittedOffset[] }
  | {
      kind: 'ConsumerGroupHeartbeatResponse';
      groupId: string;
      error?: string;
      errorMessage?: string;
      memberId: string;
      memberEpoch: number;
      heartbeatIntervalMs: number;
      /** The partitions the member may own now (its target minus what others still hold). */
      assignment: TopicPartition[] | null;
    };

/** The kinds of message. */
export type MessageKind = Body['kind'];

/** A message whose body is of kind K (what the dispatcher hands that kind's handler). */
export type MessageOf<K extends MessageKind> = Message & { body: Extract<Body, { kind: K }> };

export interface Message {
  /** A message is itself the event-queue item that delivers it (one allocation less per send). */
  t: 'deliver';
  /** When it arrives, and the order it was sent in (see Timed). */
  dueMs: number;
  seq: number;
  from: Addr;
  to: Addr;
  /** Correlation id: a response carries the id of its request. */
  reqId: number;
  /** The receiver's incarnation when sent: a restarted process never sees old connections. */
  toIncarnation: number;
  /** The sender's incarnation: replies are addressed to it. */
  fromIncarnation: number;
  body: Body;
}

/** A record's size on the wire: key and value plus Kafka's per-record and batch overhead (as the producer counts it). */
export function recordSizeBytes(rec: { key: string | null; value: string }): number {
  return 70 + (rec.key?.length ?? 0) + rec.value.length;
}
