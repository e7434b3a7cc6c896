// Whether the simulation runs and how fast; each change is sent to the worker, which reports back
// the speed it actually achieves.
import { create } from 'zustand';
import type { PlaybackStats } from '../worker/protocol';
import { send } from './port';

/** The speeds offered to the user, from a slow-motion look at one election to a long soak. */
export const SPEEDS = [0.1, 0.5, 1, 2, 5, 10, 50, 100, 1000] as const;

/** The speed note: shown or not, the achieved speed it reports, and the figures it was averaged from. */
export interface SpeedNote {
  shown: boolean;
  /** Simulated ms per wall ms, the mean of `recent`. */
  achieved: number;
  /** The worker's last figures (one a second), newest last, at most SPEED_NOTE_WINDOW. */
  recent: readonly number[];
}

export const NO_SPEED_NOTE: SpeedNote = { shown: false, achieved: 0, recent: [] };

/** The note appears when the run falls below this share of the requested speed (95%: the speed a user picks is the speed they get)... */
export const SPEED_NOTE_BELOW = 0.95;
/** ...and goes only once the run is back above this share, so a run near 95% does not flicker. */
export const SPEED_NOTE_CLEARS_AT = 0.98;
/** The worker's figures (one a second) the note averages: two seconds. */
export const SPEED_NOTE_WINDOW = 2;

/**
 * The speed note after the worker's next figure: over a two-second average, it appears below 95%
 * of the requested speed and stays until the run is back at 98% (hysteresis), so that a run that
 * keeps up within a few percent is not flagged and one hovering at the threshold does not blink.
 * Paused (achieved 0) there is no note and the average starts over.
 */
export function nextSpeedNote(prev: SpeedNote, speed: number, achieved: number, playing: boolean): SpeedNote {
  if (!playing || !(achieved > 0)) return NO_SPEED_NOTE;
  const recent = [...prev.recent, achieved].slice(-SPEED_NOTE_WINDOW);
  const mean = recent.reduce((a, b) => a + b, 0) / recent.length;
  const shown = prev.shown ? mean < speed * SPEED_NOTE_CLEARS_AT : mean < speed * SPEED_NOTE_BELOW;
  return { shown, achieved: mean, recent };
}

export interface PlaybackState {
  /** The worker starts playing at 1× on its own. */
  playing: boolean;
  speed: number;
  /** Simulated ms per wall ms over the last second, as the worker measured it (0 while paused). */
  achievedSpeed: number;
  /** Snapshot bytes per second the worker posts, while measuring (see `measure`). */
  snapshotBytesPerSecond: number | null;
  /** Whether the page says the run falls short of `speed`, and the figure it gives (see nextSpeedNote). */
  speedNote: SpeedNote;
  play(): void;
  pause(): void;
  /** Runs exactly the next event of the simulation. */
  step(): void;
  setSpeed(speed: number): void;
  /** Asks the worker to count the bytes it posts (for the UI benchmark). */
  measure(enabled: boolean): void;
}

export const usePlaybackStore = create<PlaybackState>((set) => ({
  playing: true,
  speed: 1,
  achievedSpeed: 1,
  snapshotBytesPerSecond: null,
  speedNote: NO_SPEED_NOTE,
  play() {
    send({ type: 'play' });
    set({ playing: true, speedNote: NO_SPEED_NOTE });
  },
  pause() {
    send({ type: 'pause' });
    set({ playing: false, speedNote: NO_SPEED_NOTE });
  },
  step() {
    send({ type: 'step' });
  },
  setSpeed(speed) {
    send({ type: 'setSpeed', speed });
    // The worker's next figure still holds part of a second at the old speed: the note starts over.
    set({ speed, speedNote: NO_SPEED_NOTE });
  },
  measure(enabled) {
    send({ type: 'measure', enabled });
  },
}));

export function receivePlaybackStats(stats: PlaybackStats): void {
  const { speed, speedNote } = usePlaybackStore.getState();
  usePlaybackStore.setState({
    // The worker may pause itself (a lesson holds the clock for the learner): it has the last word.
    playing: stats.playing,
    achievedSpeed: stats.achievedSpeed,
    snapshotBytesPerSecond: stats.snapshotBytesPerSecond,
    speedNote: nextSpeedNote(speedNote, speed, stats.achievedSpeed, stats.playing),
  });
}
