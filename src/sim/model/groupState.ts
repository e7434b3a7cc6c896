// A broker's group coordinator memory (GroupCoordinator, GroupMetadataManager): its groups and
// their members, committed offsets, appends in flight to __consumer_offsets, and the consumer fetch
// sessions (KIP-227) the broker keeps beside them.

import type { Addr, CommittedOffset, Message, MessageOf, Subscription, TopicPartition } from './messages';
import type { DeadlineTimer } from './timers';
import type { GroupState } from './views';

export interface GroupMember {
  memberId: string;
  clientId: string;
  protocols: string[];
  subscription: Subscription;
  assignment: TopicPartition[];
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  /** Session expires at this time unless a heartbeat or request comes first. */
  expiresAtMs: number;
  /** A JoinGroup waiting for the rebalance to complete. */
  pendingJoin: Message | null;
  pendingSync: Message | null;
  /** KIP-848 members only (consumerGroup.ts): the member epoch and the one before it. */
  memberEpoch?: number;
  previousMemberEpoch?: number;
  /** KIP-848 MemberState: 'stable', 'unrevoked-partitions' or 'unreleased-partitions'. */
  memberState?: MemberState;
  /** KIP-848: partitions the member must give up before others get them. */
  pendingRevocation?: TopicPartition[];
  /** KIP-848: the member's part of the target assignment. */
  target?: TopicPartition[];
  /** KIP-848: the server assignor the member asked for (group.remote.assignor), null for the default. */
  serverAssignor?: string | null;
}

export type MemberState = 'stable' | 'unrevoked-partitions' | 'unreleased-partitions';

export interface GroupMem {
  groupId: string;
  /** The leader epoch of the __consumer_offsets partition the group was loaded at. */
  loadedEpoch: number;
  state: GroupState;
  generation: number;
  protocol: string;
  leaderId: string | null;
  members: Map<string, GroupMember>;
  /** Committed offsets: "topic-partition" → offset and leader epoch. */
  offsets: Map<string, { topic: string; partition: number; offset: number; leaderEpoch: number }>;
  /** When PreparingRebalance ends at the latest (rebalance timeout or initial delay). */
  joinDeadlineMs: number;
  /** group.initial.rebalance.delay.ms: the first rebalance of an empty group waits this long for more members. */
  initialDelay: boolean;
  timer: DeadlineTimer;
  nextMemberSeq: number;
  /**
   * Offsets a transaction committed (TxnOffsetCommit, KIP-98/447), per producer id, not visible to
   * the group until that producer's COMMIT marker reaches the group's __consumer_offsets partition
   * (GroupMetadata.pendingTransactionalOffsetCommits). Absent until the first.
   */
  txnOffsets?: Map<
    number,
    Map<string, { topic: string; partition: number; offset: number; leaderEpoch: number }>
  >;
  /** 'consumer' for a KIP-848 group (consumerGroup.ts); absent for a classic group. */
  type?: 'consumer';
  /** KIP-848: bumped on every membership or subscription change. */
  groupEpoch?: number;
  /** KIP-848: the group epoch the target assignment was computed at. */
  assignmentEpoch?: number;
  /** KIP-848: the subscribed topics with their partition counts; a change bumps the group epoch. */
  subscriptionMetadata?: string;
}

/** The leader's side of a consumer fetch session (FetchSession.scala's CachedPartition per partition). */
export interface ConsumerFetchSession {
  id: number;
  owner: Addr;
  /** The epoch the next incremental request must carry. */
  epoch: number;
  parts: SessionPartition[];
}

export interface SessionPartition {
  topic: string;
  partition: number;
  /** tpKey(topic, partition). */
  tp: string;
  fetchOffset: number;
  currentLeaderEpoch: number;
  /** The high watermark and log start offset last sent: an incremental response leaves out a partition where neither changed. */
  highWatermark: number;
  logStartOffset: number;
}

export interface CoordinatorMem {
  groups: Map<string, GroupMem>;
  /**
   * Appends to __consumer_offsets in flight: reqId → the commit to answer when it completes (null:
   * an Admin client's AlterConsumerGroupOffsets from a tool, which waits for no answer here).
   */
  appends: Map<
    number,
    {
      groupId: string;
      request: Message | null;
      offsets: CommittedOffset[];
      /** A TxnOffsetCommit's append: the offsets stay pending for this producer id. */
      txnProducerId?: number;
    }
  >;
  /** Consumer fetch sessions (KIP-227, FetchSessionCache) by session id. */
  fetchSessions: Map<number, ConsumerFetchSession>;
  /** The last session id given out here (Kafka draws them at random; a counter keeps runs reproducible). */
  lastFetchSessionId: number;
  /** Consumer fetches parked until data arrives or fetch.max.wait.ms passes, keyed by request id (unique in the world), with their session. */
  parked: Map<number, { msg: MessageOf<'ConsumerFetch'>; expiresAtMs: number; sessionId: number }>;
  parkTimer: DeadlineTimer;
  /** Last time this broker reported that __consumer_offsets cannot be created yet. */
  offsetsTopicWarnedAtMs: number;
}
