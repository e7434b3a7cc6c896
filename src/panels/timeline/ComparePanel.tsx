// Fork and compare (the side panel's Compare tab): from now, two branches with one thing changed,
// side by side, each row explained, and which producer saw which error. The running cluster is
// not changed; the worker runs both branches on copies (src/worker/compare.ts).
import { Fragment, useId, useMemo, type ReactNode } from 'react';
import { create } from 'zustand';
import { useSimulationStore } from '../../store/simulation';
import { requestComparison, type ComparisonReply } from '../../store/timeline';
import './timeline.css';

type Comparison = NonNullable<ComparisonReply['comparison']>;
type ProducerOutcome = Comparison['a']['producers'][number];

/** The experiments the worker knows (src/worker/compare.ts, EXPERIMENTS): id, title and question. */
const EXPERIMENTS = [
  {
    id: 'acks',
    title: 'acks=1 vs acks=all, and the leader crashes before its followers fetched',
    question:
      'Is a record acknowledged by the leader alone (acks=1) safe when the leader dies before its followers copied it?',
  },
  {
    id: 'unclean',
    title: 'unclean.leader.election.enable on vs off, when the in-sync replicas die',
    question:
      'When every in-sync replica is gone, is it better to elect a stale replica (back at once, records lost) or to wait (nothing lost, offline)?',
  },
  {
    id: 'min-isr',
    title: 'min.insync.replicas 2 vs 3, with two in-sync replicas left',
    question: 'With only two in-sync replicas, does an acks=all write go through?',
  },
  {
    id: 'isolation',
    title: 'isolation.level read_uncommitted vs read_committed, with an aborted and an open transaction',
    question:
      'What does a consumer return of a transaction that aborted, and of one still open, and what does an open transaction cost the readers of other records?',
  },
  {
    id: 'idempotence',
    title: 'enable.idempotence false vs true, when produce responses are lost and the producer retries',
    question:
      'The leader writes a batch but its answer never reaches the producer, which retries: is the record written twice?',
  },
] as const;

/** A Kafka error name that may wrap at its underscores, never inside a word. */
function ErrorName({ name }: { name: string }) {
  const parts = name.split('_');
  return (
    <code className="kafka-error-name">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && (
            <>
              _<wbr />
            </>
          )}
        </Fragment>
      ))}
    </code>
  );
}

function ProducerSide({ label, outcome }: { label: string; outcome: ProducerOutcome | null }) {
  let body: ReactNode;
  if (!outcome) body = 'sent nothing';
  else {
    const errors = Object.entries(outcome.errors);
    const counts = [
      outcome.sent > 0 &&
        `sent ${outcome.sent}${outcome.acks === null ? '' : ` with acks=${outcome.acks}`}: ${outcome.acknowledged} acknowledged, ${outcome.failed} failed${outcome.pending ? `, ${outcome.pending} still pending` : ''}`,
      outcome.lost > 0 && `${outcome.lost} acknowledged lost`,
    ].filter(Boolean);
    body = (
      <>
        {counts.join('; ') || 'retried records sent before the fork'}.{' '}
        {errors.length === 0
          ? 'No errors.'
          : errors.map(([name, n], i) => {
              const to = outcome.errorBrokers[name] ?? [];
              return (
                <Fragment key={name}>
                  {i > 0 && ', '}
                  <ErrorName name={name} /> ×{n}
                  {to.length > 0 && ` (from broker${to.length > 1 ? 's' : ''} ${to.join(', ')})`}
                </Fragment>
              );
            })}
      </>
    );
  }
  return (
    <li>
      <strong>{label}:</strong> {body}
    </li>
  );
}

function Results({ reply }: { reply: ComparisonReply }) {
  const id = useId();
  const c = reply.comparison!;
  const x = c.explained;
  const [labelA, labelB] = reply.labels;
  if (!x) return null;
  const refused = [
    ...c.a.refused.map((r) => `${labelA}: ${r}`),
    ...c.b.refused.map((r) => `${labelB}: ${r}`),
  ];
  return (
    <div className="compare-results">
      <h3>What happens on both sides</h3>
      <ol className="compare-story">
        {x.story.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ol>
      {refused.length > 0 && (
        <div role="alert" className="field-error">
          The engine refused some steps: {refused.join('; ')}
        </div>
      )}
      <table className="compare-table">
        <caption>
          {x.partition}, {c.durationMs / 1000} simulated seconds from{' '}
          {x.settledAfterMs > 0
            ? `${(x.settledAfterMs / 1000).toFixed(1)} s from now (when ${x.partition} was in sync)`
            : 'now'}
        </caption>
        <thead>
          <tr>
            <th scope="col">What</th>
            <th scope="col">{labelA}</th>
            <th scope="col">{labelB}</th>
          </tr>
        </thead>
        {x.rows.map((row, i) => (
          <tbody key={row.what}>
            <tr>
              <th scope="row" aria-describedby={`${id}-why-${i}`}>
                {row.what}
              </th>
              <td>{row.a}</td>
              <td>{row.b}</td>
            </tr>
            <tr className="compare-why">
              <td colSpan={3} id={`${id}-why-${i}`}>
                <span className="compare-about">{row.about}</span> <strong>Why:</strong> {row.why}
              </td>
            </tr>
          </tbody>
        ))}
      </table>
      <section aria-labelledby={`${id}-who`}>
        <h3 id={`${id}-who`}>Who saw which error</h3>
        {x.producers.map((p) => (
          <div key={p.producerId} className="compare-producer">
            <h4>
              {p.producerId} <span className="hint">({p.role})</span>
            </h4>
            <ul aria-label={`What ${p.producerId} saw`}>
              <ProducerSide label={labelA} outcome={p.a} />
              <ProducerSide label={labelB} outcome={p.b} />
            </ul>
          </div>
        ))}
      </section>
      {x.errors.length > 0 && (
        <section aria-labelledby={`${id}-errors`}>
          <h3 id={`${id}-errors`}>What the errors mean</h3>
          <dl className="compare-errors">
            {x.errors.map((e) => (
              <div key={e.name}>
                <dt>
                  <ErrorName name={e.name} />
                </dt>
                <dd>{e.meaning}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
    </div>
  );
}

interface CompareUi {
  experiment: string;
  topic: string;
  busy: boolean;
  reply: ComparisonReply | null;
  run(experiment: string, topic: string): Promise<void>;
}

/** Kept outside the component: the results stay while another side tab is open. */
const useCompareUi = create<CompareUi>((set) => ({
  experiment: EXPERIMENTS[0].id,
  topic: '',
  busy: false,
  reply: null,
  async run(experiment, topic) {
    set({ busy: true });
    const reply = await requestComparison(experiment, topic);
    set({ busy: false, reply });
  },
}));

export function ComparePanel() {
  const topicViews = useSimulationStore((s) => s.snapshot?.topics);
  // Kafka's internal topics (__consumer_offsets) are not what an experiment is about.
  const topics = useMemo(
    () => (topicViews ?? []).map((t) => t.name).filter((name) => !name.startsWith('__')),
    [topicViews],
  );
  const { experiment, topic, busy, reply, run } = useCompareUi();
  const setExperiment = (id: string) => useCompareUi.setState({ experiment: id });
  const setTopic = (name: string) => useCompareUi.setState({ topic: name });
  const setReply = (value: null) => useCompareUi.setState({ reply: value });
  const chosenTopic = topics.includes(topic) ? topic : (topics[0] ?? '');
  const chosen = EXPERIMENTS.find((x) => x.id === experiment)!;

  return (
    <section className="compare" aria-labelledby="compare-heading">
      <h2 id="compare-heading">Fork and compare</h2>
      <p className="hint">
        Runs two copies of the cluster from now with one thing changed, and shows what differs. The running
        cluster is not changed. The experiment writes to partition 0 of the topic, and most break it.
      </p>
      <div className="form-grid">
        <label htmlFor="compare-experiment">Experiment</label>
        <select id="compare-experiment" value={experiment} onChange={(e) => setExperiment(e.target.value)}>
          {EXPERIMENTS.map((x) => (
            <option key={x.id} value={x.id}>
              {x.title}
            </option>
          ))}
        </select>
        <label htmlFor="compare-topic">Topic</label>
        <select id="compare-topic" value={chosenTopic} onChange={(e) => setTopic(e.target.value)}>
          {topics.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </div>
      <p className="compare-question">{chosen.question}</p>
      <div className="form-row">
        <button
          type="button"
          disabled={busy || !chosenTopic}
          onClick={() => void run(experiment, chosenTopic)}
        >
          {busy ? 'Running both branches…' : 'Run both from now'}
        </button>
        {reply && !busy && (
          <button type="button" onClick={() => setReply(null)}>
            Clear the results
          </button>
        )}
      </div>
      <p role="status" className="hint">
        {busy
          ? 'Running both branches (a few seconds)…'
          : !chosenTopic
            ? 'Waiting for a topic to exist…'
            : ''}
      </p>
      {reply?.error && (
        <p role="alert" className="field-error">
          {reply.error}
        </p>
      )}
      {reply?.comparison && <Results reply={reply} />}
    </section>
  );
}
