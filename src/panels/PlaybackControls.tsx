import { formatSimTime } from '../store/selectors';
import { SPEEDS, usePlaybackStore } from '../store/playback';
import { useSimulationStore } from '../store/simulation';

export function PlaybackControls() {
  const timeMs = useSimulationStore((state) => state.snapshot?.timeMs ?? 0);
  const playing = usePlaybackStore((state) => state.playing);
  const speed = usePlaybackStore((state) => state.speed);
  const { play, pause, step, setSpeed } = usePlaybackStore.getState();
  return (
    <div className="playback" role="group" aria-label="Playback">
      <output aria-label="Simulated time">{formatSimTime(timeMs)}</output>
      <button type="button" onClick={playing ? pause : play}>
        {playing ? 'Pause' : 'Play'}
      </button>
      <button type="button" onClick={step} disabled={playing}>
        Step
      </button>
      <label>
        Speed{' '}
        <select value={speed} onChange={(event) => setSpeed(Number(event.target.value))}>
          {SPEEDS.map((option) => (
            <option key={option} value={option}>
              {option}×
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
