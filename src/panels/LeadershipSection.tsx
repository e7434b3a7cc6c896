// Leadership skew: leaders per broker against the preferred leaders, and a preferred leader
// election for every partition (kafka-leader-election --election-type PREFERRED).
import { useId, useMemo } from 'react';
import { selectLeadership } from '../store/operations';
import { useSimulationStore } from '../store/simulation';
import { CommandOutcome, useCommand } from './form';

export function LeadershipSection() {
  const snapshot = useSimulationStore((state) => state.snapshot);
  const leadership = useMemo(() => selectLeadership(snapshot), [snapshot]);
  const id = useId();
  const command = useCommand();
  return (
    <section className="control-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Leadership skew</h3>
      {leadership ? (
        <>
          <p role="status" aria-live="polite">
            {leadership.text}
          </p>
          {/* A narrow panel scrolls the table sideways rather than cutting off its last column. */}
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={`${id}-caption`}>
            <table className="leadership-table" aria-labelledby={`${id}-caption`}>
              <caption id={`${id}-caption`}>Leaders per broker</caption>
              <thead>
                <tr>
                  <th scope="col">Broker</th>
                  <th scope="col">Leaders</th>
                  <th scope="col">Preferred leader of</th>
                  <th scope="col">Not led by it</th>
                  <th scope="col">Imbalance</th>
                </tr>
              </thead>
              <tbody>
                {leadership.rows.map((row) => (
                  <tr key={row.brokerId}>
                    <th scope="row">{row.brokerId}</th>
                    <td>{row.leaders}</td>
                    <td>{row.preferredLeaders}</td>
                    <td>{row.notLedByPreferred}</td>
                    <td>{row.imbalance}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        <p className="hint">No leadership data yet.</p>
      )}
      <div className="form-row">
        <button
          type="button"
          disabled={command.busy}
          onClick={() =>
            void command.run(
              { type: 'electLeaders', electionType: 'preferred' },
              'Preferred leader election requested for every partition.',
            )
          }
        >
          Elect preferred leaders
        </button>
      </div>
      <CommandOutcome state={command} />
    </section>
  );
}
