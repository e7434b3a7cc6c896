// A link or file that replays a long stretch of virtual time: what it replays, how far it has got,
// and a Cancel that keeps the running session. Short replays finish before this shows.
import { cancelReplay, dismissReplay, useTimelineStore } from '../../store/timeline';

/** Virtual time as hours, minutes and seconds: "2 h 05 min 10 s", "4 min 30 s", "12 s". */
export function virtualTime(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const min = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h} h ${String(min).padStart(2, '0')} min ${String(s).padStart(2, '0')} s`;
  if (min > 0) return `${min} min ${String(s).padStart(2, '0')} s`;
  return `${s} s`;
}

export function ReplayBanner() {
  const replay = useTimelineStore((s) => s.replay);
  if (!replay) return null;
  const what = replay.source === 'link' ? 'the link' : `the file ${replay.source}`;
  const percent = replay.positionMs > 0 ? Math.floor((replay.atMs / replay.positionMs) * 100) : 100;
  if (replay.cancelled)
    return (
      <div className="replay-banner" role="status" aria-label="Replay">
        <p>
          Opening {what} was cancelled at {virtualTime(replay.atMs)} of {virtualTime(replay.positionMs)}: the
          running session is kept.
        </p>
        <button type="button" onClick={dismissReplay}>
          Dismiss
        </button>
      </div>
    );
  return (
    <div className="replay-banner" role="status" aria-label="Replay">
      <p>
        Opening {what}: replaying {virtualTime(replay.positionMs)} of simulated time. The running session
        stays until it is done.
      </p>
      <progress max={100} value={percent} aria-label="Replayed">
        {percent}%
      </progress>
      <span>
        {virtualTime(replay.atMs)} ({percent}%)
      </span>
      <button type="button" onClick={cancelReplay}>
        Cancel
      </button>
    </div>
  );
}
