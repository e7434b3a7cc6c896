// The fields of a record to send, shared by the console producer's form and a transactional
// producer's "Send in transaction" form: the topic, the partition (or the default partitioner), the
// key and the value.
import { useState } from 'react';
import { SelectField, TextField } from './form';

export interface RecordDraft {
  /** The chosen topic, or the form's default when none was chosen yet. */
  topic: string;
  /** '' for the default partitioner, else the partition number. */
  partition: string;
  key: string;
  value: string;
}

/** The draft record's state; `fallbackTopic` stands until the user chooses one. */
export function useRecordDraft(initial: { key: string; value: string }, fallbackTopic: string) {
  const [topic, setTopic] = useState('');
  const [partition, setPartition] = useState('');
  const [key, setKey] = useState(initial.key);
  const [value, setValue] = useState(initial.value);
  const draft: RecordDraft = { topic: topic || fallbackTopic, partition, key, value };
  return {
    draft,
    setTopic: (t: string) => {
      setTopic(t);
      setPartition('');
    },
    setPartition,
    setKey,
    setValue,
  };
}

export function RecordFields({
  id,
  topics,
  draft,
  setTopic,
  setPartition,
  setKey,
  setValue,
  errors,
  partitionHint,
  valueHint,
}: ReturnType<typeof useRecordDraft> & {
  /** The form's id prefix: each field's id is `${id}-topic`, `${id}-partition`, … */
  id: string;
  topics: readonly { name: string; partitions: number }[];
  errors: (field: string) => string[] | undefined;
  partitionHint?: string;
  valueHint?: string;
}) {
  const partitions = topics.find((t) => t.name === draft.topic)?.partitions ?? 0;
  return (
    <>
      <SelectField
        id={`${id}-topic`}
        label="Topic"
        value={draft.topic}
        onValue={setTopic}
        options={topics.map((t) => t.name)}
        errors={errors('topic')}
      />
      <SelectField
        id={`${id}-partition`}
        label="Partition"
        value={draft.partition}
        onValue={setPartition}
        hint={partitionHint}
        errors={errors('partition')}
      >
        <option value="">By key (default partitioner)</option>
        {Array.from({ length: partitions }, (_, p) => (
          <option key={p} value={p}>
            {`${draft.topic}-${p}`}
          </option>
        ))}
      </SelectField>
      <TextField
        id={`${id}-key`}
        label="Key"
        value={draft.key}
        onValue={setKey}
        hint="Empty for a null key."
        errors={errors('key')}
      />
      <TextField
        id={`${id}-value`}
        label="Value"
        value={draft.value}
        onValue={setValue}
        hint={valueHint}
        errors={errors('value')}
      />
    </>
  );
}
