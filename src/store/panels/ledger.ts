// The produce form's ledger: each record a form sent and its outcome, in Kafka's words.
import type { LedgerEntry } from '../../sim/types';

export interface LedgerRow {
  recordId: number;
  partition: string;
  key: string;
  value: string;
  acks: string;
  status: LedgerEntry['status'];
  /** The outcome in words with Kafka's error name: "acked at offset 3", "failed: NOT_ENOUGH_REPLICAS". */
  outcome: string;
  error: string | null;
}

export function ledgerRow(entry: LedgerEntry): LedgerRow {
  let outcome: string;
  if (entry.status === 'acked')
    outcome =
      entry.offset >= 0
        ? `acked at offset ${entry.offset}`
        : 'sent (acks=0: no acknowledgement, offset unknown)';
  else if (entry.status === 'failed') outcome = `failed: ${entry.error ?? 'unknown error'}`;
  else outcome = entry.error ? `pending, retrying after ${entry.error}` : 'pending';
  return {
    recordId: entry.recordId,
    partition: `${entry.topic}-${entry.partition}`,
    key: entry.key ?? 'null',
    value: entry.value,
    acks: String(entry.acks),
    status: entry.status,
    outcome,
    error: entry.error ?? null,
  };
}

/** A one-line summary of the records a form sent, latest error first, for a live region. */
export function ledgerSummary(entries: readonly LedgerEntry[]): string {
  if (entries.length === 0) return '';
  const count = (status: LedgerEntry['status']) => entries.filter((e) => e.status === status).length;
  const errors = [...new Set(entries.filter((e) => e.status !== 'acked' && e.error).map((e) => e.error!))];
  const parts = [`${count('acked')} acked`, `${count('pending')} pending`, `${count('failed')} failed`];
  return `${errors.length ? `${errors.join(', ')}. ` : ''}${parts.join(', ')}.`;
}
