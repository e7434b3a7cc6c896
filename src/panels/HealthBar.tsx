// Always visible: the counts an operator watches first (Kafka's OfflinePartitionsCount,
// UnderReplicatedPartitions, UnderMinIsrPartitionCount, ActiveControllerCount), each in words.
import { useMemo } from 'react';
import { selectHealth } from '../store/panels';
import { useSimulationStore } from '../store/simulation';
import './panels.css';

function Metric({ label, value, bad }: { label: string; value: string; bad: boolean }) {
  const text = `${label}: ${value}`;
  return (
    <li className={bad ? 'health-metric bad' : 'health-metric'}>
      <span role="status" aria-label={text}>
        {bad && <span aria-hidden="true">⚠ </span>}
        {label}: <strong>{value}</strong>
      </span>
    </li>
  );
}

export function HealthBar() {
  const snapshot = useSimulationStore((state) => state.snapshot);
  const health = useMemo(() => selectHealth(snapshot), [snapshot]);
  const controller =
    health.activeController === null
      ? `none (epoch ${health.controllerEpoch})`
      : `${health.activeController} (epoch ${health.controllerEpoch})`;
  return (
    <section className="health-bar" aria-label="Cluster health">
      <ul>
        <Metric label="Offline partitions" value={String(health.offline)} bad={health.offline > 0} />
        <Metric
          label="Under-replicated partitions"
          value={String(health.underReplicated)}
          bad={health.underReplicated > 0}
        />
        <Metric
          label="Under min ISR partitions"
          value={String(health.underMinIsr)}
          bad={health.underMinIsr > 0}
        />
        <Metric label="Active controller" value={controller} bad={health.activeController === null} />
      </ul>
    </section>
  );
}
