// Admin forms (kafka-topics --create, kafka-configs --alter): Kafka's refusals are shown next to
// the field they concern, and a refused request changes nothing.
import { useId, useMemo, useState, type FormEvent } from 'react';
import { errorsByField, parseConfigEntries, type ConfigValue } from '../store/panels';
import { useSimulationStore } from '../store/simulation';
import { CommandOutcome, describedBy, FieldErrors, useCommand } from './form';

/** The messages for the fields a form shows, and the rest for the form as a whole. */
function splitErrors(error: string | null, aliases: Record<string, string>, fields: readonly string[]) {
  const byField = errorsByField(error, aliases);
  const formErrors = [...byField].filter(([f]) => !fields.includes(f ?? '')).flatMap(([, m]) => m);
  return { at: (field: string) => byField.get(field), formErrors };
}

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
  const { at, formErrors } = splitErrors(command.error, CREATE_ALIASES, CREATE_FIELDS);
  const errorId = (field: string) => (at(field) ? `${id}-${field}-error` : undefined);
  const invalid = (field: string) => (at(field) ? true : undefined);

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
          <label htmlFor={`${id}-name`}>Topic name</label>
          <div>
            <input
              id={`${id}-name`}
              value={name}
              onChange={(e) => setName(e.target.value)}
              aria-invalid={invalid('name')}
              aria-describedby={errorId('name')}
            />
            <FieldErrors id={`${id}-name-error`} messages={at('name')} />
          </div>
          <label htmlFor={`${id}-partitions`}>Partitions</label>
          <div>
            <input
              id={`${id}-partitions`}
              type="number"
              value={partitions}
              onChange={(e) => setPartitions(e.target.value)}
              aria-invalid={invalid('partitions')}
              aria-describedby={errorId('partitions')}
            />
            <FieldErrors id={`${id}-partitions-error`} messages={at('partitions')} />
          </div>
          <label htmlFor={`${id}-rf`}>Replication factor</label>
          <div>
            <input
              id={`${id}-rf`}
              type="number"
              value={replicationFactor}
              onChange={(e) => setReplicationFactor(e.target.value)}
              aria-invalid={invalid('replicationFactor')}
              aria-describedby={errorId('replicationFactor')}
            />
            <FieldErrors id={`${id}-replicationFactor-error`} messages={at('replicationFactor')} />
          </div>
          <label htmlFor={`${id}-minIsr`}>min.insync.replicas</label>
          <div>
            <input
              id={`${id}-minIsr`}
              type="number"
              value={minIsr}
              onChange={(e) => setMinIsr(e.target.value)}
              aria-invalid={invalid('minIsr')}
              aria-describedby={describedBy(`${id}-minIsr-hint`, errorId('minIsr'))}
            />
            <p className="hint" id={`${id}-minIsr-hint`}>
              Empty for the cluster default.
            </p>
            <FieldErrors id={`${id}-minIsr-error`} messages={at('minIsr')} />
          </div>
          <span />
          <div>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={unclean}
                onChange={(e) => setUnclean(e.target.checked)}
                aria-invalid={invalid('unclean')}
                aria-describedby={errorId('unclean')}
              />
              unclean.leader.election.enable (may lose acknowledged records)
            </label>
            <FieldErrors id={`${id}-unclean-error`} messages={at('unclean')} />
          </div>
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
  const { at: atCommand, formErrors } = splitErrors(command.error, aliases, ALTER_FIELDS);
  const configErrors = errorsByField(command.error);
  const entryErrors = [
    ...(parseError ? [parseError] : []),
    ...[...configErrors].filter(([f]) => f?.startsWith('config:')).flatMap(([, m]) => m),
    ...(atCommand('entries') ?? []),
  ];
  const at = (field: string) =>
    field === 'entries' ? (entryErrors.length ? entryErrors : undefined) : atCommand(field);
  const errorId = (field: string) => (at(field) ? `${id}-${field}-error` : undefined);

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
          <label htmlFor={`${id}-type`}>Resource type</label>
          <div>
            <select
              id={`${id}-type`}
              value={resourceType}
              onChange={(e) => setResourceType(e.target.value as 'topic' | 'broker' | 'cluster')}
            >
              <option value="topic">topic</option>
              <option value="broker">broker</option>
              <option value="cluster">cluster (default for every broker)</option>
            </select>
          </div>
          {resourceType !== 'cluster' && (
            <>
              <label htmlFor={`${id}-name`}>{resourceType === 'topic' ? 'Topic' : 'Broker'}</label>
              <div>
                <select
                  id={`${id}-name`}
                  value={nameValue}
                  onChange={(e) => setResourceName(e.target.value)}
                  aria-invalid={at('resourceName') ? true : undefined}
                  aria-describedby={errorId('resourceName')}
                >
                  {names.map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
                <FieldErrors id={`${id}-resourceName-error`} messages={at('resourceName')} />
              </div>
            </>
          )}
          <label htmlFor={`${id}-entries`}>Configs (key=value)</label>
          <div>
            <input
              id={`${id}-entries`}
              value={entries}
              onChange={(e) => setEntries(e.target.value)}
              aria-invalid={at('entries') ? true : undefined}
              aria-describedby={describedBy(`${id}-entries-hint`, errorId('entries'))}
            />
            <p className="hint" id={`${id}-entries-hint`}>
              Separate several with commas; an empty value (key=) deletes the override.
            </p>
            <FieldErrors id={`${id}-entries-error`} messages={at('entries')} />
          </div>
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
