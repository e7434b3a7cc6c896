// The What if tab: "what if this zone goes dark?". For each rack, and a chosen set of brokers, the
// worker runs the loss forward on a copy of the live cluster (src/worker/whatIf.ts) and the panel
// lists what it did, worst first; Show me plays that branch on the live cluster.
import { useId, useMemo, useState } from 'react';
import { sendCommand } from '../store/connection';
import { selectRacks } from '../store/panels';
import { useSimulationStore } from '../store/simulation';
import {
  askWhatIf,
  showWhatIf,
  useWhatIfStore,
  type WhatIfOutcomeData,
  type WhatIfResultData,
  type WhatIfTargetData,
} from '../store/whatIf';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function PartitionList({ label, names, count }: { label: string; names: string[]; count: number }) {
  if (count === 0) return null;
  return (
    <details>
      <summary>
        {label} ({count})
      </summary>
      <p className="partition-names">
        {names.map((name, i) => (
          <span key={name} className="partition-name">
            {name}
            {i < names.length - 1 ? ', ' : ''}
          </span>
        ))}
        {count > names.length && ` and ${count - names.length} more`}
      </p>
    </details>
  );
}

function Outcome({ result, outcome }: { result: WhatIfResultData; outcome: WhatIfOutcomeData }) {
  const id = useId();
  const [note, setNote] = useState('');
  const severe = outcome.offlineCount > 0 || outcome.lostAcknowledged > 0;
  return (
    <li className={`whatif-outcome${severe ? ' whatif-outcome--severe' : ''}`} aria-labelledby={`${id}-h`}>
      <h4 id={`${id}-h`}>
        <span aria-hidden="true">{severe ? '✕ ' : outcome.underMinIsrCount > 0 ? '⚠ ' : '✓ '}</span>
        {outcome.label}
        {outcome.target.kind === 'rack' && (
          <span className="hint"> (nodes {outcome.nodeIds.join(', ') || 'none running'})</span>
        )}
      </h4>
      <dl className="whatif-figures">
        <div>
          <dt>Partitions offline</dt>
          <dd>{outcome.offlineCount}</dd>
        </div>
        <div>
          <dt>Under min.insync.replicas (acks=all refused)</dt>
          <dd>{outcome.underMinIsrCount}</dd>
        </div>
        <div>
          <dt>Every partition led again after</dt>
          <dd>
            {outcome.allLedAfterMs === null
              ? `not within ${seconds(result.horizonMs)}`
              : outcome.leaderLostCount === 0
                ? 'no leader lost'
                : `${seconds(outcome.allLedAfterMs)} (${outcome.leaderLostCount} elections)`}
          </dd>
        </div>
        <div>
          <dt>Acknowledged records lost (acks=1, not yet copied)</dt>
          <dd>{outcome.lostAcknowledged}</dd>
        </div>
      </dl>
      <PartitionList label="Offline partitions" names={outcome.offline} count={outcome.offlineCount} />
      <PartitionList
        label="Partitions under min.insync.replicas"
        names={outcome.underMinIsr}
        count={outcome.underMinIsrCount}
      />
      {outcome.refused.length > 0 && <p className="hint">Refused: {outcome.refused.join('; ')}</p>}
      <button
        type="button"
        aria-label={`Show me: ${outcome.label}`}
        onClick={() =>
          void showWhatIf(result, outcome, sendCommand).then((error) =>
            setNote(
              error
                ? `Refused: ${error}`
                : `Playing ${outcome.label} from ${seconds(result.atMs)}: the timeline has a new branch there.`,
            ),
          )
        }
      >
        Show me
      </button>
      {note && <p role="status">{note}</p>}
    </li>
  );
}

export function WhatIfPanel() {
  const snapshot = useSimulationStore((state) => state.snapshot);
  const racks = useMemo(() => selectRacks(snapshot), [snapshot]);
  const brokers = useMemo(
    () => (snapshot?.nodes ?? []).filter((n) => n.roles.includes('broker')).map((n) => n.id),
    [snapshot?.nodes],
  );
  const running = useWhatIfStore((s) => s.running);
  const result = useWhatIfStore((s) => s.result);
  const error = useWhatIfStore((s) => s.error);
  const [chosen, setChosen] = useState<number[]>([]);
  const id = useId();

  const ask = (withChosen: boolean) => {
    const targets: WhatIfTargetData[] = racks.map((r) => ({ kind: 'rack', rack: r.rack }));
    if (withChosen && chosen.length > 0)
      targets.push({ kind: 'nodes', nodeIds: [...chosen].sort((a, b) => a - b) });
    askWhatIf(targets);
  };

  return (
    <div className="whatif-panel">
      <h2>What if this zone goes dark?</h2>
      <p className="hint">
        Each loss is a power cut (every node crashes at once), run {seconds(30_000)} forward on a copy of the
        cluster as it is now. The live cluster is not touched until you press Show me.
      </p>
      <div className="form-row">
        <button type="button" disabled={running !== null || racks.length === 0} onClick={() => ask(false)}>
          Lose each zone
        </button>
        {racks.length === 0 && <span className="hint">No node has a rack: choose brokers below.</span>}
      </div>
      <fieldset>
        <legend>Or a set of brokers</legend>
        <div className="broker-choices" role="group" aria-labelledby={`${id}-brokers`}>
          <span id={`${id}-brokers`} className="visually-hidden">
            Brokers to lose together
          </span>
          {brokers.map((b) => (
            <label key={b} className="checkbox">
              <input
                type="checkbox"
                checked={chosen.includes(b)}
                onChange={(e) => setChosen((c) => (e.target.checked ? [...c, b] : c.filter((x) => x !== b)))}
              />
              {b}
            </label>
          ))}
        </div>
        <button type="button" disabled={running !== null || chosen.length === 0} onClick={() => ask(true)}>
          Lose these brokers (and each zone)
        </button>
      </fieldset>
      {running && (
        <p role="status">
          Running branch {Math.min(running.done + 1, running.total)} of {running.total}…
        </p>
      )}
      {error && <p role="alert">The what-if could not be run: {error}</p>}
      {result && (
        <section aria-labelledby={`${id}-result`}>
          <h3 id={`${id}-result`}>
            From {seconds(result.atMs)}, {seconds(result.horizonMs)} forward, worst first
          </h3>
          <ol className="whatif-outcomes" aria-label="What losing it would do">
            {result.outcomes.map((o) => (
              <Outcome key={o.label} result={result} outcome={o} />
            ))}
          </ol>
        </section>
      )}
    </div>
  );
}
