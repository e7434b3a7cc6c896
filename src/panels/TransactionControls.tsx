// A transactional producer (KafkaProducer with a transactional.id, KIP-98) a learner drives by hand:
// start it (initTransactions), then beginTransaction, send records, commitTransaction or
// abortTransaction, and watch its TransactionManager's state. A call the state does not allow is
// refused with Kafka's IllegalStateException, and nothing changes.
import { useId, useMemo, useState, type FormEvent } from 'react';
import { nextFreeId, type ProducerView } from '../store/panels';
import { useSimulationStore } from '../store/simulation';
import { CommandOutcome, KafkaText, SelectField, TextField, splitErrors, useCommand } from './form';
import { RecordFields, useRecordDraft } from './RecordFields';

type TxnState = NonNullable<ProducerView['transaction']>['state'];

/** TransactionManager.State, with a glyph (not colour alone) and what it means for the next call. */
const STATE_TEXT: Record<TxnState, { glyph: string; meaning: string }> = {
  UNINITIALIZED: { glyph: '○', meaning: 'not initialized' },
  INITIALIZING: {
    glyph: '…',
    meaning: 'initTransactions(): finding the coordinator, InitProducerId',
  },
  READY: { glyph: '○', meaning: 'no transaction open: beginTransaction() may start one' },
  IN_TRANSACTION: { glyph: '●', meaning: 'a transaction is open: send, then commit or abort it' },
  COMMITTING_TRANSACTION: {
    glyph: '◆',
    meaning: 'EndTxn(commit) sent: the coordinator writes PrepareCommit, then COMMIT markers',
  },
  ABORTING_TRANSACTION: {
    glyph: '◇',
    meaning: 'EndTxn(abort) sent: the coordinator writes PrepareAbort, then ABORT markers',
  },
  ABORTABLE_ERROR: { glyph: '⚠', meaning: 'a send failed: the transaction can only be aborted' },
  FATAL_ERROR: { glyph: '✕', meaning: 'fatal: the producer must be closed (fenced by a newer instance?)' },
};

function useUserTopics() {
  const topics = useSimulationStore((state) => state.snapshot?.topics);
  return useMemo(() => (topics ?? []).filter((t) => !t.name.startsWith('__')), [topics]);
}

const START_FIELDS = ['producerId', 'topic', 'config'];

export function TransactionalProducerControls() {
  const producers = useSimulationStore((state) => state.snapshot?.clients.producers);
  const topics = useUserTopics();
  const id = useId();
  const command = useCommand();
  const [producerId, setProducerId] = useState('');
  const [transactionalId, setTransactionalId] = useState('');
  const [topic, setTopic] = useState('');
  const [timeoutMs, setTimeoutMs] = useState('60000');
  const transactional = (producers ?? []).filter((p) => p.transaction && p.running);
  const idValue =
    producerId ||
    nextFreeId(
      'txn-producer-',
      (producers ?? []).map((p) => p.id),
    );
  const txnIdValue = transactionalId || `${idValue}-app`;
  const topicValue = topic || (topics[0]?.name ?? '');
  const { at, formErrors } = splitErrors(command.error, START_FIELDS);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void command
      .run(
        {
          type: 'startProducer',
          producerId: idValue,
          topic: topicValue,
          // Rate 0: it sends only what the learner sends, and commits only when told.
          ratePerSec: 0,
          config: {
            'transactional.id': txnIdValue,
            ...(timeoutMs.trim() === '' ? {} : { 'transaction.timeout.ms': Number(timeoutMs) }),
          },
        },
        `Producer ${idValue} calls initTransactions() with transactional.id ${txnIdValue}: FindCoordinator, then InitProducerId.`,
      )
      .then((ok) => {
        if (!ok) return;
        setProducerId('');
        setTransactionalId('');
      });
  }

  return (
    <section className="control-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Transactional producer</h3>
      <p className="hint">
        Exactly once (KIP-98): the records of a transaction become visible to read_committed consumers
        together, after its COMMIT marker, or never, after its ABORT marker.
      </p>
      <form onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
        <div className="form-grid">
          <TextField
            id={`${id}-producerId`}
            label="Producer id"
            value={idValue}
            onValue={setProducerId}
            errors={at('producerId')}
          />
          <TextField
            id={`${id}-transactionalId`}
            label="transactional.id"
            value={txnIdValue}
            onValue={setTransactionalId}
            hint="A restarted instance with the same id fences the older one (PRODUCER_FENCED)."
          />
          <SelectField
            id={`${id}-topic`}
            label="Topic"
            value={topicValue}
            onValue={setTopic}
            options={topics.map((t) => t.name)}
            errors={at('topic')}
          />
          <TextField
            id={`${id}-timeout`}
            label="transaction.timeout.ms"
            type="number"
            min={1}
            value={timeoutMs}
            onValue={setTimeoutMs}
            hint="The coordinator aborts a transaction open longer than this."
          />
        </div>
        <div className="form-row">
          <button type="submit" disabled={command.busy || topicValue === '' || txnIdValue.trim() === ''}>
            Start transactional producer
          </button>
        </div>
      </form>
      <CommandOutcome state={command} errors={formErrors} />
      {transactional.length === 0 ? (
        <p>No transactional producer is running.</p>
      ) : (
        transactional.map((p) => <TransactionalProducer key={p.id} producer={p} />)
      )}
    </section>
  );
}

const SEND_FIELDS = ['topic', 'partition', 'key', 'value', 'count', 'acks'];

/** One running transactional producer: its state, and the calls of its application. */
function TransactionalProducer({ producer: p }: { producer: ProducerView }) {
  const t = p.transaction!;
  const topics = useUserTopics();
  const id = useId();
  const command = useCommand();
  const record = useRecordDraft({ key: '', value: 'payment' }, p.topic || (topics[0]?.name ?? ''));
  const { topic: topicValue, partition, key, value } = record.draft;
  const [count, setCount] = useState('3');
  const { at, formErrors } = splitErrors(command.error, SEND_FIELDS);
  const state = STATE_TEXT[t.state];

  function call(type: 'beginTransaction' | 'commitTransaction' | 'abortTransaction', done: string) {
    void command.run({ type, producerId: p.id }, done);
  }

  function onSend(event: FormEvent) {
    event.preventDefault();
    const n = Number(count);
    void command.run(
      {
        type: 'produce',
        producerId: p.id,
        topic: topicValue,
        key: key === '' ? null : key,
        value,
        count: Number.isFinite(n) ? n : 1,
        ...(partition === '' ? {} : { partition: Number(partition) }),
      },
      `${p.id} sent ${n} record${n === 1 ? '' : 's'} to ${topicValue}${partition === '' ? '' : `-${partition}`} in its transaction (AddPartitionsToTxn adds each new partition first).`,
    );
  }

  return (
    <section className="txn-producer" aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`}>
        {p.id} (transactional.id {t.transactionalId})
      </h4>
      <p className="txn-state" role="status" aria-label={`Transaction state of ${p.id}`}>
        <span aria-hidden="true">{state.glyph} </span>
        <strong className="kafka-error-name">{t.state}</strong>: {state.meaning}
      </p>
      <ul className="txn-facts">
        <li>
          producer id {t.producerId < 0 ? '(none yet)' : t.producerId}, epoch{' '}
          {t.producerEpoch < 0 ? '(none yet)' : t.producerEpoch}; coordinator{' '}
          {t.coordinator < 0 ? 'not found yet' : `broker ${t.coordinator}`}
        </li>
        <li>
          In the transaction: {t.records} record(s)
          {t.partitions.length > 0 ? ` on ${t.partitions.join(', ')}` : ''}; {p.pending} not yet acknowledged
        </li>
        <li>
          {t.committed} committed, {t.aborted} aborted so far
        </li>
        {t.lastError && (
          <li>
            Last error: <KafkaText text={t.lastError} />
          </li>
        )}
      </ul>
      <div className="form-row" role="group" aria-label={`Transaction calls of ${p.id}`}>
        <button
          type="button"
          disabled={command.busy}
          onClick={() =>
            call(
              'beginTransaction',
              `${p.id}: beginTransaction(). The coordinator hears of it with the first partition added.`,
            )
          }
        >
          Begin transaction
        </button>
        <button
          type="button"
          disabled={command.busy}
          onClick={() =>
            call(
              'commitTransaction',
              `${p.id}: commitTransaction(). It flushes, then sends EndTxn(commit) to broker ${t.coordinator}.`,
            )
          }
        >
          Commit transaction
        </button>
        <button
          type="button"
          disabled={command.busy}
          onClick={() =>
            call(
              'abortTransaction',
              `${p.id}: abortTransaction(). Unsent records fail, then EndTxn(abort) goes to broker ${t.coordinator}.`,
            )
          }
        >
          Abort transaction
        </button>
        <button
          type="button"
          disabled={command.busy}
          onClick={() =>
            void command.run(
              { type: 'stopProducer', producerId: p.id },
              `${p.id}: close(). An open transaction is aborted first.`,
            )
          }
        >
          Stop {p.id}
        </button>
        <button
          type="button"
          disabled={command.busy}
          onClick={() =>
            void command.run(
              { type: 'stopProducer', producerId: p.id, graceful: false },
              `${p.id} crashed: an open transaction stays open until transaction.timeout.ms, or until a new instance with transactional.id ${t.transactionalId} fences it.`,
            )
          }
        >
          Crash {p.id}
        </button>
      </div>
      <form onSubmit={onSend} aria-label={`Send records in ${p.id}'s transaction`} noValidate>
        <div className="form-grid">
          <RecordFields
            id={id}
            topics={topics}
            {...record}
            errors={at}
            valueHint="Several records are numbered: value-0, value-1, …"
          />
          <TextField
            id={`${id}-count`}
            label="Count"
            type="number"
            min={1}
            max={100}
            value={count}
            onValue={setCount}
            errors={at('count')}
          />
        </div>
        <div className="form-row">
          <button type="submit" disabled={command.busy || topicValue === ''}>
            Send in transaction
          </button>
        </div>
      </form>
      <CommandOutcome state={command} errors={formErrors} />
    </section>
  );
}
