// Reassigning one partition to chosen replicas, or cancelling its reassignment
// (kafka-reassign-partitions --execute / --cancel), and the reassignments in progress.
import { useId, useMemo, useState, type FormEvent } from 'react';
import {
  parseReplicaList,
  refusalMessages,
  selectReassignmentRows,
  selectTopicPartitions,
} from '../store/operations';
import { useSimulationStore } from '../store/simulation';
import { CommandOutcome, SelectField, TextField, useCommand } from './form';

export function ReassignForm() {
  const snapshot = useSimulationStore((state) => state.snapshot);
  const topics = useMemo(() => selectTopicPartitions(snapshot), [snapshot]);
  const rows = useMemo(() => selectReassignmentRows(snapshot), [snapshot]);
  const id = useId();
  const command = useCommand();
  const [topic, setTopic] = useState('');
  const [partition, setPartition] = useState('');
  const [replicas, setReplicas] = useState('');
  const topicValue = topics.some((t) => t.topic === topic) ? topic : (topics[0]?.topic ?? '');
  const partitions = topics.find((t) => t.topic === topicValue)?.partitions ?? [];
  const partitionValue =
    partitions.includes(Number(partition)) && partition !== '' ? partition : String(partitions[0] ?? '');

  function reassign(event: FormEvent) {
    event.preventDefault();
    const parsed = parseReplicaList(replicas);
    if (!parsed.ok) {
      command.fail(parsed.error);
      return;
    }
    void command.run(
      {
        type: 'reassignPartitions',
        partitions: [{ topic: topicValue, partition: Number(partitionValue), replicas: parsed.replicas }],
      },
      `Reassignment of ${topicValue}-${partitionValue} to ${parsed.replicas.join(', ')} started: the new replicas copy the log, then the old ones are removed.`,
    );
  }

  function cancel() {
    void command.run(
      {
        type: 'reassignPartitions',
        partitions: [{ topic: topicValue, partition: Number(partitionValue), replicas: null }],
      },
      `Reassignment of ${topicValue}-${partitionValue} cancelled: the partition goes back to its original replicas.`,
    );
  }

  return (
    <section className="control-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Reassign partitions</h3>
      <form onSubmit={reassign} aria-labelledby={`${id}-title`} noValidate>
        <div className="form-grid">
          <SelectField
            id={`${id}-topic`}
            label="Topic"
            value={topicValue}
            onValue={setTopic}
            options={topics.map((t) => t.topic)}
          />
          <SelectField
            id={`${id}-partition`}
            label="Partition"
            value={partitionValue}
            onValue={setPartition}
            options={partitions.map(String)}
          />
          <TextField
            id={`${id}-replicas`}
            label="Target replicas"
            value={replicas}
            placeholder="4,5,6"
            onValue={setReplicas}
            hint="Broker ids separated by commas; the first is the preferred leader."
            errors={refusalMessages(command.error)}
          />
        </div>
        <div className="form-row">
          <button type="submit" disabled={command.busy}>
            Reassign
          </button>
          <button type="button" disabled={command.busy} onClick={cancel}>
            Cancel reassignment
          </button>
        </div>
      </form>
      <CommandOutcome state={command} errors={[]} />
      <h4 id={`${id}-list`}>Reassignments in progress</h4>
      {rows.length === 0 ? (
        <p className="hint">None.</p>
      ) : (
        <ul aria-labelledby={`${id}-list`}>
          {rows.map((row) => (
            <li key={row.key}>
              <strong>{row.partition}</strong>: {row.text}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
