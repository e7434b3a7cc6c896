// The Partition log tab: a partition's log as Kafka holds it, one column per replica, rows by
// offset, with the log start offset, HW and LEO of each replica, leader-epoch boundaries and the
// records a truncation removed (struck through). Windowed: only the rows in view are asked of the
// worker and drawn, so a log of any length costs the same. A record opens its journey below.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { requestPartitionLog } from '../store/connection';
import {
  useRecordLogStore,
  type LogRecordView,
  type PartitionLogView,
  type ReplicaLogView,
  type TruncatedRecordView,
} from '../store/recordLog';
import { parsePartitionId } from '../store/selection';
import { useSimulationStore } from '../store/simulation';
import { usePolled } from './usePolled';
import { RecordJourney } from './RecordJourney';
import './partitionLog.css';

/** Rows drawn beyond the visible ones, above and below (smooth scrolling). */
const OVERSCAN = 6;
/** Wall-clock milliseconds between two log requests at most, whatever the snapshot rate. */
const REFRESH_MS = 250;
/** A row's height in em of the grid's font size (CSS .log-row uses the same). */
const ROW_EM = 2.25;

const recordText = (r: LogRecordView) => `${r.key === null ? '∅' : r.key}=${r.value}`;
const recordLabel = (r: LogRecordView, brokerId: number) =>
  `offset ${r.offset} on broker ${brokerId}: key ${r.key ?? 'null'}, value ${r.value}, leader epoch ${r.epoch}${
    r.recordId >= 0 ? `, record ${r.recordId}` : ''
  }`;

/**
 * The log's offsets as the snapshot knows them, until the worker's first answer (which also counts
 * truncated offsets past the LEO); `watch` false stops following the snapshot, so the grid renders
 * when an answer arrives rather than at every snapshot.
 */
function useBounds(topic: string, partition: number, watch: boolean): { start: number; end: number } | null {
  const start = useSimulationStore((s) => {
    if (!watch) return null;
    const p = s.snapshot?.partitions.find((x) => x.topic === topic && x.partition === partition);
    return p ? Math.min(...p.replicaLogs.map((l) => l.logStartOffset ?? 0)) : null;
  });
  const end = useSimulationStore((s) => {
    if (!watch) return null;
    const p = s.snapshot?.partitions.find((x) => x.topic === topic && x.partition === partition);
    return p ? Math.max(0, ...p.replicaLogs.map((l) => l.logEndOffset)) : null;
  });
  return start === null || end === null ? null : { start, end };
}

/** The log window [from, from + count), asked again as the simulation moves on (at most every REFRESH_MS). */
function useLogWindow(
  topic: string,
  partition: number,
  from: number,
  count: number,
): PartitionLogView | null {
  // While the window scrolls, the previous window's answer stays drawn until the new one arrives.
  const log = usePolled(
    `${topic}\n${partition}\n${from}\n${count}`,
    () => requestPartitionLog(topic, partition, from, count),
    REFRESH_MS,
  );
  return log && log.topic === topic && log.partition === partition ? log : null;
}

/** The marks a replica's cell carries at an offset: log start, epoch start, HW, LEO. */
function marksAt(replica: ReplicaLogView, offset: number): ReactNode[] {
  const marks: ReactNode[] = [];
  if (offset === replica.logStartOffset && offset > 0)
    marks.push(
      <span
        key="start"
        className="log-mark log-mark--start"
        title="Log start offset: below it, retention deleted the records"
      >
        ⇤ start
      </span>,
    );
  const epoch = replica.epochs.find((e) => e.startOffset === offset);
  if (epoch)
    marks.push(
      <span
        key="epoch"
        className="log-mark log-mark--epoch"
        title={`Leader epoch ${epoch.epoch} starts at offset ${offset}`}
      >
        ⟂ epoch {epoch.epoch}
      </span>,
    );
  if (offset === replica.highWatermark)
    marks.push(
      <span key="hw" className="log-mark log-mark--hw" title="High watermark: consumers read below it">
        ▔ HW
      </span>,
    );
  // An open transaction holds the LSO below the HW: read_committed consumers stop there.
  if (offset === replica.lastStableOffset && replica.lastStableOffset < replica.highWatermark)
    marks.push(
      <span
        key="lso"
        className="log-mark log-mark--lso"
        title="Last stable offset: read_committed consumers read below it (an open transaction holds it here)"
      >
        ▁ LSO
      </span>,
    );
  if (offset === replica.logEndOffset)
    marks.push(
      <span key="leo" className="log-mark log-mark--leo" title="Log end offset: the next record goes here">
        ▸ LEO
      </span>,
    );
  return marks;
}

/** A transaction's marker: a control record, which takes an offset but no consumer returns. */
const controlText = (r: LogRecordView) => `${r.control} (producer ${r.pid}, epoch ${r.producerEpoch ?? 0})`;

/** One replica's cell at one offset: a record, a transaction marker, or what a truncation removed. */
function ReplicaCell({
  replica,
  offset,
  record,
  truncated,
  onRecord,
}: {
  replica: ReplicaLogView;
  offset: number;
  record: LogRecordView | undefined;
  truncated: TruncatedRecordView[];
  onRecord: (recordId: number) => void;
}) {
  const marks = marksAt(replica, offset);
  const committed = offset < replica.highWatermark;
  return (
    <div
      role="gridcell"
      className={`log-cell${marks.length ? ' log-cell--marked' : ''}${offset === replica.highWatermark ? ' log-cell--hw' : ''}`}
    >
      {marks}
      {offset < replica.logStartOffset ? (
        <span className="log-gone">deleted</span>
      ) : replica.forgottenBelow !== undefined && offset < replica.forgottenBelow ? (
        <span
          className="log-gone"
          title={`The simulator's record ceiling forgot this record (offsets below ${replica.forgottenBelow} on broker ${replica.nodeId}): its offset stands, its key and value are gone. A simulator limit, not Kafka's.`}
        >
          forgotten
        </span>
      ) : record?.control ? (
        <span
          role="img"
          className={`log-rec log-rec--control log-rec--${record.control.toLowerCase()}`}
          aria-label={`offset ${offset} on broker ${replica.nodeId}: ${record.control} marker of producer ${record.pid}, epoch ${record.producerEpoch ?? 0} (a control record, never returned to consumers)${committed ? ', committed' : ', above the HW'}`}
          title={`Control record: the ${record.control} marker of ${record.producerId}'s transaction`}
        >
          <span aria-hidden="true">{record.control === 'COMMIT' ? '◆' : '◇'}</span> {controlText(record)}
        </span>
      ) : record ? (
        <button
          type="button"
          tabIndex={-1}
          className={`log-rec${committed ? '' : ' log-rec--uncommitted'}${record.transaction === 'aborted' ? ' log-rec--aborted' : ''}`}
          aria-label={`${recordLabel(record, replica.nodeId)}${committed ? ', committed' : ', above the HW'}${
            record.transaction === 'aborted' ? ', aborted: read_committed consumers skip it' : ''
          }`}
          title={recordLabel(record, replica.nodeId)}
          disabled={record.recordId < 0}
          onClick={() => onRecord(record.recordId)}
        >
          <span aria-hidden="true">{record.transaction === 'aborted' ? '⊘' : committed ? '●' : '○'}</span>
          <span className="log-epoch">{record.epoch}</span> {recordText(record)}
        </button>
      ) : null}
      {truncated.map((t) => (
        <button
          type="button"
          tabIndex={-1}
          key={`${t.removedAtMs}-${t.recordId}`}
          className="log-rec log-rec--truncated"
          aria-label={`${recordLabel(t, replica.nodeId)}, removed by a truncation to offset ${t.truncatedTo} at ${(t.removedAtMs / 1000).toFixed(3)} s (LogTruncated)`}
          title={`Removed at ${(t.removedAtMs / 1000).toFixed(3)} s: truncated to offset ${t.truncatedTo} (LogTruncated)`}
          disabled={t.recordId < 0}
          onClick={() => onRecord(t.recordId)}
        >
          <span aria-hidden="true">✂</span> <s>{recordText(t)}</s>
        </button>
      ))}
    </div>
  );
}

function ReplicaSummary({ log }: { log: PartitionLogView }) {
  return (
    <table className="log-replicas">
      <caption>
        Replicas of {log.topic}-{log.partition}, leader epoch {log.leaderEpoch}
      </caption>
      <thead>
        <tr>
          <th scope="col">Broker</th>
          <th scope="col">Role</th>
          <th scope="col">Log start</th>
          <th scope="col">
            <abbr title="High watermark">HW</abbr>
          </th>
          <th scope="col">
            <abbr title="Log end offset">LEO</abbr>
          </th>
          <th scope="col">
            <abbr title="Last stable offset: read_committed consumers read below it">LSO</abbr>
          </th>
          <th scope="col">Epochs (from offset)</th>
        </tr>
      </thead>
      <tbody>
        {log.replicas.map((r) => (
          <tr key={r.nodeId}>
            <th scope="row">{r.nodeId}</th>
            <td>
              {r.role === 'leader' ? '★ leader' : 'follower'}
              {r.inIsr ? ', in ISR' : ', not in ISR'}
              {r.state !== 'running' ? `, ${r.state}` : ''}
            </td>
            <td>{r.logStartOffset}</td>
            <td>{r.highWatermark}</td>
            <td>{r.logEndOffset}</td>
            <td>{r.lastStableOffset}</td>
            <td>{r.epochs.map((e) => `${e.epoch} (${e.startOffset})`).join(', ') || 'none'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function LogGrid({ topic, partition }: { topic: string; partition: number }) {
  // The bounds of the latest answer (the snapshot's until there is one).
  const [answered, setAnswered] = useState<{ start: number; end: number } | null>(null);
  const bounds = useBounds(topic, partition, answered === null);
  const scroller = useRef<HTMLDivElement>(null);
  const [rowPx, setRowPx] = useState(36);
  const [viewPx, setViewPx] = useState(360);
  const [scrollTop, setScrollTop] = useState(0);
  const [follow, setFollow] = useState(true);
  const [active, setActive] = useState<number | null>(null);
  const showJourney = useRecordLogStore((s) => s.showJourney);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => {
      setRowPx(ROW_EM * parseFloat(getComputedStyle(el).fontSize || '16'));
      setViewPx(el.clientHeight);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const start = answered?.start ?? bounds?.start ?? 0;
  // One row past the largest LEO: where the next record goes (the LEO line).
  const end = answered?.end ?? bounds?.end ?? 0;
  const rows = end - start + 1;
  const visible = Math.max(1, Math.ceil(viewPx / rowPx));
  const first = Math.max(0, Math.floor(scrollTop / rowPx) - OVERSCAN);
  const count = Math.min(rows - first, visible + 2 * OVERSCAN);
  const log = useLogWindow(topic, partition, start + first, count);
  useEffect(() => {
    if (log)
      setAnswered((old) =>
        old?.start === log.startOffset && old.end === log.endOffset
          ? old
          : { start: log.startOffset, end: log.endOffset },
      );
  }, [log]);

  // Following the log's end: the newest rows stay in view as records arrive.
  useEffect(() => {
    const el = scroller.current;
    if (follow && el) el.scrollTop = el.scrollHeight;
  }, [follow, rows, viewPx]);

  const byOffset = useMemo(() => {
    const map = new Map<string, LogRecordView>();
    const cut = new Map<string, TruncatedRecordView[]>();
    for (const r of log?.replicas ?? []) {
      for (const rec of r.records) map.set(`${r.nodeId}:${rec.offset}`, rec);
      for (const t of r.truncated) {
        const k = `${r.nodeId}:${t.offset}`;
        cut.set(k, [...(cut.get(k) ?? []), t]);
      }
    }
    return { map, cut };
  }, [log]);

  function moveTo(offset: number) {
    const o = Math.max(start, Math.min(end, offset));
    setActive(o);
    const el = scroller.current;
    if (!el) return;
    const top = (o - start) * rowPx;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowPx > el.scrollTop + el.clientHeight) el.scrollTop = top + rowPx - el.clientHeight;
  }

  function recordAt(offset: number): number | null {
    const replicas = log?.replicas ?? [];
    const ordered = [
      ...replicas.filter((r) => r.role === 'leader'),
      ...replicas.filter((r) => r.role !== 'leader'),
    ];
    for (const r of ordered) {
      const rec = byOffset.map.get(`${r.nodeId}:${offset}`) ?? byOffset.cut.get(`${r.nodeId}:${offset}`)?.[0];
      if (rec && rec.recordId >= 0) return rec.recordId;
    }
    return null;
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const current = active ?? end;
    const page = Math.max(1, visible - 1);
    const next =
      event.key === 'ArrowDown'
        ? current + 1
        : event.key === 'ArrowUp'
          ? current - 1
          : event.key === 'PageDown'
            ? current + page
            : event.key === 'PageUp'
              ? current - page
              : event.key === 'Home'
                ? start
                : event.key === 'End'
                  ? end
                  : null;
    if (next !== null) {
      event.preventDefault();
      setFollow(next >= end);
      moveTo(next);
      return;
    }
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      const id = active === null ? null : recordAt(active);
      if (id !== null) showJourney(id);
    }
  }

  const replicas = log?.replicas ?? [];
  const columns = `4.2em repeat(${Math.max(1, replicas.length)}, minmax(0, 1fr))`;
  const rowId = (offset: number) => `log-row-${topic}-${partition}-${offset}`;

  return (
    <>
      <div className="log-toolbar">
        <button type="button" aria-pressed={follow} onClick={() => setFollow((f) => !f)}>
          {follow ? '⤓ Following the end' : '⤓ Follow the end'}
        </button>
        <span className="log-range">
          offsets {start} to {end - 1 < start ? start : end - 1}
        </span>
      </div>
      <div
        ref={scroller}
        className="log-grid"
        role="grid"
        aria-label={`Log of ${topic}-${partition}, one column per replica; arrows move, Enter shows the record's journey`}
        aria-rowcount={rows + 1}
        aria-colcount={replicas.length + 1}
        aria-activedescendant={
          active !== null && active >= start + first && active < start + first + count
            ? rowId(active)
            : undefined
        }
        tabIndex={0}
        style={{ ['--log-columns' as string]: columns }}
        onKeyDown={onKeyDown}
        onScroll={(event) => {
          const el = event.currentTarget;
          setScrollTop(el.scrollTop);
          const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - rowPx;
          if (!atEnd && follow) setFollow(false);
        }}
      >
        <div role="row" aria-rowindex={1} className="log-row log-head">
          <div role="columnheader">Offset</div>
          {replicas.map((r) => (
            <div role="columnheader" key={r.nodeId}>
              {r.role === 'leader' ? '★ ' : ''}Broker {r.nodeId}
            </div>
          ))}
        </div>
        <div className="log-body" style={{ height: rows * rowPx }}>
          {log &&
            Array.from({ length: count }, (_, i) => {
              const offset = start + first + i;
              return (
                <div
                  key={offset}
                  id={rowId(offset)}
                  role="row"
                  aria-rowindex={offset - start + 2}
                  aria-selected={offset === active}
                  className={`log-row${offset === active ? ' log-row--active' : ''}`}
                  style={{ top: (first + i) * rowPx, height: rowPx }}
                  onClick={() => setActive(offset)}
                >
                  <div role="rowheader" className="log-offset">
                    {offset}
                  </div>
                  {replicas.map((r) => (
                    <ReplicaCell
                      key={r.nodeId}
                      replica={r}
                      offset={offset}
                      record={byOffset.map.get(`${r.nodeId}:${offset}`)}
                      truncated={byOffset.cut.get(`${r.nodeId}:${offset}`) ?? []}
                      onRecord={(id) => {
                        setActive(offset);
                        showJourney(id);
                      }}
                    />
                  ))}
                </div>
              );
            })}
        </div>
      </div>
      {log && <ReplicaSummary log={log} />}
    </>
  );
}

export function PartitionLogPanel() {
  const open = useRecordLogStore((s) => s.partition);
  const openLog = useRecordLogStore((s) => s.openLog);
  const recordId = useRecordLogStore((s) => s.recordId);
  const choices = useSimulationStore(
    (s) => s.snapshot?.partitions.map((p) => `${p.topic}-${p.partition}`).join('\n') ?? '',
  );
  const options = useMemo(() => (choices ? choices.split('\n') : []), [choices]);
  const tp = open ? parsePartitionId(open) : null;
  return (
    <section className="partition-log" aria-labelledby="partition-log-heading">
      <h2 id="partition-log-heading">Partition log</h2>
      <label className="log-picker">
        Partition{' '}
        <select value={open ?? ''} onChange={(event) => event.target.value && openLog(event.target.value)}>
          {!open && <option value="">choose a partition</option>}
          {options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </label>
      {tp ? (
        <>
          <p className="log-legend">
            Each cell: ● committed (below the HW) or ○ not yet, the leader epoch, key=value. ✂ removed by a
            truncation, ⟂ a leader epoch starts, ▔ HW, ▸ LEO. Transactions: ◆ COMMIT and ◇ ABORT markers
            (control records), ⊘ a record of an aborted transaction, ▁ LSO (read_committed consumers read
            below it). Select a record for its journey.
          </p>
          <LogGrid key={open} topic={tp.topic} partition={tp.partition} />
        </>
      ) : (
        <p>Choose a partition here, or open one from the Inspector or the Dashboard.</p>
      )}
      {recordId !== null && <RecordJourney recordId={recordId} />}
    </section>
  );
}
