// The Vital signs tab (operating the cluster): the cluster's metrics over simulated
// time, the live safety invariants, each partition's failure budget and a capacity plan.
import { useEffect, useMemo } from 'react';
import { useSimulationStore } from '../../store/simulation';
import {
  CHART_WINDOW_S,
  refreshVitals,
  selectBudgetRows,
  selectNoToleranceTopics,
  selectViolationRows,
  selectVitalCharts,
  useVitalsStore,
} from '../../store/vitals';
import { CapacityPlanner } from './CapacityPlanner';
import { Sparkline } from './Sparkline';
import './vitals.css';

/** Wall-clock milliseconds between two requests for the metrics. */
const POLL_MS = 1000;
/** Budget rows drawn at most: a large cluster has thousands of partitions. */
const MAX_BUDGET_ROWS = 100;

/** Polls the worker for the metrics while the tab is shown and the page is visible. */
function useVitalsPolling(): void {
  useEffect(() => {
    void refreshVitals();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void refreshVitals();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, []);
}

function Charts() {
  const samples = useVitalsStore((state) => state.samples);
  const charts = useMemo(() => selectVitalCharts(samples), [samples]);
  return (
    <section className="control-section" aria-labelledby="vitals-charts-heading">
      <h3 id="vitals-charts-heading">Metrics</h3>
      <p className="hint">
        One sample per simulated second, the last {CHART_WINDOW_S} s, refreshed every second while this tab is
        open. Kafka's JMX names: OfflinePartitionsCount, UnderReplicatedPartitions, UnderMinIsrPartitionCount,
        IsrShrinksPerSec, IsrExpandsPerSec, BytesInPerSec, BytesOutPerSec; consumer lag as
        kafka-consumer-groups --describe sums it.
      </p>
      <div className="vital-charts">
        {charts.map((chart) => (
          <Sparkline key={chart.id} chart={chart} />
        ))}
      </div>
    </section>
  );
}

function Invariants() {
  const violations = useVitalsStore((state) => state.violations);
  const loaded = useVitalsStore((state) => state.loaded);
  const rows = useMemo(() => selectViolationRows(violations), [violations]);
  return (
    <section className="control-section" aria-labelledby="vitals-invariants-heading">
      <h3 id="vitals-invariants-heading">Live invariants</h3>
      <p className="hint">
        Checked once per simulated second: the leader is in the ISR, HW ≤ LEO, one leader per leader epoch,
        committed metadata and acknowledged records are kept.
      </p>
      {!loaded ? (
        <p>Waiting for the first check…</p>
      ) : rows.length === 0 ? (
        <p className="invariants-ok">
          <span aria-hidden="true">✓ </span>No invariant violated
        </p>
      ) : (
        <ul className="violation-list" aria-label="Invariant violations">
          {rows.map((row) => (
            <li key={row.key}>
              <span aria-hidden="true">⚠ </span>
              <strong>{row.time}</strong>, {row.where}: <code>{row.invariant}</code> — {row.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function FailureBudget() {
  const snapshot = useSimulationStore((state) => state.snapshot);
  const rows = useMemo(() => selectBudgetRows(snapshot), [snapshot]);
  const noTolerance = useMemo(() => selectNoToleranceTopics(snapshot), [snapshot]);
  return (
    <section className="control-section" aria-labelledby="vitals-budget-heading">
      <h3 id="vitals-budget-heading">Failure budget</h3>
      <p className="hint">
        How many more broker losses each partition takes before acks=all writes are refused
        (NOT_ENOUGH_REPLICAS) and before it has no leader (offline).
      </p>
      {noTolerance.map((t) => (
        <p key={t.topic} className="budget-warning" role="note">
          <span aria-hidden="true">⚠ </span>
          <strong>No tolerance: topic {t.topic}</strong> has min.insync.replicas = {t.minInsyncReplicas} and
          replication factor {t.replicationFactor}. Losing any one replica refuses acks=all writes; use
          replication factor − 1.
        </p>
      ))}
      {rows.length === 0 ? (
        <p>No partitions yet.</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="vitals-budget-caption">
          <table className="dashboard-table">
            <caption id="vitals-budget-caption">Failure budget per partition</caption>
            <thead>
              <tr>
                <th scope="col">Partition</th>
                <th scope="col">ISR / RF</th>
                <th scope="col">
                  Losses before NOT_
                  <wbr />
                  ENOUGH_
                  <wbr />
                  REPLICAS
                </th>
                <th scope="col">Losses before offline</th>
              </tr>
            </thead>
            <tbody>
              {rows.slice(0, MAX_BUDGET_ROWS).map((row) => (
                <tr key={row.key} title={row.note}>
                  <th scope="row">
                    {row.key}
                    {row.noTolerance && <span className="flag on"> ⚠ no tolerance</span>}
                  </th>
                  <td>
                    {row.isr} / {row.replicationFactor}
                  </td>
                  <td>{row.beforeNotEnoughReplicas}</td>
                  <td>{row.beforeOffline}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {rows.length > MAX_BUDGET_ROWS && (
        <p className="hint">
          Showing the first {MAX_BUDGET_ROWS} of {rows.length} partitions.
        </p>
      )}
    </section>
  );
}

export function VitalsPanel() {
  useVitalsPolling();
  return (
    <div className="vitals-panel">
      <h2>Vital signs</h2>
      <Charts />
      <Invariants />
      <FailureBudget />
      <CapacityPlanner />
    </div>
  );
}
