// Continuous load: start and stop producers at a rate, and consumers in a group.
import { useId, useMemo, useState, type FormEvent } from 'react';
import { errorsByField, nextFreeId, type Acks } from '../store/panels';
import { useSimulationStore } from '../store/simulation';
import { CommandOutcome, describedBy, FieldErrors, useCommand } from './form';

function useUserTopics() {
  const topics = useSimulationStore((state) => state.snapshot?.topics);
  return useMemo(() => (topics ?? []).filter((t) => !t.name.startsWith('__')).map((t) => t.name), [topics]);
}

export function ProducerControls() {
  const producers = useSimulationStore((state) => state.snapshot?.clients.producers);
  const topics = useUserTopics();
  const id = useId();
  const command = useCommand();
  const [producerId, setProducerId] = useState('');
  const [topic, setTopic] = useState('');
  const [rate, setRate] = useState('10');
  const [acks, setAcks] = useState<'0' | '1' | 'all'>('all');
  const [keyPattern, setKeyPattern] = useState('customer-{n}');
  const [principal, setPrincipal] = useState('');
  const running = (producers ?? []).filter((p) => p.running);
  const idValue =
    producerId ||
    nextFreeId(
      'load-producer-',
      (producers ?? []).map((p) => p.id),
    );
  const topicValue = topic || (topics[0] ?? '');
  const errors = errorsByField(command.error, { topic: 'topic', producerId: 'producerId' });
  const at = (field: string) => errors.get(field);
  const errorId = (field: string) => (at(field) ? `${id}-${field}-error` : undefined);
  const FIELDS = ['producerId', 'topic', 'ratePerSec', 'acks', 'keyPattern'];
  const formErrors = [...errors].filter(([f]) => !FIELDS.includes(f ?? '')).flatMap(([, m]) => m);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void command
      .run(
        {
          type: 'startProducer',
          producerId: idValue,
          topic: topicValue,
          ratePerSec: Number(rate),
          acks: (acks === 'all' ? 'all' : Number(acks)) as Acks,
          keyPattern: keyPattern === '' ? null : keyPattern,
          ...(principal.trim() === '' ? {} : { config: { principal: principal.trim() } }),
        },
        `Producer ${idValue} sends ${rate} records per second to ${topicValue} with acks=${acks}.`,
      )
      .then((ok) => ok && setProducerId(''));
  }

  return (
    <section className="control-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Continuous producer</h3>
      <form onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
        <div className="form-grid">
          <label htmlFor={`${id}-producerId`}>Producer id</label>
          <div>
            <input
              id={`${id}-producerId`}
              value={idValue}
              onChange={(e) => setProducerId(e.target.value)}
              aria-invalid={at('producerId') ? true : undefined}
              aria-describedby={errorId('producerId')}
            />
            <FieldErrors id={`${id}-producerId-error`} messages={at('producerId')} />
          </div>
          <label htmlFor={`${id}-topic`}>Topic</label>
          <div>
            <select
              id={`${id}-topic`}
              value={topicValue}
              onChange={(e) => setTopic(e.target.value)}
              aria-invalid={at('topic') ? true : undefined}
              aria-describedby={errorId('topic')}
            >
              {topics.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
            <FieldErrors id={`${id}-topic-error`} messages={at('topic')} />
          </div>
          <label htmlFor={`${id}-rate`}>Rate (records per second)</label>
          <div>
            <input
              id={`${id}-rate`}
              type="number"
              min={0}
              max={10000}
              value={rate}
              onChange={(e) => setRate(e.target.value)}
              aria-invalid={at('ratePerSec') ? true : undefined}
              aria-describedby={errorId('ratePerSec')}
            />
            <FieldErrors id={`${id}-ratePerSec-error`} messages={at('ratePerSec')} />
          </div>
          <label htmlFor={`${id}-acks`}>acks</label>
          <div>
            <select
              id={`${id}-acks`}
              value={acks}
              onChange={(e) => setAcks(e.target.value as '0' | '1' | 'all')}
              aria-describedby={errorId('acks')}
            >
              <option value="all">all</option>
              <option value="1">1</option>
              <option value="0">0</option>
            </select>
            <FieldErrors id={`${id}-acks-error`} messages={at('acks')} />
          </div>
          <label htmlFor={`${id}-keys`}>Key pattern</label>
          <div>
            <input
              id={`${id}-keys`}
              value={keyPattern}
              onChange={(e) => setKeyPattern(e.target.value)}
              aria-invalid={at('keyPattern') ? true : undefined}
              aria-describedby={describedBy(`${id}-keys-hint`, errorId('keyPattern'))}
            />
            <p className="hint" id={`${id}-keys-hint`}>
              {'{n}'} counts through 10 keys; empty for null keys (sticky partitioner).
            </p>
            <FieldErrors id={`${id}-keyPattern-error`} messages={at('keyPattern')} />
          </div>
          <label htmlFor={`${id}-principal`}>Principal</label>
          <div>
            <input
              id={`${id}-principal`}
              value={principal}
              placeholder="User:alice"
              onChange={(e) => setPrincipal(e.target.value)}
              aria-describedby={`${id}-principal-hint`}
            />
            <p className="hint" id={`${id}-principal-hint`}>
              The principal its connection authenticates as, for ACLs; empty for User:ANONYMOUS.
            </p>
          </div>
        </div>
        <div className="form-row">
          <button type="submit" disabled={command.busy || topicValue === ''}>
            Start producer
          </button>
        </div>
      </form>
      <h4>Running producers</h4>
      {running.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul className="client-list">
          {running.map((p) => (
            <li key={p.id}>
              <span>
                {p.id}: {p.ratePerSec}/s to {p.topic ?? '?'}, {p.acknowledged} acked of {p.sent} sent
              </span>
              <button
                type="button"
                disabled={command.busy}
                onClick={() =>
                  void command.run({ type: 'stopProducer', producerId: p.id }, `Producer ${p.id} stopped.`)
                }
              >
                Stop {p.id}
              </button>
            </li>
          ))}
        </ul>
      )}
      <CommandOutcome state={command} errors={formErrors} />
    </section>
  );
}

export function ConsumerControls() {
  const consumers = useSimulationStore((state) => state.snapshot?.clients.consumers);
  const topics = useUserTopics();
  const id = useId();
  const command = useCommand();
  const [consumerId, setConsumerId] = useState('');
  const [groupId, setGroupId] = useState('orders-readers');
  const [topic, setTopic] = useState('');
  const active = (consumers ?? []).filter((c) => c.state !== 'stopped' && c.state !== 'crashed');
  const idValue =
    consumerId ||
    nextFreeId(
      'consumer-',
      (consumers ?? []).map((c) => c.id),
    );
  const topicValue = topic || (topics[0] ?? '');
  const errors = errorsByField(command.error, { topics: 'topic' });
  const at = (field: string) => errors.get(field);
  const errorId = (field: string) => (at(field) ? `${id}-${field}-error` : undefined);
  const FIELDS = ['consumerId', 'groupId', 'topic'];
  const formErrors = [...errors].filter(([f]) => !FIELDS.includes(f ?? '')).flatMap(([, m]) => m);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void command
      .run(
        { type: 'startConsumer', consumerId: idValue, groupId, topics: [topicValue] },
        `Consumer ${idValue} joins group ${groupId} and subscribes to ${topicValue}.`,
      )
      .then((ok) => ok && setConsumerId(''));
  }

  return (
    <section className="control-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Consumers</h3>
      <form onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
        <div className="form-grid">
          <label htmlFor={`${id}-consumerId`}>Consumer id</label>
          <div>
            <input
              id={`${id}-consumerId`}
              value={idValue}
              onChange={(e) => setConsumerId(e.target.value)}
              aria-invalid={at('consumerId') ? true : undefined}
              aria-describedby={errorId('consumerId')}
            />
            <FieldErrors id={`${id}-consumerId-error`} messages={at('consumerId')} />
          </div>
          <label htmlFor={`${id}-group`}>Group id (group.id)</label>
          <div>
            <input
              id={`${id}-group`}
              value={groupId}
              onChange={(e) => setGroupId(e.target.value)}
              aria-invalid={at('groupId') ? true : undefined}
              aria-describedby={errorId('groupId')}
            />
            <FieldErrors id={`${id}-groupId-error`} messages={at('groupId')} />
          </div>
          <label htmlFor={`${id}-topic`}>Topic</label>
          <div>
            <select
              id={`${id}-topic`}
              value={topicValue}
              onChange={(e) => setTopic(e.target.value)}
              aria-invalid={at('topic') ? true : undefined}
              aria-describedby={errorId('topic')}
            >
              {topics.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
            <FieldErrors id={`${id}-topic-error`} messages={at('topic')} />
          </div>
        </div>
        <div className="form-row">
          <button type="submit" disabled={command.busy || topicValue === '' || groupId === ''}>
            Start consumer
          </button>
        </div>
      </form>
      <h4>Consumers in groups</h4>
      {active.length === 0 ? (
        <p>None running.</p>
      ) : (
        <ul className="client-list">
          {active.map((c) => (
            <li key={c.id}>
              <span>
                {c.id} in {c.groupId}: {c.state}, {c.assignment.length} partition(s) assigned,{' '}
                {c.recordsConsumed} record(s) read
              </span>
              <button
                type="button"
                disabled={command.busy}
                onClick={() =>
                  void command.run(
                    { type: 'stopConsumer', consumerId: c.id, graceful: true },
                    `Consumer ${c.id} commits and leaves group ${c.groupId} (LeaveGroup).`,
                  )
                }
              >
                Stop {c.id}
              </button>
              <button
                type="button"
                disabled={command.busy}
                onClick={() =>
                  void command.run(
                    { type: 'stopConsumer', consumerId: c.id, graceful: false },
                    `Consumer ${c.id} crashed: the coordinator notices only after session.timeout.ms.`,
                  )
                }
              >
                Crash {c.id}
              </button>
            </li>
          ))}
        </ul>
      )}
      <CommandOutcome state={command} errors={formErrors} />
    </section>
  );
}
