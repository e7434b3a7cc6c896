// A transaction's state as its three parties keep it (KIP-98): the producer's TransactionManager,
// the transaction coordinator's TransactionMetadata (in __transaction_state), and a partition's
// ongoing transactions and aborted-transaction index (ProducerStateManager, the .txnindex file).

import type { CommittedOffset, Message } from './messages';
import type { DeadlineTimer } from './timers';
import type { NodeId } from './types';

/** A transaction of one producer in one partition: its first offset, and its marker's offset once written. */
export interface TxnRange {
  producerId: number;
  firstOffset: number;
  /** The offset of its COMMIT or ABORT marker. */
  lastOffset: number;
}

/**
 * ProducerStateManager's ongoing transactions and the aborted-transaction index (.txnindex) of a
 * partition, built from the log up to `upTo` (the record read last is `lastId`, so that a
 * truncation under it is seen and the index rebuilt).
 */
export interface TxnIndex {
  upTo: number;
  lastId: number;
  /** Producer id → the first offset of its open transaction. */
  ongoing: Map<number, number>;
  /** Completed transactions whose marker may not be below the high watermark yet. */
  unstable: TxnRange[];
  /** Aborted transactions, oldest first (AbortedTxn entries of the .txnindex file). */
  aborted: TxnRange[];
}

/** TransactionManager.State. */
export type TxnClientState =
  | 'UNINITIALIZED'
  | 'INITIALIZING'
  | 'READY'
  | 'IN_TRANSACTION'
  | 'COMMITTING_TRANSACTION'
  | 'ABORTING_TRANSACTION'
  | 'ABORTABLE_ERROR'
  | 'FATAL_ERROR';

export interface TransactionState {
  transactionalId: string;
  timeoutMs: number;
  state: TxnClientState;
  /** The transaction coordinator, -1 until FindCoordinator answers. */
  coordinator: NodeId;
  producerEpoch: number;
  /** Partitions ("topic-partition") AddPartitionsToTxn added to the open transaction. */
  partitions: string[];
  /** The one transaction request in flight (TransactionManager sends them one at a time). */
  inFlight: {
    purpose: 'find' | 'init' | 'add' | 'end' | 'addOffsets' | 'findGroup' | 'txnOffsets';
    reqId: number;
    sentAtMs: number;
  } | null;
  /** sendOffsetsToTransaction() not yet done (AddOffsetsToTxn, then TxnOffsetCommit); absent when none. */
  offsets?: TxnOffsets;
  /** No transaction request before this time (retry.backoff.ms after an error). */
  retryAtMs: number;
  token: number;
  timerDueMs: number;
  /** beginTransaction() called before initTransactions() completed: it begins when it does. */
  beginQueued: boolean;
  /** The transaction began at (the loop commits it transactionMs later). */
  beganAtMs: number;
  /** Records of this transaction that failed (it can only be aborted then). */
  failedRecords: number;
  /** Records sent in this transaction (ledger ids), for the committed / aborted outcome. */
  recordIds: number[];
  lastError: string | null;
  committed: number;
  aborted: number;
}

/** The consumer's offsets and group metadata given to sendOffsetsToTransaction (KIP-447). */
export interface TxnOffsets {
  groupId: string;
  memberId: string;
  generation: number;
  offsets: CommittedOffset[];
  /** AddOffsetsToTxn answered: the group's __consumer_offsets partition is in the transaction. */
  added: boolean;
  /** The group coordinator (FindCoordinator key type GROUP), -1 until known. */
  coordinator: NodeId;
}

/** TransactionState (TransactionMetadata's states). */
export type TxnState =
  | 'Empty'
  | 'Ongoing'
  | 'PrepareCommit'
  | 'PrepareAbort'
  | 'CompleteCommit'
  | 'CompleteAbort'
  | 'PrepareEpochFence';

/** TransactionMetadata: one transactional.id at its coordinator. */
export interface TxnMetadata {
  transactionalId: string;
  /** The __transaction_state partition that holds it. */
  statePartition: number;
  producerId: number;
  producerEpoch: number;
  timeoutMs: number;
  state: TxnState;
  /** Partitions ("topic-partition") of the transaction. */
  partitions: string[];
  startMs: number;
  /** A transition being written to __transaction_state: nothing else happens to it meanwhile. */
  pending: TxnState | null;
  /** Prepare*: partitions whose marker is not written yet, and the request in flight to each. */
  markersPending: string[];
  markerInFlight: Record<string, { reqId: number; sentAtMs: number }>;
  markerOffsets: Record<string, number>;
}

/** A broker's transaction coordinator memory (TransactionStateManager); gone with the process. */
export interface TxnCoordinatorMem {
  txns: Map<string, TxnMetadata>;
  /** Per __transaction_state partition this broker leads: the leader epoch it loaded at. */
  loaded: Map<number, number>;
  /** Appends to __transaction_state in flight: reqId → what to do when it completes. */
  appends: Map<number, TxnAppend>;
  abortTimer: DeadlineTimer;
  markerTimer: DeadlineTimer;
  topicWarnedAtMs: number;
}

export interface TxnAppend {
  transactionalId: string;
  /** The state the append moves the transaction to, and the metadata written. */
  target: TxnState;
  record: Pick<TxnMetadata, 'producerId' | 'producerEpoch' | 'timeoutMs' | 'partitions' | 'startMs'>;
  /** The client request to answer when the append completes (InitProducerId, AddPartitionsToTxn, EndTxn). */
  request: Message | null;
}

/** A completed transaction as its coordinator wrote it (kept for the invariants and views). */
export interface CompletedTxn {
  transactionalId: string;
  producerId: number;
  producerEpoch: number;
  committed: boolean;
  atMs: number;
  /** Each partition's marker offset. */
  markers: Record<string, number>;
}

/**
 * KIP-890 part 1 on a partition leader (AddPartitionsToTxnManager): a producer's first transactional
 * batch to this partition waits while the transaction coordinator verifies that the partition is in
 * its ongoing transaction; later batches of the same producer to the partition wait behind it.
 */
export interface TxnVerification {
  topic: string;
  partition: number;
  transactionalId: string;
  producerId: number;
  producerEpoch: number;
  coordinator: NodeId;
  sentAtMs: number;
  /** The VerificationGuard this check set on the replica (a marker written meanwhile clears it). */
  guard: number;
  /** The Produce requests waiting for the answer, in arrival order. */
  requests: Message[];
}
