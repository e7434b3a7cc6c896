// The Event log tab: what happened, in plain words with Kafka's term on each line, filterable by
// kind; choosing a line inspects what it is about. Routine events (a MetadataApplied on every
// broker for every change) fold into one line that opens to show each of them.
import { useId, useMemo, useState } from 'react';
import { foldEventLogRows } from '../store/eventFolding';
import {
  EVENT_CATEGORIES,
  selectEventLogRows,
  selectionLabel,
  type EventCategory,
  type EventLogRow,
} from '../store/panels';
import { useSelectionStore } from '../store/selection';
import { useSimulationStore } from '../store/simulation';
import { usePanelsUi } from './uiStore';

/** Lines shown (a folded group counts as one). */
const LIMIT = 200;
/** Events read to fill them: a group of routine events holds one per broker. */
const EVENTS_READ = 2000;

function EventLine({ row }: { row: EventLogRow }) {
  const select = useSelectionStore((state) => state.select);
  const revealInspector = usePanelsUi((state) => state.revealInspector);
  const content = (
    <>
      <time className="event-time">{row.time}</time> <span className="event-message">{row.message}</span>{' '}
      <code className="event-type">{row.type}</code>
    </>
  );
  return (
    <li className={`event-line category-${row.category}`}>
      {row.selection ? (
        <button
          type="button"
          className="event-button"
          title={`Inspect ${selectionLabel(row.selection)}`}
          onClick={() => {
            select(row.selection);
            revealInspector();
          }}
        >
          {content}
        </button>
      ) : (
        <div className="event-static">{content}</div>
      )}
    </li>
  );
}

export function EventLogPanel() {
  const events = useSimulationStore((state) => state.events);
  const nodes = useSimulationStore((state) => state.snapshot?.nodes);
  const id = useId();
  const [shown, setShown] = useState<ReadonlySet<EventCategory>>(
    () => new Set(EVENT_CATEGORIES.map((c) => c.id)),
  );
  const entries = useMemo(
    () => foldEventLogRows(selectEventLogRows(events, shown, nodes ?? [], EVENTS_READ)).slice(0, LIMIT),
    [events, shown, nodes],
  );

  const toggle = (category: EventCategory, on: boolean) =>
    setShown((previous) => {
      const next = new Set(previous);
      if (on) next.add(category);
      else next.delete(category);
      return next;
    });

  return (
    <div className="event-log-panel">
      <h2>Event log</h2>
      <details className="event-filters">
        <summary>
          Filter by kind ({shown.size} of {EVENT_CATEGORIES.length} kinds shown)
        </summary>
        <fieldset>
          <legend>Show events about</legend>
          <div className="checkbox-grid">
            {EVENT_CATEGORIES.map((c) => (
              <label key={c.id} className="checkbox">
                <input
                  type="checkbox"
                  checked={shown.has(c.id)}
                  onChange={(e) => toggle(c.id, e.target.checked)}
                />
                {c.label}
              </label>
            ))}
          </div>
          <div className="form-row">
            <button type="button" onClick={() => setShown(new Set(EVENT_CATEGORIES.map((c) => c.id)))}>
              Show all
            </button>
            <button type="button" onClick={() => setShown(new Set())}>
              Show none
            </button>
          </div>
        </fieldset>
      </details>
      <p className="hint" id={`${id}-hint`}>
        Newest first, the latest {LIMIT} lines shown; a run of routine events is one line, open it to see
        each. Choose a line to inspect what it is about.
      </p>
      {entries.length === 0 ? (
        <p>No events of the chosen kinds yet.</p>
      ) : (
        <ol className="event-lines" aria-label="Events, newest first">
          {entries.map((entry) =>
            entry.kind === 'event' ? (
              <EventLine key={entry.row.seq} row={entry.row} />
            ) : (
              <li
                key={`group-${entry.key}`}
                className={`event-line event-group category-${entry.rows[0].category}`}
              >
                <details>
                  <summary>
                    <time className="event-time">{entry.time}</time>{' '}
                    <span className="event-message">{entry.summary}</span>{' '}
                    <span className="event-count">({entry.rows.length} events)</span>
                  </summary>
                  <ol className="event-lines" aria-label={`${entry.rows.length} ${entry.type} events`}>
                    {entry.rows.map((row) => (
                      <EventLine key={row.seq} row={row} />
                    ))}
                  </ol>
                </details>
              </li>
            ),
          )}
        </ol>
      )}
    </div>
  );
}
