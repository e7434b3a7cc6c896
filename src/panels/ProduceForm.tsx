// The console producer: send records with a chosen acks and see what became of each (acked at an
// offset, or Kafka's error), as kafka-console-producer would print it.
import { useId, useMemo, useState, type FormEvent } from 'react';
import { requestLedger } from '../store/connection';
import { errorsByField, ledgerRow, ledgerSummary, type Acks } from '../store/panels';
import { useSimulationStore } from '../store/simulation';
import { CommandOutcome, describedBy, FieldErrors, KafkaText, useCommand } from './form';
import { useLedger } from './useLedger';

export const CONSOLE_PRODUCER_ID = 'console-producer';
const MAX_COUNT = 100;
const FIELDS = ['topic', 'partition', 'key', 'value', 'acks', 'count'];

export function ProduceForm() {
  const topics = useSimulationStore((state) => state.snapshot?.topics);
  const userTopics = useMemo(() => (topics ?? []).filter((t) => !t.name.startsWith('__')), [topics]);
  const id = useId();
  const command = useCommand();
  const [topic, setTopic] = useState('');
  const [partition, setPartition] = useState('');
  const [key, setKey] = useState('order-1');
  const [value, setValue] = useState('hello');
  const [acks, setAcks] = useState<'0' | '1' | 'all'>('all');
  const [count, setCount] = useState('1');
  const [batch, setBatch] = useState<number[] | null>(null);

  const topicValue = topic || (userTopics[0]?.name ?? '');
  const partitions = userTopics.find((t) => t.name === topicValue)?.partitions ?? 0;
  const errors = errorsByField(command.error);
  const fieldError = (field: string) => errors.get(field);
  const errorId = (field: string) => (fieldError(field) ? `${id}-${field}-error` : undefined);
  const formErrors = [...errors]
    .filter(([field]) => !FIELDS.includes(field ?? ''))
    .flatMap(([, messages]) => messages);

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
          <label htmlFor={`${id}-topic`}>Topic</label>
          <div>
            <select
              id={`${id}-topic`}
              value={topicValue}
              onChange={(e) => {
                setTopic(e.target.value);
                setPartition('');
              }}
              aria-invalid={fieldError('topic') ? true : undefined}
              aria-describedby={errorId('topic')}
            >
              {userTopics.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.name}
                </option>
              ))}
            </select>
            <FieldErrors id={`${id}-topic-error`} messages={fieldError('topic')} />
          </div>

          <label htmlFor={`${id}-partition`}>Partition</label>
          <div>
            <select
              id={`${id}-partition`}
              value={partition}
              onChange={(e) => setPartition(e.target.value)}
              aria-invalid={fieldError('partition') ? true : undefined}
              aria-describedby={describedBy(`${id}-partition-hint`, errorId('partition'))}
            >
              <option value="">By key (default partitioner)</option>
              {Array.from({ length: partitions }, (_, p) => (
                <option key={p} value={p}>
                  {`${topicValue}-${p}`}
                </option>
              ))}
            </select>
            <p className="hint" id={`${id}-partition-hint`}>
              Without a partition, murmur2 of the key picks one.
            </p>
            <FieldErrors id={`${id}-partition-error`} messages={fieldError('partition')} />
          </div>

          <label htmlFor={`${id}-key`}>Key</label>
          <div>
            <input
              id={`${id}-key`}
              value={key}
              onChange={(e) => setKey(e.target.value)}
              aria-invalid={fieldError('key') ? true : undefined}
              aria-describedby={describedBy(`${id}-key-hint`, errorId('key'))}
            />
            <p className="hint" id={`${id}-key-hint`}>
              Empty for a null key.
            </p>
            <FieldErrors id={`${id}-key-error`} messages={fieldError('key')} />
          </div>

          <label htmlFor={`${id}-value`}>Value</label>
          <div>
            <input
              id={`${id}-value`}
              value={value}
              onChange={(e) => setValue(e.target.value)}
              aria-invalid={fieldError('value') ? true : undefined}
              aria-describedby={errorId('value')}
            />
            <FieldErrors id={`${id}-value-error`} messages={fieldError('value')} />
          </div>

          <label htmlFor={`${id}-acks`}>acks</label>
          <div>
            <select
              id={`${id}-acks`}
              value={acks}
              onChange={(e) => setAcks(e.target.value as '0' | '1' | 'all')}
              aria-describedby={describedBy(`${id}-acks-hint`, errorId('acks'))}
            >
              <option value="all">all (every in-sync replica)</option>
              <option value="1">1 (the leader only)</option>
              <option value="0">0 (no acknowledgement)</option>
            </select>
            <p className="hint" id={`${id}-acks-hint`}>
              With acks=all, fewer in-sync replicas than min.insync.replicas means NOT_ENOUGH_REPLICAS.
            </p>
            <FieldErrors id={`${id}-acks-error`} messages={fieldError('acks')} />
          </div>

          <label htmlFor={`${id}-count`}>Count</label>
          <div>
            <input
              id={`${id}-count`}
              type="number"
              min={1}
              max={MAX_COUNT}
              value={count}
              onChange={(e) => setCount(e.target.value)}
              aria-invalid={fieldError('count') ? true : undefined}
              aria-describedby={errorId('count')}
            />
            <FieldErrors id={`${id}-count-error`} messages={fieldError('count')} />
          </div>
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
