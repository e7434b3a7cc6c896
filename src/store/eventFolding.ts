// Folding routine events in the event log: every broker applies every metadata batch, so one
// change to the cluster logs one MetadataApplied per broker. A run of them becomes one line that
// expands to its events, so the log stays readable and every event stays reachable.
import type { EventLogRow } from './panels';

/** Event types that happen on every broker for every change, folded when consecutive. */
export const ROUTINE_EVENT_TYPES: ReadonlySet<string> = new Set(['MetadataApplied']);

export type EventLogEntry =
  | { kind: 'event'; row: EventLogRow }
  | {
      kind: 'group';
      /** The oldest folded event's seq: stable while the run grows at the top (newer events). */
      key: number;
      type: string;
      /** The time of the newest event in the run. */
      time: string;
      summary: string;
      /** The folded events (two or more), newest first as in the log. */
      rows: [EventLogRow, ...EventLogRow[]];
    };

const listOf = (ids: readonly number[]): string =>
  ids.length <= 1 ? ids.join('') : `${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]}`;

/** "MetadataApplied at offset 9 by brokers 4, 5 and 6" (or an offset range when they differ). */
export function summarizeRun(rows: readonly EventLogRow[]): string {
  const nodes = [...new Set(rows.map((r) => r.nodeId).filter((id): id is number => id !== null))].sort(
    (a, b) => a - b,
  );
  const offsets = rows.map((r) => r.metadataOffset).filter((o): o is number => o !== null);
  const low = Math.min(...offsets);
  const high = Math.max(...offsets);
  const at = offsets.length === 0 ? '' : low === high ? ` at offset ${low}` : ` at offsets ${low}–${high}`;
  const by = nodes.length === 0 ? '' : ` by ${nodes.length === 1 ? 'broker' : 'brokers'} ${listOf(nodes)}`;
  return `${rows[0]?.type ?? ''}${at}${by}`;
}

/**
 * Rows (newest first) to log entries: each run of two or more consecutive routine events of one
 * type becomes a group; everything else stays one entry a row, in the same order.
 */
export function foldEventLogRows(rows: readonly EventLogRow[]): EventLogEntry[] {
  // Consecutive rows of one routine type form a run; any other row is a run of its own.
  const runs: [EventLogRow, ...EventLogRow[]][] = [];
  for (const row of rows) {
    const run = runs.at(-1);
    if (run && ROUTINE_EVENT_TYPES.has(row.type) && run[0].type === row.type) run.push(row);
    else runs.push([row]);
  }
  return runs.map((run): EventLogEntry => {
    const [row] = run;
    if (run.length < 2) return { kind: 'event', row };
    return {
      kind: 'group',
      key: (run.at(-1) ?? row).seq,
      type: row.type,
      time: row.time,
      summary: summarizeRun(run),
      rows: run,
    };
  });
}
