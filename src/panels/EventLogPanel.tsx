// The Event log tab: what happened, in plain words with Kafka's term on each line, filterable by
// kind; choosing a line inspects what it is about.
import { useId, useMemo, useState } from 'react';
import { EVENT_CATEGORIES, selectEventLogRows, selectionLabel, type EventCategory } from '../store/panels';
import { useSelectionStore } from '../store/selection';
import { useSimulationStore } from '../store/simulation';
import { usePanelsUi } from './uiStore';

const LIMIT = 200;

export function EventLogPanel() {
  const events = useSimulationStore((state) => state.events);
  const nodes = useSimulationStore((state) => state.snapshot?.nodes);
  const select = useSelectionStore((state) => state.select);
  const revealInspector = usePanelsUi((state) => state.revealInspector);
  const id = useId();
  const [shown, setShown] = useState<ReadonlySet<EventCategory>>(
    () => new Set(EVENT_CATEGORIES.map((c) => c.id)),
  );
  const rows = useMemo(() => selectEventLogRows(events, shown, nodes ?? [], LIMIT), [events, shown, nodes]);

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
        Newest first, the latest {LIMIT} shown. Choose a line to inspect what it is about.
      </p>
      {rows.length === 0 ? (
        <p>No events of the chosen kinds yet.</p>
      ) : (
        <ol className="event-lines" aria-label="Events, newest first">
          {rows.map((row) => {
            const content = (
              <>
                <time className="event-time">{row.time}</time>{' '}
                <span className="event-message">{row.message}</span>{' '}
                <code className="event-type">{row.type}</code>
              </>
            );
            return (
              <li key={row.seq} className={`event-line category-${row.category}`}>
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
          })}
        </ol>
      )}
    </div>
  );
}
