// Fork and compare: from now, two branches with one thing changed, side by side.
import { useMemo, useState } from 'react';
import { useSimulationStore } from '../../store/simulation';
import { requestComparison, type ComparisonReply } from '../../store/timeline';
import './timeline.css';

/** The experiments the worker knows (src/worker/compare.ts, EXPERIMENTS). */
const EXPERIMENTS = [
  { id: 'acks', title: 'acks=1 vs acks=all, and the leader crashes' },
  { id: 'unclean', title: 'unclean.leader.election.enable on vs off' },
  { id: 'min-isr', title: 'min.insync.replicas 2 vs 3, one broker down' },
];

export function ComparePanel() {
  const topicViews = useSimulationStore((s) => s.snapshot?.topics);
  // Kafka's internal topics (__consumer_offsets) are not what an experiment is about.
  const topics = useMemo(
    () => (topicViews ?? []).map((t) => t.name).filter((name) => !name.startsWith('__')),
    [topicViews],
  );
  const [experiment, setExperiment] = useState(EXPERIMENTS[0].id);
  const [topic, setTopic] = useState('');
  const [busy, setBusy] = useState(false);
  const [reply, setReply] = useState<ComparisonReply | null>(null);
  const chosenTopic = topic || topics[0] || '';

  async function run() {
    setBusy(true);
    setReply(await requestComparison(experiment, chosenTopic));
    setBusy(false);
  }

  const c = reply?.comparison;
  const rows: [string, (o: NonNullable<typeof c>['a']) => string][] = [
    ['Acknowledged records lost', (o) => String(o.lostAcknowledged)],
    ['Offline partition-seconds', (o) => (o.offlinePartitionMs / 1000).toFixed(1)],
    ['Records acknowledged', (o) => String(o.acknowledged)],
    ['Records failed', (o) => String(o.failed)],
    [
      'Errors seen',
      (o) =>
        Object.entries(o.errors)
          .map(([name, n]) => `${name} ×${n}`)
          .join(', ') || 'none',
    ],
  ];
  return (
    <section className="compare" aria-label="Compare branches">
      <h2>Fork and compare</h2>
      <label>
        Experiment{' '}
        <select value={experiment} onChange={(e) => setExperiment(e.target.value)}>
          {EXPERIMENTS.map((x) => (
            <option key={x.id} value={x.id}>
              {x.title}
            </option>
          ))}
        </select>
      </label>{' '}
      <label>
        Topic{' '}
        <select value={chosenTopic} onChange={(e) => setTopic(e.target.value)}>
          {topics.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>{' '}
      <button type="button" disabled={busy || !chosenTopic} onClick={() => void run()}>
        {busy ? 'Running both branches…' : 'Run both from now'}
      </button>
      {reply?.error && <p role="alert">{reply.error}</p>}
      {c && (
        <table>
          <caption>
            {c.durationMs / 1000} simulated seconds from now; {c.differences.length} difference
            {c.differences.length === 1 ? '' : 's'}
          </caption>
          <thead>
            <tr>
              <th scope="col">What</th>
              <th scope="col">{reply.labels[0]}</th>
              <th scope="col">{reply.labels[1]}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([what, value]) => (
              <tr key={what}>
                <th scope="row">{what}</th>
                <td>{value(c.a)}</td>
                <td>{value(c.b)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
