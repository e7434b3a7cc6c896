// Adding a broker: a node id and a rack. It registers with the controller and hosts no partition
// until a reassignment moves replicas onto it.
import { useId, useMemo, useState, type FormEvent } from 'react';
import { nextNodeId, parseNodeId, refusalMessages, selectBrokerRacks } from '../store/operations';
import { useSimulationStore } from '../store/simulation';
import { CommandOutcome, SelectField, TextField, useCommand } from './form';

const NO_RACK = '';

export function AddBrokerForm() {
  const snapshot = useSimulationStore((state) => state.snapshot);
  const racks = useMemo(() => selectBrokerRacks(snapshot), [snapshot]);
  const next = nextNodeId(snapshot);
  const id = useId();
  const command = useCommand();
  const [nodeId, setNodeId] = useState<string | null>(null);
  const [rack, setRack] = useState<string | null>(null);
  const nodeIdValue = nodeId ?? String(next);
  // A new broker joins the first rack by default: Kafka refuses a rack-aware plan over brokers with and without racks.
  const rackValue =
    rack !== null && (rack === NO_RACK || racks.includes(rack)) ? rack : (racks[0] ?? NO_RACK);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseNodeId(nodeIdValue);
    if (!parsed.ok) {
      command.fail(parsed.error);
      return;
    }
    void command
      .run(
        {
          type: 'addNode',
          nodeId: parsed.nodeId,
          roles: ['broker'],
          ...(rackValue !== NO_RACK ? { rack: rackValue } : {}),
        },
        `Broker ${parsed.nodeId} added${rackValue !== NO_RACK ? ` in ${rackValue}` : ''}: it registers with the controller and hosts no partition until a reassignment moves some onto it.`,
      )
      .then((ok) => {
        if (ok) setNodeId(null);
      });
  }

  return (
    <section className="control-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Add a broker</h3>
      <form onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
        <div className="form-grid">
          <TextField
            id={`${id}-node`}
            label="Node id"
            type="number"
            min={1}
            value={nodeIdValue}
            onValue={setNodeId}
            errors={refusalMessages(command.error)}
          />
          <SelectField id={`${id}-rack`} label="Rack" value={rackValue} onValue={setRack} options={racks}>
            <option value={NO_RACK}>no rack</option>
          </SelectField>
        </div>
        <div className="form-row">
          <button type="submit" disabled={command.busy}>
            Add broker
          </button>
        </div>
      </form>
      <CommandOutcome state={command} errors={[]} />
    </section>
  );
}
