// Network faults: isolate a node or a whole rack (zone), cut one link, heal everything.
import { useId, useMemo, useState } from 'react';
import { isolationGroups, selectRacks } from '../store/panels';
import { useSimulationStore } from '../store/simulation';
import { CommandOutcome, useCommand } from './form';

export function NetworkControls() {
  const snapshot = useSimulationStore((state) => state.snapshot);
  const nodes = useMemo(() => snapshot?.nodes ?? [], [snapshot?.nodes]);
  const racks = useMemo(() => selectRacks(snapshot), [snapshot]);
  const clients = useMemo(
    () => [
      ...(snapshot?.clients.producers ?? []).map((p) => p.id),
      ...(snapshot?.clients.consumers ?? []).map((c) => c.id),
    ],
    [snapshot?.clients],
  );
  const cuts = snapshot?.network.cuts ?? [];
  const command = useCommand();
  const id = useId();
  const [node, setNode] = useState('');
  const [rack, setRack] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [oneWay, setOneWay] = useState(false);

  const nodeValue = node || String(nodes[0]?.id ?? '');
  const rackValue = rack || (racks[0]?.rack ?? '');
  const fromValue = from || String(nodes[0]?.id ?? '');
  const toValue = to || String(nodes[1]?.id ?? nodes[0]?.id ?? '');
  const endpoint = (value: string): number | string => (/^\d+$/.test(value) ? Number(value) : value);
  const endpointOptions = (
    <>
      <optgroup label="Nodes">
        {nodes.map((n) => (
          <option key={n.id} value={n.id}>
            {`Node ${n.id} (${n.roles.join(' + ')}${n.rack ? `, ${n.rack}` : ''})`}
          </option>
        ))}
      </optgroup>
      {clients.length > 0 && (
        <optgroup label="Clients">
          {clients.map((c) => (
            <option key={c} value={c}>
              {`Client ${c}`}
            </option>
          ))}
        </optgroup>
      )}
    </>
  );

  return (
    <section className="control-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Network</h3>
      <p className="hint" id={`${id}-hint`}>
        Isolating replaces any earlier partition of the network; cut links add up until you heal.
      </p>
      <div className="form-row">
        <label htmlFor={`${id}-node`}>Node to isolate</label>
        <select id={`${id}-node`} value={nodeValue} onChange={(e) => setNode(e.target.value)}>
          {nodes.map((n) => (
            <option key={n.id} value={n.id}>
              {`Node ${n.id} (${n.roles.join(' + ')})`}
            </option>
          ))}
        </select>
        <button
          type="button"
          disabled={command.busy || nodeValue === ''}
          aria-describedby={`${id}-hint`}
          onClick={() =>
            void command.run(
              { type: 'partitionNetwork', groups: isolationGroups(snapshot, [Number(nodeValue)]) },
              `Node ${nodeValue} is isolated from every other node (NetworkPartitioned).`,
            )
          }
        >
          Isolate node
        </button>
      </div>
      {racks.length > 0 && (
        <div className="form-row">
          <label htmlFor={`${id}-rack`}>Rack or zone to isolate</label>
          <select id={`${id}-rack`} value={rackValue} onChange={(e) => setRack(e.target.value)}>
            {racks.map((r) => (
              <option key={r.rack} value={r.rack}>
                {`${r.rack} (nodes ${r.nodeIds.join(', ')})`}
              </option>
            ))}
          </select>
          <button
            type="button"
            disabled={command.busy || rackValue === ''}
            aria-describedby={`${id}-hint`}
            onClick={() => {
              const members = racks.find((r) => r.rack === rackValue)?.nodeIds ?? [];
              void command.run(
                { type: 'partitionNetwork', groups: isolationGroups(snapshot, members) },
                `Rack ${rackValue} (nodes ${members.join(', ')}) is cut off from the other racks (NetworkPartitioned).`,
              );
            }}
          >
            Isolate rack
          </button>
        </div>
      )}
      <fieldset>
        <legend>Cut a link</legend>
        <div className="form-row">
          <label htmlFor={`${id}-from`}>From</label>
          <select id={`${id}-from`} value={fromValue} onChange={(e) => setFrom(e.target.value)}>
            {endpointOptions}
          </select>
          <label htmlFor={`${id}-to`}>To</label>
          <select id={`${id}-to`} value={toValue} onChange={(e) => setTo(e.target.value)}>
            {endpointOptions}
          </select>
        </div>
        <div className="form-row">
          <label className="checkbox">
            <input type="checkbox" checked={oneWay} onChange={(e) => setOneWay(e.target.checked)} />
            One way (only messages from → to are lost)
          </label>
          <button
            type="button"
            disabled={command.busy || fromValue === toValue}
            onClick={() =>
              void command.run(
                { type: 'cutLink', from: endpoint(fromValue), to: endpoint(toValue), oneWay },
                `The link ${fromValue} ${oneWay ? '→' : '↔'} ${toValue} is cut (LinkCut).`,
              )
            }
          >
            Cut link
          </button>
        </div>
      </fieldset>
      <div className="form-row">
        <button
          type="button"
          disabled={command.busy}
          onClick={() => void command.run({ type: 'healNetwork' }, 'The network is healed (NetworkHealed).')}
        >
          Heal network
        </button>
      </div>
      <CommandOutcome state={command} />
      <h4>Cut links now</h4>
      {cuts.length === 0 ? (
        <p>None: every node reaches every other (unless a partition isolates some).</p>
      ) : (
        <ul className="cut-list">
          {cuts.map((cut) => (
            <li key={`${cut.from}>${cut.to}`}>
              {String(cut.from)} → {String(cut.to)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
