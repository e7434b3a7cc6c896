// The scrubber under the canvas: the run so far with markers at crashes, cuts, elections, fencing
// and data loss; seek anywhere, step one event back or forward, and switch between branches.
import { useMemo } from 'react';
import { formatSimTime } from '../../store/selectors';
import { usePlaybackStore } from '../../store/playback';
import { useSimulationStore } from '../../store/simulation';
import { seek, stepEvent, switchBranch, useTimelineStore, type TimelineMarker } from '../../store/timeline';
import './timeline.css';

/** The scrubber draws at most this many markers (the latest), so a long run stays light. */
const MAX_MARKERS = 400;

const KIND_NAMES: Record<TimelineMarker['kind'], string> = {
  crash: 'Crash',
  cut: 'Network',
  election: 'Election',
  fencing: 'Fencing',
  loss: 'Data loss',
  offline: 'Offline',
  action: 'Your action',
};

function pauseThen(run: () => void): void {
  if (usePlaybackStore.getState().playing) usePlaybackStore.getState().pause();
  run();
}

export function Timeline() {
  const info = useTimelineStore((s) => s.info);
  const nowMs = useSimulationStore((s) => s.snapshot?.timeMs ?? 0);
  const endMs = Math.max(info?.endMs ?? 0, nowMs, 1);
  const markers = useMemo(() => {
    const all = info?.markers ?? [];
    // Elections are many (one per partition): keep the rarer kinds first when thinning.
    const rare = all.filter((m) => m.kind !== 'election');
    const pick = rare.length >= MAX_MARKERS ? rare.slice(-MAX_MARKERS) : all.slice(-MAX_MARKERS);
    return pick;
  }, [info]);
  const branches = info?.branches ?? [];

  return (
    <section className="timeline" aria-label="Timeline">
      <div className="timeline-row">
        <button type="button" onClick={() => pauseThen(() => seek(0))} aria-label="Rewind to the start">
          Start
        </button>
        <button
          type="button"
          onClick={() => pauseThen(() => stepEvent('back'))}
          aria-label="Step back one event"
        >
          ‹ Event
        </button>
        <div className="timeline-track">
          <input
            type="range"
            min={0}
            max={endMs}
            step={100}
            value={nowMs}
            aria-label="Seek simulated time"
            aria-valuetext={formatSimTime(nowMs)}
            onChange={(event) => pauseThen(() => seek(Number(event.target.value)))}
          />
          <ol className="timeline-markers" aria-label="Markers">
            {markers.map((m, i) => (
              <li
                key={`${m.timeMs}-${m.type}-${i}`}
                className={`timeline-marker marker-${m.kind}`}
                style={{ left: `${(m.timeMs / endMs) * 100}%` }}
              >
                <button
                  type="button"
                  title={`${formatSimTime(m.timeMs)} ${KIND_NAMES[m.kind]}: ${m.label}`}
                  aria-label={`${KIND_NAMES[m.kind]} at ${formatSimTime(m.timeMs)}: ${m.label}`}
                  onClick={() => pauseThen(() => seek(m.timeMs))}
                />
              </li>
            ))}
          </ol>
        </div>
        <button
          type="button"
          onClick={() => pauseThen(() => stepEvent('forward'))}
          aria-label="Step forward one event"
        >
          Event ›
        </button>
        <button
          type="button"
          onClick={() => pauseThen(() => seek(endMs))}
          aria-label="Go to the end of the branch"
        >
          End
        </button>
        <output className="timeline-time" aria-label="Position">
          {formatSimTime(nowMs)} / {formatSimTime(endMs)}
        </output>
      </div>
      {branches.length > 1 && (
        <ul className="timeline-branches" aria-label="Branches">
          {branches.map((b) => (
            <li key={b.id}>
              <button
                type="button"
                aria-pressed={b.id === info?.currentBranchId}
                onClick={() => pauseThen(() => switchBranch(b.id))}
              >
                {b.label} · to {formatSimTime(b.endMs)} · {b.actionCount} action
                {b.actionCount === 1 ? '' : 's'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
