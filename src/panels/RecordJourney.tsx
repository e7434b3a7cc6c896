// A record's journey as a timeline in Kafka's words, each stage a link that seeks the timeline to
// its moment. The journey is kept while the learner travels back to one of its stages: the stages
// still to come from there are marked "later".
import { useEffect, useRef, useState } from 'react';
import { requestRecordJourney } from '../store/connection';
import { useRecordLogStore, type JourneyStageKind, type RecordJourneyView } from '../store/recordLog';
import { useSimulationStore } from '../store/simulation';
import { seek } from '../store/timeline';

const GLYPH: Record<JourneyStageKind, string> = {
  send: '✉',
  partition: '⇶',
  batch: '▦',
  produce: '⇢',
  error: '⚠',
  verify: '⚖',
  append: '✚',
  replicate: '⧉',
  highWatermark: '▲',
  acknowledged: '✔',
  failed: '✖',
  fetch: '⇣',
  commit: '⚑',
  truncated: '✂',
  lost: '☠',
};

/** Wall-clock milliseconds between two journey requests at most. */
const REFRESH_MS = 500;

const seconds = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

export function RecordJourney({ recordId }: { recordId: number }) {
  const timeMs = useSimulationStore((s) => s.snapshot?.timeMs ?? 0);
  const showJourney = useRecordLogStore((s) => s.showJourney);
  const [journey, setJourney] = useState<{ view: RecordJourneyView | null; atMs: number } | null>(null);
  const lastAt = useRef(-Infinity);
  const inFlight = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    setJourney(null);
    lastAt.current = -Infinity;
    heading.current?.focus();
  }, [recordId]);

  // Asked again only while time moves past the answer: after a seek back the journey stays whole.
  const stale = journey === null || timeMs > journey.atMs;
  useEffect(() => {
    if (!stale || inFlight.current) return;
    const ask = () => {
      inFlight.current = true;
      lastAt.current = performance.now();
      void requestRecordJourney(recordId).then((view) => {
        inFlight.current = false;
        // The worker's time, not the page's (a request that crossed a seek answers for the new moment):
        // after a seek back, the journey read before stays whole.
        const atMs = view?.timeMs ?? timeMs;
        setJourney((previous) => (previous?.view && previous.atMs > atMs ? previous : { view, atMs }));
      });
    };
    const wait = lastAt.current + REFRESH_MS - performance.now();
    if (wait <= 0) return void ask();
    const timer = setTimeout(ask, wait);
    return () => clearTimeout(timer);
  }, [stale, timeMs, recordId]);

  const view = journey?.view;
  return (
    <section className="record-journey" aria-labelledby="record-journey-heading">
      <h3 id="record-journey-heading" ref={heading} tabIndex={-1}>
        Journey of record {recordId}
        {view ? ` (${view.key === null ? 'no key' : `key ${view.key}`}, value ${view.value})` : ''}
      </h3>
      <button type="button" className="journey-close" onClick={() => showJourney(null)}>
        Close the journey
      </button>
      {journey === null ? (
        <p>Reading the journey…</p>
      ) : !view ? (
        <p>The ledger no longer holds this record (retention deleted it, or it belongs to an earlier run).</p>
      ) : (
        <>
          <p>
            {view.topic}-{view.partition}
            {view.offset >= 0 ? `, offset ${view.offset}` : ''}: {view.status}
            {view.error ? ` (${view.error})` : ''}. Select a time to go there on the timeline.
          </p>
          <ol className="journey-stages" aria-label={`Stages of record ${recordId}`}>
            {view.stages.map((stage, i) => {
              const later = stage.atMs > timeMs;
              return (
                <li
                  key={i}
                  className={`journey-stage journey-stage--${stage.kind}${later ? ' journey-stage--later' : ''}`}
                >
                  <button
                    type="button"
                    className="journey-time"
                    aria-label={`Seek to ${seconds(stage.atMs)}: ${stage.text}`}
                    onClick={() => seek(stage.atMs)}
                  >
                    {seconds(stage.atMs)}
                  </button>
                  <span className="journey-glyph" aria-hidden="true">
                    {later ? '◌' : GLYPH[stage.kind]}
                  </span>
                  <span className="journey-text">
                    {stage.text}
                    {later ? ' (later than now)' : ''}
                  </span>
                </li>
              );
            })}
          </ol>
          {view.forgotten && <p>Older stages of this record are no longer in the bounded history.</p>}
        </>
      )}
    </section>
  );
}
