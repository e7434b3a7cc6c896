// A balanced plan (kafka-reassign-partitions --generate), shown as a table, then executed
// (--execute) as one reassignment of every partition it moves.
import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { requestReassignmentPlan } from '../store/connection';
import { planView, selectBrokerOptions, selectTopicPartitions, type PlanView } from '../store/operations';
import { useSimulationStore } from '../store/simulation';
import { CommandOutcome, useCommand } from './form';

/** Plan rows drawn at most: a large cluster has thousands of partitions (Execute applies them all). */
const MAX_PLAN_ROWS = 100;

interface GeneratedPlan {
  view: PlanView;
  topics: string[];
  brokerIds: number[];
}

/** kafka-reassign-partitions --generate, then --execute: a balanced assignment of topics over chosen brokers. */
export function BalancedPlanForm() {
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
