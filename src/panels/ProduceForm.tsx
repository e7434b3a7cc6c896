// The console producer: send records with a chosen acks and see what became of each (acked at an
// offset, or Kafka's error), as kafka-console-producer would print it.
import { useId, useMemo, useState, type FormEvent } from 'react';
import { requestLedger } from '../store/connection';
import { ledgerRow, ledgerSummary, type Acks } from '../store/panels';
import { useSimulationStore } from '../store/simulation';
import { CommandOutcome, KafkaText, SelectField, TextField, splitErrors, useCommand } from './form';
import { useLedger } from './useLedger';
import { RecordFields, useRecordDraft } from './RecordFields';

export const CONSOLE_PRODUCER_ID = 'console-producer';
const MAX_COUNT = 100;
const FIELDS = ['topic', 'partition', 'key', 'value', 'acks', 'count'];

export function ProduceForm() {
  const topics = useSimulationStore((state) => state.snapshot?.topics);
  const userTopics = useMemo(() => (topics ?? []).filter((t) => !t.name.startsWith('__')), [topics]);
  const id = useId();
  const command = useCommand();
  const record = useRecordDraft({ key: 'order-1', value: 'hello' }, userTopics[0]?.name ?? '');
  const { topic: topicValue, partition, key, value } = record.draft;
  const [acks, setAcks] = useState<'0' | '1' | 'all'>('all');
  const [count, setCount] = useState('1');
  const [batch, setBatch] = useState<number[] | null>(null);

  const { at: fieldError, formErrors } = splitErrors(command.error, FIELDS);

  const { reply } = useLedger(
    batch ? { producerId: CONSOLE_PRODUCER_ID, limit: Math.max(batch.length, 10) } : null,
  );
  const batchEntries = useMemo(() => {
    if (!batch || !reply) return [];
    const ids = new Set(batch);
    return reply.entries.filter((e) => ids.has(e.recordId));
  }, [batch, reply]);
  const summary = ledgerSummary(batchEntries);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const n = Number(count);
    const ok = await command.run(
      {
        type: 'produce',
        producerId: CONSOLE_PRODUCER_ID,
        topic: topicValue,
        key: key === '' ? null : key,
        value,
        acks: (acks === 'all' ? 'all' : Number(acks)) as Acks,
        count: Number.isFinite(n) ? n : 1,
        ...(partition === '' ? {} : { partition: Number(partition) }),
      },
      `Sent ${n} record${n === 1 ? '' : 's'} to ${topicValue}${partition === '' ? '' : `-${partition}`} with acks=${acks}.`,
    );
    if (!ok) return;
    // The worker applied the command before it reads this query: its records are the latest.
    const sent = await requestLedger({ producerId: CONSOLE_PRODUCER_ID, limit: n });
    setBatch(sent.entries.map((e) => e.recordId));
  }

  return (
    <section className="control-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Produce records</h3>
      <form onSubmit={(e) => void onSubmit(e)} aria-labelledby={`${id}-title`} noValidate>
        <div className="form-grid">
          <RecordFields
            id={id}
            topics={userTopics}
            {...record}
            errors={fieldError}
            partitionHint="Without a partition, murmur2 of the key picks one."
          />

          <SelectField
            id={`${id}-acks`}
            label="acks"
            value={acks}
            onValue={setAcks}
            hint="With acks=all, fewer in-sync replicas than min.insync.replicas means NOT_ENOUGH_REPLICAS."
            errors={fieldError('acks')}
          >
            <option value="all">all (every in-sync replica)</option>
            <option value="1">1 (the leader only)</option>
            <option value="0">0 (no acknowledgement)</option>
          </SelectField>

          <TextField
            id={`${id}-count`}
            label="Count"
            type="number"
            min={1}
            max={MAX_COUNT}
            value={count}
            onValue={setCount}
            errors={fieldError('count')}
          />
        </div>
        <div className="form-row">
          <button type="submit" disabled={command.busy || topicValue === ''}>
            Send
          </button>
        </div>
      </form>
      <CommandOutcome state={command} errors={formErrors}>
        {summary && (
          <p className={batchEntries.some((e) => e.error) ? 'produce-summary has-error' : 'produce-summary'}>
            Latest send: <KafkaText text={summary} />
          </p>
        )}
      </CommandOutcome>
      {batchEntries.length > 0 && (
        <table className="ledger-table">
          <caption>Records of the latest send</caption>
          <thead>
            <tr>
              <th scope="col">Record</th>
              <th scope="col">Partition</th>
              <th scope="col">Value</th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody>
            {batchEntries.map(ledgerRow).map((row) => (
              <tr key={row.recordId} className={`status-${row.status}`}>
                <td>#{row.recordId}</td>
                <td>{row.partition}</td>
                <td>{row.value}</td>
                <td>
                  <KafkaText text={row.outcome} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
