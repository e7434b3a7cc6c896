// The Dashboard tab, in the manner of kafka-ui or Kafdrop: one row per partition with its leader,
// replicas, ISR, ELR and the flags an operator checks, sortable and filterable.
import { useId, useMemo, useState } from 'react';
import {
  filterDashboardRows,
  partitionMatrix,
  selectDashboardRows,
  selectFaultToleranceWarnings,
  sortDashboardRows,
  type DashboardSortKey,
  type SortDirection,
} from '../store/panels';
import { useSelectionStore } from '../store/selection';
import { useSimulationStore } from '../store/simulation';
import { PartitionMatrix } from './PartitionMatrix';
import { usePanelsUi } from './uiStore';

/** Rows drawn at most: a large cluster has thousands of partitions, and a filter finds the rest. */
const MAX_ROWS = 200;

const list = (ids: number[]) => (ids.length ? ids.join(', ') : 'none');

function Flag({ on, yes, no = 'no' }: { on: boolean; yes: string; no?: string }) {
  return <span className={on ? 'flag on' : 'flag'}>{on ? `⚠ ${yes}` : no}</span>;
}

function SortHeader({
  label,
  column,
  sort,
  onSort,
}: {
  label: string;
  column: DashboardSortKey;
  sort: { key: DashboardSortKey; direction: SortDirection };
  onSort: (column: DashboardSortKey) => void;
}) {
  const active = sort.key === column;
  return (
    <th scope="col" aria-sort={active ? sort.direction : undefined}>
      <button type="button" className="sort-button" onClick={() => onSort(column)}>
        {label}
        <span aria-hidden="true">{active ? (sort.direction === 'ascending' ? ' ▲' : ' ▼') : ' ⇅'}</span>
      </button>
    </th>
  );
}

export function DashboardPanel() {
  const snapshot = useSimulationStore((state) => state.snapshot);
  const select = useSelectionStore((state) => state.select);
  const revealInspector = usePanelsUi((state) => state.revealInspector);
  const id = useId();
  const [text, setText] = useState('');
  const [onlyProblems, setOnlyProblems] = useState(false);
  const [showInternal, setShowInternal] = useState(false);
  const [sort, setSort] = useState<{ key: DashboardSortKey; direction: SortDirection }>({
    key: 'partition',
    direction: 'ascending',
  });
  const all = useMemo(() => selectDashboardRows(snapshot), [snapshot]);
  const noFaultTolerance = selectFaultToleranceWarnings(snapshot);
  const rows = useMemo(
    () =>
      sortDashboardRows(
        filterDashboardRows(all, { text, onlyProblems, showInternal }),
        sort.key,
        sort.direction,
      ),
    [all, text, onlyProblems, showInternal, sort],
  );
  // Beyond what the table draws, every partition is still seen at once, as a cell.
  const matrix = useMemo(
    () => (all.length > MAX_ROWS ? partitionMatrix(all, showInternal) : null),
    [all, showInternal],
  );
  const inspect = (key: string) => {
    select({ kind: 'partition', id: key });
    revealInspector();
  };
  const onSort = (key: DashboardSortKey) =>
    setSort((s) => ({
      key,
      direction: s.key === key && s.direction === 'ascending' ? 'descending' : 'ascending',
    }));

  return (
    <div className="dashboard-panel">
      <h2>Dashboard</h2>
      {noFaultTolerance.length > 0 && (
        <section className="fault-tolerance" aria-labelledby={`${id}-ft`}>
          <h3 id={`${id}-ft`}>
            <span aria-hidden="true">⚠ </span>No fault tolerance ({noFaultTolerance.length} topic
            {noFaultTolerance.length === 1 ? '' : 's'})
          </h3>
          <ul>
            {noFaultTolerance.slice(0, 20).map((w) => (
              <li key={w.topic}>
                <span className="badge badge--risk">⚠ {w.topic}</span> {w.text.slice(w.topic.length + 2)}
              </li>
            ))}
          </ul>
          {noFaultTolerance.length > 20 && (
            <p className="hint">and {noFaultTolerance.length - 20} more topics</p>
          )}
        </section>
      )}
      {matrix && (
        <PartitionMatrix matrix={matrix} onTopic={(topic) => setText(topic)} onPartition={inspect} />
      )}
      <div className="form-row">
        <label htmlFor={`${id}-filter`}>Filter partitions</label>
        <input
          id={`${id}-filter`}
          type="search"
          value={text}
          placeholder="orders or orders-0"
          onChange={(e) => setText(e.target.value)}
        />
        <label className="checkbox">
          <input type="checkbox" checked={onlyProblems} onChange={(e) => setOnlyProblems(e.target.checked)} />
          Only partitions with problems
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={showInternal} onChange={(e) => setShowInternal(e.target.checked)} />
          Show internal topics
        </label>
      </div>
      <p className="hint">
        {rows.length > MAX_ROWS
          ? `Showing the first ${MAX_ROWS} of ${rows.length} matching partitions (${all.length} in all): filter to narrow.`
          : `Showing ${rows.length} of ${all.length} partitions.`}{' '}
        Select a partition to inspect it.
      </p>
      <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={`${id}-caption`}>
        <table className="dashboard-table">
          <caption id={`${id}-caption`}>Partition health</caption>
          <thead>
            <tr>
              <SortHeader label="Partition" column="partition" sort={sort} onSort={onSort} />
              <SortHeader label="Leader" column="leader" sort={sort} onSort={onSort} />
              <th scope="col">Replicas</th>
              <SortHeader label="ISR" column="isr" sort={sort} onSort={onSort} />
              <th scope="col">
                <abbr title="Eligible leader replicas (KIP-966)">ELR</abbr>
              </th>
              <th scope="col">Preferred leader</th>
              <SortHeader label="Under-replicated" column="status" sort={sort} onSort={onSort} />
              <th scope="col">Under min ISR</th>
              <th scope="col">Offline</th>
              <SortHeader label="HW" column="highWatermark" sort={sort} onSort={onSort} />
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, MAX_ROWS).map((row) => (
              <tr
                key={row.key}
                className={row.offline ? 'offline' : row.underMinIsr ? 'under-min-isr' : undefined}
              >
                <th scope="row">
                  <button
                    type="button"
                    className="link-button"
                    title={`Inspect partition ${row.key}`}
                    onClick={() => inspect(row.key)}
                  >
                    {row.key}
                  </button>
                </th>
                <td>{row.offline ? 'none (offline)' : row.leader}</td>
                <td>{list(row.replicas)}</td>
                <td>{list(row.isr)}</td>
                <td>{list(row.elr)}</td>
                <td>{row.offline ? 'no' : row.preferredLeader ? 'yes' : <Flag on yes="no" />}</td>
                <td>
                  <Flag on={row.underReplicated} yes="yes" />
                </td>
                <td>
                  <Flag on={row.underMinIsr} yes={`yes (${row.isr.length} < ${row.minInsyncReplicas})`} />
                </td>
                <td>
                  <Flag on={row.offline} yes="yes" />
                </td>
                <td>{row.highWatermark}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
