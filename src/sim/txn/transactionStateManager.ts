// TransactionStateManager: a broker's transaction coordinator memory. Each transactional.id's
// TransactionMetadata lives in memory on the leader of its __transaction_state partition; every
// transition is first appended (acks=all) to that partition and takes effect when the append
// completes. A broker that becomes the partition's leader (after a failover too) loads the
// transactions from its local replica of the log.

import { emit, nextReqId, send } from '../kernel/kernel';
import { entryAt, logEndOffset } from '../model/log';
import type { MessageOf } from '../model/messages';
import { tpKey } from '../model/metadata';
import type { SimNode, TxnAppend, TxnCoordinatorMem, TxnMetadata, World } from '../model/world';
import {
  TRANSACTION_STATE_TOPIC,
  readTxnLogKey,
  txnLogKey,
  txnLogValue,
  txnPartitionCount,
  txnPartitionFor,
  type TxnLogValue,
} from './transactionLog';

/** The coordinator's own appends wait this long for the ISR (as the group coordinator's offsets.commit.timeout.ms). */
const TXN_APPEND_TIMEOUT_MS = 5000;

/** This broker's transaction coordinator memory, made on first use; a restarted broker starts with none. */
export function txnMem(w: World, node: SimNode): TxnCoordinatorMem {
  const all = (w.transactions ??= new Map());
  let mem = all.get(node.id);
  if (!mem) {
    mem = {
      txns: new Map(),
      loaded: new Map(),
      appends: new Map(),
      abortTimer: { dueMs: -1, token: 0 },
      markerTimer: { dueMs: -1, token: 0 },
      topicWarnedAtMs: -Infinity,
    };
    all.set(node.id, mem);
  }
  return mem;
}

/** The coordinator's memory is gone with the broker's process (process.ts). */
export function crashTransactionCoordinator(w: World, node: SimNode): void {
  w.transactions?.delete(node.id);
}

/** The leader epoch of __transaction_state partition `p` on this broker, or -1 when it does not lead it. */
export function leaderEpochOf(node: SimNode, p: number): number {
  const mem = node.broker?.replicas.get(tpKey(TRANSACTION_STATE_TOPIC, p));
  return mem && mem.role === 'leader' ? mem.leaderEpoch : -1;
}

/**
 * Makes sure the partitions this broker leads are loaded and those it no longer leads are dropped
 * (TransactionStateManager.loadTransactionsForTxnTopicPartition, removeTransactionsForTxnTopicPartition).
 * Returns the metadata loaded just now (for the coordinator to complete what a failover interrupted).
 */
export function syncLoadedPartitions(w: World, node: SimNode): TxnMetadata[] {
  const img = node.raft?.image;
  if (!img?.topics.has(TRANSACTION_STATE_TOPIC)) return [];
  const mem = w.transactions?.get(node.id);
  const n = txnPartitionCount(w, node);
  const fresh: TxnMetadata[] = [];
  for (let p = 0; p < n; p++) {
    const epoch = leaderEpochOf(node, p);
    const loadedAt = mem?.loaded.get(p);
    if (epoch < 0) {
      if (loadedAt !== undefined) unload(mem!, p);
      continue;
    }
    if (loadedAt === epoch) continue;
    fresh.push(...load(w, node, txnMem(w, node), p, epoch));
  }
  return fresh;
}

function unload(mem: TxnCoordinatorMem, p: number): void {
  mem.loaded.delete(p);
  for (const [id, m] of mem.txns) if (m.statePartition === p) mem.txns.delete(id);
}

/** Replays the partition's records from this replica's log: the last value of each transactional.id wins. */
function load(w: World, node: SimNode, mem: TxnCoordinatorMem, p: number, epoch: number): TxnMetadata[] {
  unload(mem, p);
  mem.loaded.set(p, epoch);
  const log = node.disk.partitions.get(tpKey(TRANSACTION_STATE_TOPIC, p))?.log;
  const latest = new Map<string, TxnLogValue>();
  if (log)
    for (let off = log.logStartOffset; off < logEndOffset(log); off++) {
      const r = entryAt(log, off)!;
      const id = readTxnLogKey(r.key);
      if (id !== null) latest.set(id, JSON.parse(r.value) as TxnLogValue);
    }
  const out: TxnMetadata[] = [];
  for (const [transactionalId, v] of latest) {
    const m: TxnMetadata = {
      transactionalId,
      statePartition: p,
      ...v,
      pending: null,
      markersPending: [],
      markerInFlight: {},
      markerOffsets: {},
    };
    mem.txns.set(transactionalId, m);
    out.push(m);
  }
  if (latest.size)
    emit(
      w,
      'TransactionsLoaded',
      `Broker ${node.id} now coordinates ${latest.size} transactional id(s) of ${TRANSACTION_STATE_TOPIC}-${p} (its leader at epoch ${epoch}): it loaded their state from its log.`,
      { nodeId: node.id, partition: p, count: latest.size },
    );
  return out;
}

/** The transaction's metadata if this broker coordinates it (it leads the id's partition), loading it if needed. */
export function txnAt(
  w: World,
  node: SimNode,
  transactionalId: string,
): { mem: TxnCoordinatorMem; meta: TxnMetadata | undefined; partition: number } | null {
  const p = txnPartitionFor(transactionalId, txnPartitionCount(w, node));
  const epoch = leaderEpochOf(node, p);
  if (epoch < 0) return null;
  const mem = txnMem(w, node);
  if (mem.loaded.get(p) !== epoch) load(w, node, mem, p, epoch);
  return { mem, meta: mem.txns.get(transactionalId), partition: p };
}

/**
 * TransactionStateManager.appendTransactionToLog: writes the transaction's next state to its
 * __transaction_state partition through the produce path, acks=all; `onAppended` runs when it completes.
 */
export function appendTxnState(
  w: World,
  node: SimNode,
  mem: TxnCoordinatorMem,
  m: TxnMetadata,
  append: TxnAppend,
): void {
  m.pending = append.target;
  const reqId = nextReqId(w);
  mem.appends.set(reqId, append);
  send(
    w,
    node.id,
    node.id,
    {
      kind: 'Produce',
      topic: TRANSACTION_STATE_TOPIC,
      partition: m.statePartition,
      acks: 'all',
      timeoutMs: TXN_APPEND_TIMEOUT_MS,
      records: [
        {
          id: w.nextRecordId++,
          epoch: -1,
          key: txnLogKey(m.transactionalId),
          value: txnLogValue({ ...append.record, state: append.target }),
          producerId: `transaction-coordinator-${node.id}`,
          pid: -1,
          seq: -1,
          timestampMs: w.nowMs,
        },
      ],
    },
    reqId,
  );
}

/** The pending append this response completes, if it is one of the transaction coordinator's. */
export function takeAppend(
  w: World,
  node: SimNode,
  msg: MessageOf<'ProduceResponse'>,
): { mem: TxnCoordinatorMem; append: TxnAppend } | null {
  const mem = w.transactions?.get(node.id);
  const append = mem?.appends.get(msg.reqId);
  if (!mem || !append) return null;
  mem.appends.delete(msg.reqId);
  return { mem, append };
}
