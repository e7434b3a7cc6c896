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
  replicate: '⇉',
  highWatermark: '▲',
  acknowledged: '✔',
  failed: '✖',
  fetch: '⇣',
  commit: '⚑',
  truncated: '✂',
  lost: '☠',
};

/**
 * Scrolls the panel that holds `el` so that `el` starts just below the panel's tabs, which stay
 * in view at its top (they are sticky: scrollIntoView would hide the journey's heading under them).
 */
function scrollBelowTabs(el: HTMLElement): void {
  for (let box = el.parentElement; box; box = box.parentElement) {
    const overflow = getComputedStyle(box).overflowY;
    if (overflow !== 'auto' && overflow !== 'scroll') continue;
    const top =
      box.querySelector('.side-tabs')?.getBoundingClientRect().bottom ?? box.getBoundingClientRect().top;
    box.scrollTop += el.getBoundingClientRect().top - top - 8;
    return;
  }
}

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
  const section = useRef<HTMLElement>(null);

  useEffect(() => {
    setJourney(null);
    lastAt.current = -Infinity;
    heading.current?.focus({ preventScroll: true });
  }, [recordId]);
  // Once the first answer has drawn the stages, the journey is brought to the top of its panel (at
  // 1280×720 the log above fills the panel, and the focused heading alone showed no stage).
  const hasAnswer = journey !== null;
  useEffect(() => {
    if (!hasAnswer) return;
    const frame = requestAnimationFrame(() => section.current && scrollBelowTabs(section.current));
    return () => cancelAnimationFrame(frame);
  }, [hasAnswer, recordId]);

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
    <section ref={section} className="record-journey" aria-labelledby="record-journey-heading">
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
