// Admin forms (kafka-topics --create, kafka-configs --alter): Kafka's refusals are shown next to
// the field they concern, and a refused request changes nothing.
import { useId, useMemo, useState, type FormEvent } from 'react';
import { errorsByField, parseConfigEntries, type ConfigValue } from '../store/panels';
import { useSimulationStore } from '../store/simulation';
import { CheckboxField, CommandOutcome, SelectField, TextField, splitErrors, useCommand } from './form';

const CREATE_FIELDS = ['name', 'partitions', 'replicationFactor', 'minIsr', 'unclean'] as const;
const CREATE_ALIASES = {
  topic: 'name',
  'config:min.insync.replicas': 'minIsr',
  'config:unclean.leader.election.enable': 'unclean',
};

export function CreateTopicForm() {
  const id = useId();
  const command = useCommand();
  const [name, setName] = useState('payments');
  const [partitions, setPartitions] = useState('3');
  const [replicationFactor, setReplicationFactor] = useState('3');
  const [minIsr, setMinIsr] = useState('2');
  const [unclean, setUnclean] = useState(false);
  const { at, formErrors } = splitErrors(command.error, CREATE_FIELDS, CREATE_ALIASES);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const config: Record<string, ConfigValue> = {};
    if (minIsr.trim() !== '') config['min.insync.replicas'] = Number(minIsr);
    if (unclean) config['unclean.leader.election.enable'] = true;
    void command.run(
      {
        type: 'createTopic',
        name,
        partitions: Number(partitions),
        replicationFactor: Number(replicationFactor),
        ...(Object.keys(config).length ? { config } : {}),
      },
      `Topic ${name} created with ${partitions} partition(s), replication factor ${replicationFactor} (TopicCreated once the controller commits it).`,
    );
  }

  return (
    <section className="control-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Create a topic</h3>
      <form onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
        <div className="form-grid">
          <TextField
            id={`${id}-name`}
            label="Topic name"
            value={name}
            onValue={setName}
            errors={at('name')}
          />
          <TextField
            id={`${id}-partitions`}
            label="Partitions"
            type="number"
            value={partitions}
            onValue={setPartitions}
            errors={at('partitions')}
          />
          <TextField
            id={`${id}-rf`}
            label="Replication factor"
            type="number"
            value={replicationFactor}
            onValue={setReplicationFactor}
            errors={at('replicationFactor')}
            errorId={`${id}-replicationFactor-error`}
          />
          <TextField
            id={`${id}-minIsr`}
            label="min.insync.replicas"
            type="number"
            value={minIsr}
            onValue={setMinIsr}
            hint="Empty for the cluster default."
            errors={at('minIsr')}
          />
          <CheckboxField
            label="unclean.leader.election.enable (may lose acknowledged records)"
            checked={unclean}
            onChecked={setUnclean}
            errors={at('unclean')}
            errorId={`${id}-unclean-error`}
          />
        </div>
        <div className="form-row">
          <button type="submit" disabled={command.busy}>
            Create topic
          </button>
        </div>
      </form>
      <CommandOutcome state={command} errors={formErrors} />
    </section>
  );
}

const ALTER_FIELDS = ['resourceName', 'entries'] as const;

export function AlterConfigForm() {
  const snapshot = useSimulationStore((state) => state.snapshot);
  // The user's topics first, Kafka's internal ones (__consumer_offsets) last.
  const topics = useMemo(
    () =>
      (snapshot?.topics ?? [])
        .map((t) => t.name)
        .sort(
          (a, b) => Number(a.startsWith('__')) - Number(b.startsWith('__')) || (a < b ? -1 : a > b ? 1 : 0),
        ),
    [snapshot?.topics],
  );
  const brokers = useMemo(
    () => (snapshot?.nodes ?? []).filter((n) => n.roles.includes('broker')).map((n) => String(n.id)),
    [snapshot?.nodes],
  );
  const id = useId();
  const command = useCommand();
  const [resourceType, setResourceType] = useState<'topic' | 'broker' | 'cluster'>('topic');
  const [resourceName, setResourceName] = useState('');
  const [entries, setEntries] = useState('min.insync.replicas=2');
  const [parseError, setParseError] = useState<string | null>(null);
  const names = resourceType === 'topic' ? topics : resourceType === 'broker' ? brokers : [];
  const nameValue = names.includes(resourceName) ? resourceName : (names[0] ?? '');
  // Every config refusal belongs to the key=value field; a missing topic to the name.
  const aliases: Record<string, string> = { topic: 'resourceName', name: 'resourceName', configs: 'entries' };
  const { at: atCommand, formErrors } = splitErrors(command.error, ALTER_FIELDS, aliases);
  const configErrors = errorsByField(command.error);
  const entryErrors = [
    ...(parseError ? [parseError] : []),
    ...[...configErrors].filter(([f]) => f?.startsWith('config:')).flatMap(([, m]) => m),
    ...(atCommand('entries') ?? []),
  ];
  const at = (field: string) =>
    field === 'entries' ? (entryErrors.length ? entryErrors : undefined) : atCommand(field);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseConfigEntries(entries);
    if (!parsed.ok) {
      setParseError(parsed.error);
      command.fail('');
      return;
    }
    setParseError(null);
    void command.run(
      {
        type: 'alterConfig',
        resourceType,
        ...(resourceType === 'cluster' ? {} : { resourceName: nameValue }),
        configs: parsed.configs,
      },
      `Config of ${resourceType === 'cluster' ? 'the cluster' : `${resourceType} ${nameValue}`} altered: ${entries} (ConfigRecord; each broker applies it from the metadata log).`,
    );
  }

  return (
    <section className="control-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Alter configs</h3>
      <form onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
        <div className="form-grid">
          <SelectField id={`${id}-type`} label="Resource type" value={resourceType} onValue={setResourceType}>
            <option value="topic">topic</option>
            <option value="broker">broker</option>
            <option value="cluster">cluster (default for every broker)</option>
          </SelectField>
          {resourceType !== 'cluster' && (
            <SelectField
              id={`${id}-name`}
              label={resourceType === 'topic' ? 'Topic' : 'Broker'}
              value={nameValue}
              onValue={setResourceName}
              options={names}
              errors={at('resourceName')}
              errorId={`${id}-resourceName-error`}
            />
          )}
          <TextField
            id={`${id}-entries`}
            label="Configs (key=value)"
            value={entries}
            onValue={setEntries}
            hint="Separate several with commas; an empty value (key=) deletes the override."
            errors={at('entries')}
          />
        </div>
        <div className="form-row">
          <button type="submit" disabled={command.busy}>
            Alter configs
          </button>
        </div>
      </form>
      <CommandOutcome state={command} errors={formErrors.filter((m) => !entryErrors.includes(m))} />
    </section>
  );
}
