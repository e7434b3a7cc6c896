import { useMemo } from 'react';
import { selectRecentEvents } from '../store/selectors';
import { useSimulationStore } from '../store/simulation';

export function EventLog() {
  const events = useSimulationStore((state) => state.events);
  const rows = useMemo(() => selectRecentEvents(events), [events]);
  return (
    <section className="event-log" aria-labelledby="event-log-title">
      <h2 id="event-log-title">Recent events</h2>
      <ol aria-labelledby="event-log-title">
        {rows.map((row) => (
          <li key={row.seq}>
            <time>{row.time}</time> <strong>{row.type}</strong> {row.message}
          </li>
        ))}
      </ol>
    </section>
  );
}
