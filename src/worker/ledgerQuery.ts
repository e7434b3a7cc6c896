// Answers a page's getLedger: the latest ledger entries that match, copied so that later changes
// in the engine never reach a message already posted.
import type { LedgerEntry, PartitionLogView, RecordJourneyView } from '../sim/types';
import type { PageToWorker, LedgerQuery, WorkerToPage } from './protocol';

export const DEFAULT_LEDGER_LIMIT = 50;
export const MAX_LEDGER_LIMIT = 500;
/** A record retried for minutes has hundreds of attempts; the page shows the latest few. */
export const MAX_ATTEMPTS_SENT = 5;

interface LedgerSource {
  ledger(): readonly LedgerEntry[];
  lostAcknowledged(): LedgerEntry[];
  /** Per producer, failed entries the ledger no longer keeps (kernel/memoryBounds.ts). */
  failedDropped?(): ReadonlyMap<string, number>;
  /** Per producer, acks=0 entries the ledger no longer keeps. */
  acks0Dropped?(): ReadonlyMap<string, number>;
}

const matches = (entry: LedgerEntry, query: LedgerQuery): boolean =>
  (query.topic === undefined || entry.topic === query.topic) &&
  (query.partition === undefined || entry.partition === query.partition) &&
  (query.producerId === undefined || entry.producerId === query.producerId);

const copy = (entry: LedgerEntry): LedgerEntry => ({
  ...entry,
  attempts: entry.attempts.slice(-MAX_ATTEMPTS_SENT).map((attempt) => ({ ...attempt })),
});

export function answerLedgerQuery(
  sim: LedgerSource,
  id: number,
  query: LedgerQuery,
): Extract<WorkerToPage, { type: 'ledger' }> {
  const limit = Math.max(1, Math.min(Math.floor(query.limit ?? DEFAULT_LEDGER_LIMIT), MAX_LEDGER_LIMIT) || 1);
  const ledger = sim.ledger();
  const latest: LedgerEntry[] = [];
  let matched = 0;
  for (let i = ledger.length - 1; i >= 0; i--) {
    const entry = ledger[i];
    if (!entry || !matches(entry, query)) continue;
    matched++;
    if (latest.length < limit) latest.push(copy(entry));
  }
  const lost = sim
    .lostAcknowledged()
    .filter((entry) => matches(entry, { topic: query.topic, partition: query.partition }))
    .slice(-limit)
    .map(copy);
  // Failed and acks=0 sends no longer kept: the producer's, or every producer's (they are not counted by partition).
  const ofQuery = (dropped: ReadonlyMap<string, number> | undefined) => {
    let n = 0;
    for (const [producerId, count] of dropped ?? [])
      if (query.producerId === undefined || query.producerId === producerId) n += count;
    return n;
  };
  const failedDropped = ofQuery(sim.failedDropped?.());
  const acks0Dropped = ofQuery(sim.acks0Dropped?.());
  return {
    type: 'ledger',
    id,
    entries: latest.reverse(),
    lostAcknowledged: lost,
    matched,
    ...(failedDropped > 0 ? { failedDropped } : {}),
    ...(acks0Dropped > 0 ? { acks0Dropped } : {}),
  };
}

interface RecordSource {
  partitionLog(topic: string, partition: number, fromOffset: number, count: number): PartitionLogView | null;
  recordJourney(recordId: number): RecordJourneyView | null;
}

/**
 * Answers a page's getPartitionLog or getRecordJourney. The engine builds fresh objects for each
 * answer (its log records are copied field by field), so nothing posted changes afterwards.
 */
export function answerRecordQuery(
  sim: RecordSource,
  message: Extract<PageToWorker, { type: 'getPartitionLog' | 'getRecordJourney' }>,
): Extract<WorkerToPage, { type: 'partitionLog' | 'recordJourney' }> {
  if (message.type === 'getPartitionLog')
    return {
      type: 'partitionLog',
      id: message.id,
      log: sim.partitionLog(message.topic, message.partition, message.fromOffset, message.count),
    };
  return { type: 'recordJourney', id: message.id, journey: sim.recordJourney(message.recordId) };
}
