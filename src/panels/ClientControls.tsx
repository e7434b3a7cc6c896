// Continuous load: start and stop producers at a rate, and consumers in a group.
import { useId, useMemo, useState, type FormEvent } from 'react';
import { nextFreeId, type Acks } from '../store/panels';
import { useSimulationStore } from '../store/simulation';
import { CommandOutcome, SelectField, TextField, splitErrors, useCommand } from './form';

function useUserTopics() {
  const topics = useSimulationStore((state) => state.snapshot?.topics);
  return useMemo(() => (topics ?? []).filter((t) => !t.name.startsWith('__')).map((t) => t.name), [topics]);
}

/** The user topic a client works on. */
function TopicField(props: {
  formId: string;
  topics: string[];
  value: string;
  onValue: (topic: string) => void;
  errors: string[] | undefined;
}) {
  const { formId, topics, ...field } = props;
  return <SelectField id={`${formId}-topic`} label="Topic" options={topics} {...field} />;
}

const PRODUCER_FIELDS = ['producerId', 'topic', 'ratePerSec', 'acks', 'keyPattern'];

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
  const { at, formErrors } = splitErrors(command.error, PRODUCER_FIELDS);

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
          <TextField
            id={`${id}-producerId`}
            label="Producer id"
            value={idValue}
            onValue={setProducerId}
            errors={at('producerId')}
          />
          <TopicField
            formId={id}
            topics={topics}
            value={topicValue}
            onValue={setTopic}
            errors={at('topic')}
          />
          <TextField
            id={`${id}-rate`}
            label="Rate (records per second)"
            type="number"
            min={0}
            max={10000}
            value={rate}
            onValue={setRate}
            errors={at('ratePerSec')}
            errorId={`${id}-ratePerSec-error`}
          />
          <SelectField
            id={`${id}-acks`}
            label="acks"
            value={acks}
            onValue={setAcks}
            options={['all', '1', '0']}
            errors={at('acks')}
          />
          <TextField
            id={`${id}-keys`}
            label="Key pattern"
            value={keyPattern}
            onValue={setKeyPattern}
            hint="{n} counts through 10 keys; empty for null keys (sticky partitioner)."
            errors={at('keyPattern')}
            errorId={`${id}-keyPattern-error`}
          />
          <TextField
            id={`${id}-principal`}
            label="Principal"
            value={principal}
            placeholder="User:alice"
            onValue={setPrincipal}
            hint="The principal its connection authenticates as, for ACLs; empty for User:ANONYMOUS."
          />
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

const CONSUMER_FIELDS = ['consumerId', 'groupId', 'topic'];

export function ConsumerControls() {
  const consumers = useSimulationStore((state) => state.snapshot?.clients.consumers);
  const topics = useUserTopics();
  const id = useId();
  const command = useCommand();
  const [consumerId, setConsumerId] = useState('');
  const [groupId, setGroupId] = useState('orders-readers');
  const [topic, setTopic] = useState('');
  const [groupProtocol, setGroupProtocol] = useState<'classic' | 'consumer'>('classic');
  const [isolation, setIsolation] = useState<'read_uncommitted' | 'read_committed'>('read_uncommitted');
  const [reset, setReset] = useState<'latest' | 'earliest'>('latest');
  const active = (consumers ?? []).filter((c) => c.state !== 'stopped' && c.state !== 'crashed');
  const idValue =
    consumerId ||
    nextFreeId(
      'consumer-',
      (consumers ?? []).map((c) => c.id),
    );
  const topicValue = topic || (topics[0] ?? '');
  const { at, formErrors } = splitErrors(command.error, CONSUMER_FIELDS, { topics: 'topic' });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    // Only what differs from Kafka's defaults, so a default consumer's config stays as before.
    const config = {
      ...(groupProtocol === 'consumer' ? { 'group.protocol': 'consumer' } : {}),
      ...(isolation === 'read_committed' ? { 'isolation.level': isolation } : {}),
      ...(reset === 'earliest' ? { 'auto.offset.reset': reset } : {}),
    };
    void command
      .run(
        {
          type: 'startConsumer',
          consumerId: idValue,
          groupId,
          topics: [topicValue],
          ...(Object.keys(config).length > 0 ? { config } : {}),
        },
        `Consumer ${idValue} joins group ${groupId} and subscribes to ${topicValue}${
          groupProtocol === 'consumer' ? ' with the consumer group protocol (KIP-848)' : ''
        }${isolation === 'read_committed' ? ', isolation.level=read_committed' : ''}.`,
      )
      .then((ok) => ok && setConsumerId(''));
  }

  return (
    <section className="control-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Consumers</h3>
      <form onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
        <div className="form-grid">
          <TextField
            id={`${id}-consumerId`}
            label="Consumer id"
            value={idValue}
            onValue={setConsumerId}
            errors={at('consumerId')}
          />
          <TextField
            id={`${id}-group`}
            label="Group id (group.id)"
            value={groupId}
            onValue={setGroupId}
            errors={at('groupId')}
            errorId={`${id}-groupId-error`}
          />
          <TopicField
            formId={id}
            topics={topics}
            value={topicValue}
            onValue={setTopic}
            errors={at('topic')}
          />
          <SelectField
            id={`${id}-groupProtocol`}
            label="Group protocol"
            value={groupProtocol}
            onValue={setGroupProtocol}
            options={['classic', 'consumer'] as const}
            hint="group.protocol: classic (JoinGroup/SyncGroup, the default) or consumer (KIP-848: the broker assigns, members rebalance incrementally)."
            errors={at('config')}
          />
          <SelectField
            id={`${id}-isolation`}
            label="isolation.level"
            value={isolation}
            onValue={setIsolation}
            options={['read_uncommitted', 'read_committed'] as const}
            hint="read_committed reads only below the last stable offset and skips aborted transactions' records."
          />
          <SelectField
            id={`${id}-reset`}
            label="auto.offset.reset"
            value={reset}
            onValue={setReset}
            options={['latest', 'earliest'] as const}
            hint="Where a group without a committed offset starts: the log end (latest) or its start (earliest)."
          />
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
                {c.id} in {c.groupId}
                {c.groupProtocol === 'consumer' ? ` (consumer protocol, member epoch ${c.generation})` : ''}
                {c.config['isolation.level'] === 'read_committed' ? ', read_committed' : ''}: {c.state},{' '}
                {c.assignment.length} partition(s) assigned, {c.recordsConsumed} record(s) read
              </span>
              {c.lastRecords.length > 0 && (
                <details className="last-records">
                  <summary>Last records read by {c.id}</summary>
                  <ol aria-label={`Last records read by ${c.id}`}>
                    {c.lastRecords.map((r) => (
                      <li key={`${r.topic}-${r.partition}-${r.offset}-${r.atMs}`}>
                        {r.topic}-{r.partition} offset {r.offset}: {r.value}
                      </li>
                    ))}
                  </ol>
                </details>
              )}
              <button
                type="button"
                disabled={command.busy}
                onClick={() =>
                  void command.run(
                    { type: 'stopConsumer', consumerId: c.id, graceful: true },
                    `Consumer ${c.id} commits and leaves group ${c.groupId} (${
                      c.groupProtocol === 'consumer'
                        ? 'ConsumerGroupHeartbeat with member epoch -1'
                        : 'LeaveGroup'
                    }).`,
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
                    `Consumer ${c.id} crashed: the coordinator notices only after ${
                      c.groupProtocol === 'consumer'
                        ? "the broker's group.consumer.session.timeout.ms"
                        : 'session.timeout.ms'
                    }.`,
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
