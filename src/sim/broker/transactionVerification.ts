// KIP-890 part 1, the partition leader's side (ReplicaManager.handleProduceAppend,
// AddPartitionsToTxnManager): with transaction.partition.verification.enable (default true), a
// producer's first transactional batch to a partition is appended only once the transaction
// coordinator confirms, with AddPartitionsToTxn verifyOnly (v4+), that the partition is in the
// producer's ongoing transaction. A late or stray write (sent before an abort, delivered after its
// ABORT marker) is refused, instead of opening a transaction that no marker will ever close (a
// hanging transaction, which pins the last stable offset forever).

import { javaStringHashCode } from '../kernel/javaHash';
import { emit, nextReqId, send } from '../kernel/kernel';
import type { Message, MessageOf } from '../model/messages';
import { tpKey } from '../model/metadata';
import { trailVerification } from '../model/trail';
import type { TxnVerification } from '../model/transactions';
import type { ReplicaMem, SimNode, World } from '../model/world';
import { brokerValue } from './brokerConfig';
import { respondProduce } from './delayedProduce';
import { diskOf } from './logManager';
import { ongoingTransactions } from './transactionIndex';

const TRANSACTION_STATE_TOPIC = '__transaction_state';
/** The broker's request.timeout.ms for its AddPartitionsToTxn (InterBrokerSendThread). */
const VERIFICATION_TIMEOUT_MS = 30000;

/**
 * The coordinator of a transactional.id as this broker's metadata sees it: the leader of its
 * __transaction_state partition (TransactionStateManager.partitionFor, which Kafka gives
 * AddPartitionsToTxnManager as `partitionFor`), or -1 (COORDINATOR_NOT_AVAILABLE).
 */
function coordinatorOf(node: SimNode, transactionalId: string): number {
  const img = node.raft!.image;
  const n = img.topics.get(TRANSACTION_STATE_TOPIC)?.partitions ?? 0;
  if (n === 0) return -1;
  const h = javaStringHashCode(transactionalId);
  const p = (h === -2147483648 ? 0 : Math.abs(h)) % n;
  const leader = img.partitions.get(tpKey(TRANSACTION_STATE_TOPIC, p))?.leader ?? -1;
  return leader >= 0 && img.brokers.get(leader)?.fenced === false ? leader : -1;
}

/**
 * Whether the leader holds this Produce for verification (true: it is answered later). A
 * transactional batch is verified when the producer has no ongoing transaction in this partition
 * (UnifiedLog.maybeStartTransactionVerification): its first batch of a transaction here.
 */
export function holdForVerification(
  w: World,
  node: SimNode,
  mem: ReplicaMem,
  msg: MessageOf<'Produce'>,
): boolean {
  const body = msg.body;
  const first = body.records[0];
  if (!body.transactionalId || !first?.transactional || first.pid < 0) return false;
  if (brokerValue(w, node, 'transaction.partition.verification.enable') !== true) return false;
  const verifications = (node.broker!.txnVerifications ??= new Map());
  // Batches of the same producer behind a verification in flight wait for the same answer, in
  // order; one unanswered for the inter-broker request.timeout.ms (a lost request) fails first.
  for (const [reqId, v] of verifications)
    if (v.producerId === first.pid && v.topic === body.topic && v.partition === body.partition) {
      if (w.nowMs - v.sentAtMs >= VERIFICATION_TIMEOUT_MS) {
        takeVerification(w, node, reqId, 'NETWORK_EXCEPTION');
        break;
      }
      v.requests.push(msg);
      return true;
    }
  if (ongoingTransactions(diskOf(node, mem.key)).has(first.pid)) return false;
  const coordinator = coordinatorOf(node, body.transactionalId);
  if (coordinator < 0) {
    refuse(w, node, msg, 'COORDINATOR_NOT_AVAILABLE', -1);
    trailVerification(w.trail, {
      nodeId: node.id,
      coordinator: -1,
      transactionalId: body.transactionalId,
      topic: body.topic,
      partition: body.partition,
      recordIds: body.records.map((r) => r.id),
      askedAtMs: w.nowMs,
      answeredAtMs: w.nowMs,
      error: produceError('COORDINATOR_NOT_AVAILABLE'),
    });
    return true;
  }
  const reqId = nextReqId(w);
  (mem.verificationGuards ??= new Map()).set(first.pid, reqId);
  const v: TxnVerification = {
    topic: body.topic,
    partition: body.partition,
    transactionalId: body.transactionalId,
    producerId: first.pid,
    producerEpoch: first.producerEpoch ?? 0,
    coordinator,
    sentAtMs: w.nowMs,
    guard: reqId,
    requests: [msg],
  };
  verifications.set(reqId, v);
  send(
    w,
    node.id,
    coordinator,
    {
      kind: 'AddPartitionsToTxn',
      transactionalId: v.transactionalId,
      producerId: v.producerId,
      producerEpoch: v.producerEpoch,
      partitions: [{ topic: v.topic, partition: v.partition }],
      verifyOnly: true,
    },
    reqId,
  );
  return true;
}

/**
 * The coordinator's answer (or NETWORK_EXCEPTION when it could not be asked): the verification is
 * over; the requests to append now, or none when it failed (each was answered with the error).
 */
export function takeVerification(
  w: World,
  node: SimNode,
  reqId: number,
  coordinatorError: string | undefined,
): Message[] {
  const v = node.broker!.txnVerifications?.get(reqId);
  if (!v) return [];
  node.broker!.txnVerifications!.delete(reqId);
  const mem = node.broker!.replicas.get(tpKey(v.topic, v.partition));
  // VerificationGuard: a marker for this producer written meanwhile ended the transaction verified.
  const guarded = mem?.verificationGuards?.get(v.producerId) === v.guard;
  const error = coordinatorError ?? (guarded || !mem ? undefined : 'INVALID_TXN_STATE');
  // Observe-only: the journey's "verified" or "refused" stage.
  trailVerification(w.trail, {
    nodeId: node.id,
    coordinator: v.coordinator,
    transactionalId: v.transactionalId,
    topic: v.topic,
    partition: v.partition,
    recordIds: v.requests.flatMap((m) => (m as MessageOf<'Produce'>).body.records.map((r) => r.id)),
    askedAtMs: v.sentAtMs,
    answeredAtMs: w.nowMs,
    ...(error ? { error: produceError(error) } : {}),
  });
  if (!error) return v.requests;
  if (mem?.verificationGuards?.get(v.producerId) === v.guard) mem.verificationGuards.delete(v.producerId);
  for (const msg of v.requests) refuse(w, node, msg as MessageOf<'Produce'>, error, v.coordinator);
  return [];
}

/** A verification whose coordinator's process is down (connection refused or reset). */
export function verificationDisconnected(w: World, node: SimNode, reqId: number): void {
  takeVerification(w, node, reqId, 'NETWORK_EXCEPTION');
}

/** A transaction marker for the producer ends what was verified here (its guard is cleared). */
export function clearVerificationGuard(mem: ReplicaMem, producerId: number): void {
  mem.verificationGuards?.delete(producerId);
}

/**
 * ReplicaManager.handleProduceAppend translates the coordinator's answer to errors a producer
 * knows: a partition not in the transaction is INVALID_TXN_STATE (TRANSACTION_ABORTABLE from
 * the coordinator, for produce versions before KIP-890 part 2), PRODUCER_FENCED is
 * INVALID_PRODUCER_EPOCH, and what may pass on a retry is NOT_ENOUGH_REPLICAS, which older
 * producers retry without refreshing metadata.
 */
function produceError(coordinatorError: string): string {
  switch (coordinatorError) {
    case 'TRANSACTION_ABORTABLE':
      return 'INVALID_TXN_STATE';
    case 'PRODUCER_FENCED':
      return 'INVALID_PRODUCER_EPOCH';
    case 'NETWORK_EXCEPTION':
    case 'COORDINATOR_LOAD_IN_PROGRESS':
    case 'COORDINATOR_NOT_AVAILABLE':
    case 'NOT_COORDINATOR':
    case 'CONCURRENT_TRANSACTIONS':
      return 'NOT_ENOUGH_REPLICAS';
    default:
      return coordinatorError;
  }
}

function refuse(
  w: World,
  node: SimNode,
  msg: MessageOf<'Produce'>,
  coordinatorError: string,
  coordinator: number,
): void {
  const body = msg.body;
  const error = produceError(coordinatorError);
  const first = body.records[0]!;
  const tp = tpKey(body.topic, body.partition);
  emit(
    w,
    'TransactionVerificationFailed',
    `Broker ${node.id} refuses a transactional batch of ${first.producerId} (producer id ${first.pid}, epoch ${first.producerEpoch ?? 0}) to ${tp}: ${error}. ${
      error === 'INVALID_TXN_STATE'
        ? `Its transaction coordinator${coordinator >= 0 ? ` (broker ${coordinator})` : ''} has no ongoing transaction of this producer with ${tp}: the write came too late (KIP-890), and cannot leave a transaction hanging.`
        : error === 'INVALID_PRODUCER_EPOCH'
          ? 'The coordinator knows a newer epoch of this producer: the writer was fenced (KIP-890).'
          : `The transaction coordinator could not verify the partition (${coordinatorError}); the producer retries.`
    }`,
    { nodeId: node.id, topic: body.topic, partition: body.partition, producerId: first.producerId, error },
  );
  if (body.acks !== 0) respondProduce(w, msg, body, error, -1);
}
