import { useMemo } from 'react';
import { selectPartitionRows } from '../store/selectors';
import { useSimulationStore } from '../store/simulation';

export function PartitionTable() {
  const snapshot = useSimulationStore((state) => state.snapshot);
  const rows = useMemo(() => selectPartitionRows(snapshot), [snapshot]);
  return (
    <table className="partitions">
      <caption>Partitions</caption>
      <thead>
        <tr>
          <th scope="col">Topic</th>
          <th scope="col">Partition</th>
          <th scope="col">Leader</th>
          <th scope="col">Replicas</th>
          <th scope="col">ISR</th>
          <th scope="col">
            <abbr title="High watermark: the offset below which consumers can read">HW</abbr>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} className={row.offline ? 'offline' : undefined}>
            <td>{row.topic}</td>
            <td>{row.partition}</td>
            <td>{row.leader}</td>
            <td>{row.replicas}</td>
            <td>{row.isr}</td>
            <td>{row.highWatermark}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
