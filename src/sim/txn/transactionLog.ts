// The __transaction_state topic (TransactionLog, TransactionStateManager.partitionFor): which of its
// partitions holds a transactional.id (abs(hash(transactionalId)) % N, so that partition's leader
// is its transaction coordinator), its creation on first use, and its record format.

import { activeController } from '../kraft/quorumController';
import { createTopic } from '../kraft/replicationControl';
import { javaStringHashCode } from '../kernel/javaHash';
import { emit } from '../kernel/kernel';
import { tpKey } from '../model/metadata';
import type { SimNode, TxnCoordinatorMem, TxnMetadata, World } from '../model/world';

export const TRANSACTION_STATE_TOPIC = '__transaction_state';

/** TransactionStateManager.partitionFor: Utils.abs(transactionalId.hashCode) % transactionTopicPartitionCount. */
export function txnPartitionFor(transactionalId: string, numPartitions: number): number {
  const h = javaStringHashCode(transactionalId);
  return (h === -2147483648 ? 0 : Math.abs(h)) % numPartitions;
}

/** The partition count of __transaction_state as a broker sees it (the config until it exists). */
export function txnPartitionCount(w: World, node: SimNode | null): number {
  const t = node?.raft?.image.topics.get(TRANSACTION_STATE_TOPIC);
  return t ? t.partitions : Number(w.config['transaction.state.log.num.partitions']);
}

/** The __transaction_state partition ("topic-partition") of a transactional.id, as this broker sees the topic. */
export function txnStateTp(w: World, node: SimNode, transactionalId: string): string {
  return tpKey(TRANSACTION_STATE_TOPIC, txnPartitionFor(transactionalId, txnPartitionCount(w, node)));
}

/**
 * The __consumer_offsets partition that holds a group (GroupCoordinator.partitionFor, the same
 * abs(hashCode) % partitions as above), which AddOffsetsToTxn adds to a transaction. The group
 * coordinator computes it the same way (groups/offsetsTopic.ts; txn/ does not import groups/).
 */
export function groupOffsetsTp(w: World, node: SimNode, groupId: string): string {
  const t = node.raft?.image.topics.get('__consumer_offsets');
  const count = t ? t.partitions : Number(w.config['offsets.topic.num.partitions']);
  return tpKey('__consumer_offsets', txnPartitionFor(groupId, count));
}

/**
 * AutoTopicCreationManager: __transaction_state is created on the first FindCoordinator of a
 * transactional.id, with transaction.state.log.replication.factor replicas (it waits for that many
 * brokers) and min.insync.replicas = transaction.state.log.min.isr, compacted (TransactionLog).
 */
export function maybeCreateTransactionStateTopic(w: World, node: SimNode, mem: TxnCoordinatorMem): void {
  const ctl = activeController(w);
  if (!ctl || ctl.controller!.work!.topics.has(TRANSACTION_STATE_TOPIC)) return;
  const rf = Number(w.config['transaction.state.log.replication.factor']);
  const partitions = Number(w.config['transaction.state.log.num.partitions']);
  const alive = [...ctl.controller!.work!.brokers.values()].filter((x) => !x.fenced).length;
  if (alive < rf) {
    if (w.nowMs - mem.topicWarnedAtMs < 30000) return;
    mem.topicWarnedAtMs = w.nowMs;
    emit(
      w,
      'TransactionStateTopicNotCreated',
      `Number of alive brokers '${alive}' does not meet the required replication factor '${rf}' for the transactions state topic (configured via 'transaction.state.log.replication.factor'). Transactional producers get COORDINATOR_NOT_AVAILABLE until enough brokers are up.`,
      { nodeId: node.id, topic: TRANSACTION_STATE_TOPIC },
    );
    return;
  }
  const error = createTopic(w, ctl, {
    name: TRANSACTION_STATE_TOPIC,
    partitions,
    replicationFactor: rf,
    config: {
      'cleanup.policy': 'compact',
      'min.insync.replicas': Number(w.config['transaction.state.log.min.isr']),
    },
  });
  if (error)
    emit(w, 'TransactionStateTopicNotCreated', `${TRANSACTION_STATE_TOPIC} could not be created: ${error}`, {
      error,
    });
}

/** TransactionLog.keyToBytes: one key per transactional.id, so compaction keeps its latest state. */
export const txnLogKey = (transactionalId: string) => JSON.stringify(['txn', transactionalId]);

/** TransactionLog.valueToBytes: TransactionLogValue (producer id and epoch, timeout, state, partitions, start). */
export type TxnLogValue = Pick<
  TxnMetadata,
  'producerId' | 'producerEpoch' | 'timeoutMs' | 'state' | 'partitions' | 'startMs'
>;

export function txnLogValue(m: Pick<TxnMetadata, keyof TxnLogValue>): string {
  const v: TxnLogValue = {
    producerId: m.producerId,
    producerEpoch: m.producerEpoch,
    timeoutMs: m.timeoutMs,
    state: m.state,
    partitions: m.partitions,
    startMs: m.startMs,
  };
  return JSON.stringify(v);
}

export function readTxnLogKey(key: string | null): string | null {
  if (key === null || !key.startsWith('["txn",')) return null;
  const parsed = JSON.parse(key) as [string, string];
  return parsed[1];
}
