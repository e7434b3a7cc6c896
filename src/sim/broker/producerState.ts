// The idempotent producer's state on a partition (ProducerStateManager): the last sequence numbers
// of each producer id, so that a retried batch is answered with its first offsets, not appended twice.

import type { EpochLog } from '../model/log';
import { entryAt, logEndOffset } from '../model/log';
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
  if (!e) state.set(rec.pid, (e = { lastSeq: -1, baseSeq: rec.seq, offsets: [] }));
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

export function offsetOfSeq(e: ProducerStateEntry, seq: number): number | undefined {
  const i = seq - e.baseSeq;
  return i >= 0 && i < e.offsets.length ? e.offsets[i] : undefined;
}

export function rebuildProducerState(log: EpochLog<LogRecord>): Map<number, ProducerStateEntry> {
  const state = new Map<number, ProducerStateEntry>();
  const end = logEndOffset(log);
  for (let off = Math.max(log.logStartOffset, end - 10 * PRODUCER_STATE_RECORDS); off < end; off++) {
    const rec = entryAt(log, off)!;
    if (rec.pid >= 0) remember(state, rec, off);
  }
  return state;
}
