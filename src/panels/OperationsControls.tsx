// Operating the cluster from the Controls tab: adding a broker, balanced plans and partition
// reassignments (kafka-reassign-partitions --generate / --execute),
// leadership skew and preferred leader election (kafka-leader-election), how far a config change
// has propagated, and ACLs (kafka-acls).
import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { requestReassignmentPlan } from '../store/connection';
import {
  nextNodeId,
  parseNodeId,
  parseReplicaList,
  planView,
  refusalMessages,
  selectAcls,
  selectBrokerOptions,
  selectBrokerRacks,
  selectConfigRows,
  selectLeadership,
  selectReassignmentRows,
  selectTopicPartitions,
  type AclBinding,
  type AclOperation,
  type PlanView,
} from '../store/operations';
import { useSimulationStore } from '../store/simulation';
import { CommandOutcome, SelectField, TextField, useCommand } from './form';

export function OperationsControls() {
  return (
    <>
      <AddBrokerForm />
      <BalancedPlanForm />
      <ReassignForm />
      <LeadershipSection />
      <ConfigPropagation />
      <AclSection />
    </>
  );
}

const NO_RACK = '';

function AddBrokerForm() {
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

/** Plan rows drawn at most: a large cluster has thousands of partitions (Execute applies them all). */
const MAX_PLAN_ROWS = 100;

interface GeneratedPlan {
  view: PlanView;
  topics: string[];
  brokerIds: number[];
}

/** kafka-reassign-partitions --generate, then --execute: a balanced assignment of topics over chosen brokers. */
function BalancedPlanForm() {
  const snapshot = useSimulationStore((state) => state.snapshot);
  const topics = useMemo(() => selectTopicPartitions(snapshot).map((t) => t.topic), [snapshot]);
  const brokers = useMemo(() => selectBrokerOptions(snapshot), [snapshot]);
  const id = useId();
  const command = useCommand();
  const [chosenTopics, setChosenTopics] = useState<string[] | null>(null);
  const [chosenBrokers, setChosenBrokers] = useState<number[] | null>(null);
  const [plan, setPlan] = useState<GeneratedPlan | null>(null);
  const [generating, setGenerating] = useState(false);
  const latest = useRef(0);
  // Until the user picks: the first user topic, over every broker.
  const topicsValue = (
    chosenTopics ?? (topics[0] !== undefined && !topics[0].startsWith('__') ? [topics[0]] : [])
  ).filter((t) => topics.includes(t));
  const brokersValue = (chosenBrokers ?? brokers.map((b) => b.id)).filter((b) =>
    brokers.some((x) => x.id === b),
  );

  const toggle = <T,>(values: T[], value: T, on: boolean): T[] =>
    on ? [...values.filter((v) => v !== value), value] : values.filter((v) => v !== value);

  async function generate(event: FormEvent) {
    event.preventDefault();
    if (topicsValue.length === 0) return command.fail('Choose at least one topic to move.');
    if (brokersValue.length === 0) return command.fail('Choose at least one target broker.');
    const ticket = ++latest.current;
    setGenerating(true);
    const reply = await requestReassignmentPlan(topicsValue, brokersValue);
    if (ticket !== latest.current) return;
    setGenerating(false);
    if (reply.plan) {
      setPlan({
        view: planView(reply.plan),
        topics: [...topicsValue].sort(),
        brokerIds: [...brokersValue].sort((a, b) => a - b),
      });
      command.clear();
    } else {
      setPlan(null);
      command.fail(reply.error ?? 'No plan could be generated.');
    }
  }

  function execute() {
    if (!plan || plan.view.execute.length === 0) return;
    const n = plan.view.changedPartitions;
    void command
      .run(
        { type: 'reassignPartitions', partitions: plan.view.execute },
        `Reassignment of ${n === 1 ? '1 partition' : `${n} partitions`} started (${plan.view.movedReplicas} new replicas copy the log, then the old ones are removed); progress is under Reassignments in progress.`,
      )
      .then((ok) => {
        if (ok) setPlan(null);
      });
  }

  return (
    <section className="control-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Generate a balanced plan</h3>
      <p className="hint">
        As kafka-reassign-partitions --generate: spreads the chosen topics' replicas evenly over the target
        brokers (rack-aware when every target has a rack), keeping each topic's replication factor.
      </p>
      <form onSubmit={(e) => void generate(e)} aria-labelledby={`${id}-title`} noValidate>
        <fieldset>
          <legend>Topics to move</legend>
          <div className="checkbox-grid">
            {topics.map((t) => (
              <label key={t} className="checkbox">
                <input
                  type="checkbox"
                  checked={topicsValue.includes(t)}
                  onChange={(e) => setChosenTopics(toggle(topicsValue, t, e.target.checked))}
                />
                {t}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend>Target brokers</legend>
          <div className="checkbox-grid">
            {brokers.map((b) => (
              <label key={b.id} className="checkbox">
                <input
                  type="checkbox"
                  checked={brokersValue.includes(b.id)}
                  onChange={(e) => setChosenBrokers(toggle(brokersValue, b.id, e.target.checked))}
                />
                {b.label}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="form-row">
          <button type="submit" disabled={generating || command.busy}>
            Generate plan
          </button>
        </div>
      </form>
      {plan && (
        <>
          <h4 id={`${id}-plan`}>Proposed plan</h4>
          <p role="status">
            {plan.topics.length === 1 ? 'Topic' : 'Topics'} {plan.topics.join(', ')} over brokers{' '}
            {plan.brokerIds.join(', ')}: {plan.view.summary}
          </p>
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={`${id}-plan-caption`}>
            <table className="dashboard-table">
              <caption id={`${id}-plan-caption`}>Proposed reassignment</caption>
              <thead>
                <tr>
                  <th scope="col">Partition</th>
                  <th scope="col">Current</th>
                  <th scope="col">Proposed</th>
                  <th scope="col">Replicas moved</th>
                </tr>
              </thead>
              <tbody>
                {plan.view.rows.slice(0, MAX_PLAN_ROWS).map((row) => (
                  <tr key={row.key}>
                    <th scope="row">{row.partition}</th>
                    <td>{row.current}</td>
                    <td>{row.proposed}</td>
                    <td>{row.moved}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {plan.view.rows.length > MAX_PLAN_ROWS && (
            <p className="hint">
              Showing the first {MAX_PLAN_ROWS} of {plan.view.rows.length} partitions; Execute plan applies
              them all.
            </p>
          )}
          <div className="form-row">
            <button type="button" disabled={command.busy || plan.view.execute.length === 0} onClick={execute}>
              Execute plan
            </button>
            <button type="button" disabled={command.busy} onClick={() => setPlan(null)}>
              Discard plan
            </button>
          </div>
          {plan.view.execute.length === 0 && (
            <p className="hint">Nothing to move: the topics are already placed so.</p>
          )}
        </>
      )}
      <CommandOutcome state={command} />
    </section>
  );
}

function ReassignForm() {
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

function LeadershipSection() {
  const snapshot = useSimulationStore((state) => state.snapshot);
  const leadership = useMemo(() => selectLeadership(snapshot), [snapshot]);
  const id = useId();
  const command = useCommand();
  return (
    <section className="control-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Leadership skew</h3>
      {leadership ? (
        <>
          <p role="status" aria-live="polite">
            {leadership.text}
          </p>
          <table aria-labelledby={`${id}-caption`}>
            <caption id={`${id}-caption`}>Leaders per broker</caption>
            <thead>
              <tr>
                <th scope="col">Broker</th>
                <th scope="col">Leaders</th>
                <th scope="col">Preferred leader of</th>
                <th scope="col">Not led by it</th>
                <th scope="col">Imbalance</th>
              </tr>
            </thead>
            <tbody>
              {leadership.rows.map((row) => (
                <tr key={row.brokerId}>
                  <th scope="row">{row.brokerId}</th>
                  <td>{row.leaders}</td>
                  <td>{row.preferredLeaders}</td>
                  <td>{row.notLedByPreferred}</td>
                  <td>{row.imbalance}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : (
        <p className="hint">No leadership data yet.</p>
      )}
      <div className="form-row">
        <button
          type="button"
          disabled={command.busy}
          onClick={() =>
            void command.run(
              { type: 'electLeaders', electionType: 'preferred' },
              'Preferred leader election requested for every partition.',
            )
          }
        >
          Elect preferred leaders
        </button>
      </div>
      <CommandOutcome state={command} />
    </section>
  );
}

function ConfigPropagation() {
  const snapshot = useSimulationStore((state) => state.snapshot);
  const rows = useMemo(() => selectConfigRows(snapshot), [snapshot]);
  const id = useId();
  return (
    <section className="control-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Config propagation</h3>
      {rows.length === 0 ? (
        <p className="hint">No dynamic config changes yet (use Alter configs).</p>
      ) : (
        <ul aria-labelledby={`${id}-title`}>
          {rows.map((row) => (
            <li key={row.key}>
              <strong>{row.change}</strong> — {row.propagation}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const OPERATIONS: AclOperation[] = ['Read', 'Write', 'Describe', 'All'];

function AclSection() {
  const snapshot = useSimulationStore((state) => state.snapshot);
  const acls = useMemo(() => selectAcls(snapshot), [snapshot]);
  const enforced = snapshot?.security?.enforced ?? false;
  const id = useId();
  const command = useCommand();
  const [principal, setPrincipal] = useState('User:alice');
  const [operation, setOperation] = useState<AclOperation>('Read');
  const [resourceType, setResourceType] = useState<'topic' | 'group'>('topic');
  const [resourceName, setResourceName] = useState('orders');
  const [patternType, setPatternType] = useState<'literal' | 'prefixed'>('literal');
  const [permission, setPermission] = useState<'allow' | 'deny'>('allow');

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const acl: AclBinding = { principal, operation, resourceType, resourceName, patternType, permission };
    void command.run(
      { type: 'addAcl', ...acl },
      `ACL added: ${permission} ${principal} ${operation} on ${resourceType} ${resourceName}.`,
    );
  }

  return (
    <section className="control-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>ACLs</h3>
      <form onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
        <div className="form-grid">
          <TextField
            id={`${id}-principal`}
            label="Principal"
            value={principal}
            onValue={setPrincipal}
            errors={refusalMessages(command.error)}
          />
          <SelectField
            id={`${id}-operation`}
            label="Operation"
            value={operation}
            onValue={setOperation}
            options={OPERATIONS}
          />
          <SelectField
            id={`${id}-type`}
            label="Resource type"
            value={resourceType}
            onValue={setResourceType}
            options={['topic', 'group']}
          />
          <TextField id={`${id}-name`} label="Resource name" value={resourceName} onValue={setResourceName} />
          <SelectField
            id={`${id}-pattern`}
            label="Pattern"
            value={patternType}
            onValue={setPatternType}
            options={['literal', 'prefixed']}
          />
          <SelectField
            id={`${id}-permission`}
            label="Permission"
            value={permission}
            onValue={setPermission}
            options={['allow', 'deny']}
          />
        </div>
        <div className="form-row">
          <button type="submit" disabled={command.busy}>
            Add ACL
          </button>
        </div>
      </form>
      <CommandOutcome state={command} errors={[]} />
      <h4 id={`${id}-list`}>Current ACLs</h4>
      <p className="hint">
        {enforced
          ? 'ACLs are enforced: a request no ACL allows is refused.'
          : 'No ACLs: every request is allowed.'}
      </p>
      {acls.length > 0 && (
        <ul aria-labelledby={`${id}-list`}>
          {acls.map(({ key, acl, text }) => (
            <li key={key}>
              {text}{' '}
              <button
                type="button"
                aria-label={`Remove ACL: ${text}`}
                disabled={command.busy}
                onClick={() => void command.run({ type: 'removeAcl', ...acl }, `ACL removed: ${text}.`)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
