// The Regions tab: a standby cluster in another region fed by MirrorMaker (a scenario's `mirror`),
// how far it trails, and after losing the primary region, which acknowledged records it never got.
import { useId, useMemo } from 'react';
import { selectRegions, type RegionView, type RegionsModel } from '../store/regions';
import { useSimulationStore } from '../store/simulation';
import { CommandOutcome, useCommand } from './form';

function RegionCard({ region }: { region: RegionView }) {
  const id = useId();
  return (
    <section className="region-card" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        {region.name} ({region.role}){' '}
        <span className={region.up ? 'region-state' : 'region-state lost'}>
          {region.up ? '● up' : '✕ lost'}
        </span>
      </h3>
      <ul className="region-nodes" aria-label={`Nodes in ${region.name}`}>
        {region.nodes.map((n) => (
          <li key={n.id}>
            <span aria-hidden="true">{n.alive ? '✓' : '✕'}</span> Node {n.id} ({n.roles}
            {n.rack ? `, ${n.rack}` : ''}): {n.alive ? 'running' : 'down'}
          </li>
        ))}
      </ul>
    </section>
  );
}

function LagTable({ model }: { model: RegionsModel }) {
  const id = useId();
  if (model.lag.length === 0)
    return <p>MirrorMaker has not read anything yet: it creates the topics in the standby first.</p>;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={`${id}-caption`}>
      <p className="hint" id={`${id}-hint`}>
        Primary: records committed there since mirroring began. Standby: of those, acknowledged by the
        standby. Lag: the difference, in records; Lag (ms): the age of the oldest record the standby lacks.
      </p>
      <table className="dashboard-table mirror-lag" aria-describedby={`${id}-hint`}>
        <caption id={`${id}-caption`}>Mirror lag per partition</caption>
        <thead>
          <tr>
            <th scope="col">Partition</th>
            <th scope="col">Primary</th>
            <th scope="col">Standby</th>
            <th scope="col">Lag</th>
            <th scope="col">Lag (ms)</th>
          </tr>
        </thead>
        <tbody>
          {model.lag.map((l) => (
            <tr key={l.key}>
              <th scope="row">{l.label}</th>
              <td>{l.sourceCommitted}</td>
              <td>{l.mirrored}</td>
              <td>{l.caughtUp ? '✓ 0' : `◐ ${l.lagRecords}`}</td>
              <td>{l.lagMs}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function StandbyPartitions({ model }: { model: RegionsModel }) {
  const id = useId();
  if (model.standbyPartitions.length === 0) return null;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={`${id}-caption`}>
      <table className="dashboard-table">
        <caption id={`${id}-caption`}>Standby partitions ({model.standby.name})</caption>
        <thead>
          <tr>
            <th scope="col">Partition</th>
            <th scope="col">Leader</th>
            <th scope="col">ISR</th>
            <th scope="col">HW</th>
          </tr>
        </thead>
        <tbody>
          {model.standbyPartitions.map((p) => (
            <tr key={p.key} className={p.offline ? 'offline' : undefined}>
              <th scope="row">{p.label}</th>
              <td>{p.offline ? '⚠ none (offline)' : p.leader}</td>
              <td>{p.isr}</td>
              <td>{p.highWatermark}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function FailoverReport({ model }: { model: RegionsModel }) {
  const id = useId();
  const f = model.failover;
  if (!f) return null;
  return (
    <section className="control-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Failover report</h3>
      {f.missingCount === 0 ? (
        <p role="status">✓ {f.message}</p>
      ) : (
        <div className="data-loss" role="status">
          <p>
            <strong>⚠ Missing in the standby:</strong> {f.missingCount} acknowledged record(s) the standby
            never received, from the last {f.windowMs} ms before {model.primary.name} was lost at {f.lostAt}.
          </p>
          <p>
            Newest acknowledgement the standby has:{' '}
            {f.newestMirroredAck === null ? 'none' : f.newestMirroredAck}. Mirroring is asynchronous: a write
            is acknowledged in the primary before MirrorMaker copies it.
          </p>
          <ul aria-label="Missing records by stage">
            {f.stages.map((s) => (
              <li key={s.stage}>
                {s.count} {s.stage}
              </li>
            ))}
          </ul>
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={`${id}-caption`}>
            <table className="ledger-table">
              <caption id={`${id}-caption`}>
                Missing records
                {f.records.length < f.missingCount ? ` (the newest ${f.records.length})` : ''}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Partition</th>
                  <th scope="col">Offset</th>
                  <th scope="col">Key</th>
                  <th scope="col">Value</th>
                  <th scope="col">Acknowledged at</th>
                  <th scope="col">Stage</th>
                </tr>
              </thead>
              <tbody>
                {f.records.map((r) => (
                  <tr key={r.key}>
                    <td>{r.label}</td>
                    <td>{r.offset}</td>
                    <td>{r.recordKey}</td>
                    <td>{r.value}</td>
                    <td>{r.ackedAt}</td>
                    <td>{r.stage}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </section>
  );
}

export function RegionsPanel() {
  const snapshot = useSimulationStore((state) => state.snapshot);
  const model = useMemo(() => selectRegions(snapshot), [snapshot]);
  const command = useCommand();
  const id = useId();

  if (!model)
    return (
      <section className="control-section" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>Regions</h2>
        <p>
          This cluster runs in one region only: there is no standby cluster to mirror to. Open the{' '}
          <a href="?preset=two-regions">Two regions preset</a> (<code>?preset=two-regions</code>), or add a{' '}
          <code>mirror</code> block to a scenario (docs/scenario.md).
        </p>
      </section>
    );

  return (
    <>
      <section className="control-section" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>Regions</h2>
        <p className="hint">
          MirrorMaker copies {model.topics.join(', ')} from {model.primary.name} to {model.standby.name} every{' '}
          {model.pollIntervalMs} ms; the regions are {model.crossRegionLatencyMs} ms apart; it writes to the
          standby with acks={model.acks}. Standby controller:{' '}
          {model.standbyControllerId === null ? 'none active' : `node ${model.standbyControllerId}`}.
        </p>
        <div className="region-cards">
          <RegionCard region={model.primary} />
          <RegionCard region={model.standby} />
        </div>
        <p role="status">
          {model.regionLost
            ? `${model.primary.name} is lost: MirrorMaker reads no more.`
            : model.totalLagRecords === 0
              ? '✓ The standby has every committed record of the mirrored topics.'
              : `◐ The standby trails by ${model.totalLagRecords} record(s), the oldest ${model.maxLagMs} ms old.`}
        </p>
        <LagTable model={model} />
        <StandbyPartitions model={model} />
        <div className="form-row">
          <button
            type="button"
            disabled={command.busy || model.regionLost}
            aria-describedby={`${id}-lose-hint`}
            onClick={() =>
              void command.run(
                { type: 'loseRegion' },
                `${model.primary.name} is lost (RegionLost): every primary node crashed.`,
              )
            }
          >
            Lose primary region
          </button>
        </div>
        <p className="hint" id={`${id}-lose-hint`}>
          Every node of {model.primary.name} crashes and the link between the regions is cut; the report lists
          the acknowledged records the standby never received.
        </p>
        <CommandOutcome state={command} />
      </section>
      <FailoverReport model={model} />
    </>
  );
}
