// The idempotent producer's state on a partition (ProducerStateManager): the last sequence numbers
// of each producer id, so that a retried batch is answered with its first offsets, not appended twice.

import type { EpochLog } from '../model/log';
import { entryAt, firstHeldOffset, logEndOffset } from '../model/log';
import type { LogRecord } from '../model/messages';
import type { ProducerStateEntry, ReplicaMem } from '../model/world';

// Kafka keeps the last five batches per producer (ProducerStateEntry.NUM_BATCHES_TO_RETAIN); we keep
// records, as many as five full batches can hold.
const PRODUCER_STATE_RECORDS = 5 * 250;

export function trackProducer(mem: ReplicaMem, rec: LogRecord, offset: number): void {
  if (rec.pid >= 0) remember(mem.producerState, rec, offset);
}

function remember(state: Map<number, ProducerStateEntry>, rec: LogRecord, offset: number): void {
  let e = state.get(rec.pid);
  if (rec.control) {
    // A transaction marker carries the coordinator's epoch: a bumped one fences the older producer.
    if (e && rec.producerEpoch !== undefined && rec.producerEpoch > (e.epoch ?? -1))
      e.epoch = rec.producerEpoch;
    else if (!e && rec.producerEpoch !== undefined)
      state.set(rec.pid, { epoch: rec.producerEpoch, lastSeq: -1, baseSeq: 0, offsets: [] });
    return;
  }
  // A new epoch of a transactional producer starts its sequence numbers again at 0.
  if (e && rec.producerEpoch !== undefined && rec.producerEpoch > (e.epoch ?? -1)) {
    state.delete(rec.pid);
    e = undefined;
  }
  if (!e) {
    e = { lastSeq: -1, baseSeq: rec.seq, offsets: [] };
    if (rec.producerEpoch !== undefined) e = { epoch: rec.producerEpoch, ...e };
    state.set(rec.pid, e);
  }
  // A producer's sequence numbers on a partition are consecutive; a jump starts a new run.
  if (rec.seq !== e.baseSeq + e.offsets.length) {
    e.baseSeq = rec.seq;
    e.offsets = [];
  }
  e.offsets.push(offset);
  e.lastSeq = rec.seq;
  if (e.offsets.length > 2 * PRODUCER_STATE_RECORDS) {
    e.offsets = e.offsets.slice(PRODUCER_STATE_RECORDS);
    e.baseSeq += PRODUCER_STATE_RECORDS;
  }
}

/**
 * ProducerAppendInfo.checkProducerEpoch: a transactional batch with an older epoch than the
 * partition has seen is refused (INVALID_PRODUCER_EPOCH: its producer was fenced); with a newer
 * epoch, its sequence must start at 0.
 */
export function epochError(e: ProducerStateEntry | undefined, rec: LogRecord): string | null {
  if (!e || rec.producerEpoch === undefined || e.epoch === undefined) return null;
  if (rec.producerEpoch < e.epoch) return 'INVALID_PRODUCER_EPOCH';
  if (rec.producerEpoch > e.epoch && rec.seq !== 0) return 'OUT_OF_ORDER_SEQUENCE_NUMBER';
  return null;
}

/** The entry's sequence check applies in the batch's own epoch (a newer epoch starts afresh). */
export function sameEpoch(e: ProducerStateEntry, rec: LogRecord): boolean {
  return rec.producerEpoch === undefined || e.epoch === undefined || rec.producerEpoch === e.epoch;
}

export function offsetOfSeq(e: ProducerStateEntry, seq: number): number | undefined {
  const i = seq - e.baseSeq;
  return i >= 0 && i < e.offsets.length ? e.offsets[i] : undefined;
}

export function rebuildProducerState(log: EpochLog<LogRecord>): Map<number, ProducerStateEntry> {
  const state = new Map<number, ProducerStateEntry>();
  const end = logEndOffset(log);
  for (let off = Math.max(firstHeldOffset(log), end - 10 * PRODUCER_STATE_RECORDS); off < end; off++) {
    const rec = entryAt(log, off)!;
    if (rec.pid >= 0) remember(state, rec, off);
  }
  return state;
}
