// How far each dynamic config change has propagated: which brokers have applied it.
import { useId, useMemo } from 'react';
import { selectConfigRows } from '../store/operations';
import { useSimulationStore } from '../store/simulation';

export function ConfigPropagation() {
  const snapshot = useSimulationStore((state) => state.snapshot);
  const rows = useMemo(() => selectConfigRows(snapshot), [snapshot]);
  const id = useId();
  return (
    <section className="control-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Config propagation</h3>
      {rows.length === 0 ? (
        <p className="hint">No dynamic config changes yet (use Alter configs).</p>
      ) : (
        <ul aria-labelledby={`${id}-title`}>
          {rows.map((row) => (
            <li key={row.key}>
              <strong>{row.change}</strong> — {row.propagation}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
