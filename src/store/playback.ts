// Whether the simulation runs and how fast; each change is sent to the worker, which reports back
// the speed it actually achieves.
import { create } from 'zustand';
import type { PlaybackStats } from '../worker/protocol';
import { send } from './port';

/** The speeds offered to the user, from a slow-motion look at one election to a long soak. */
export const SPEEDS = [0.1, 0.5, 1, 2, 5, 10, 50, 100, 1000] as const;

export interface PlaybackState {
  /** The worker starts playing at 1× on its own. */
  playing: boolean;
  speed: number;
  /** Simulated ms per wall ms over the last second, as the worker measured it (0 while paused). */
  achievedSpeed: number;
  /** Snapshot bytes per second the worker posts, while measuring (see `measure`). */
  snapshotBytesPerSecond: number | null;
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
  play() {
    send({ type: 'play' });
    set({ playing: true });
  },
  pause() {
    send({ type: 'pause' });
    set({ playing: false });
  },
  step() {
    send({ type: 'step' });
  },
  setSpeed(speed) {
    send({ type: 'setSpeed', speed });
    set({ speed });
  },
  measure(enabled) {
    send({ type: 'measure', enabled });
  },
}));

export function receivePlaybackStats(stats: PlaybackStats): void {
  usePlaybackStore.setState({
    // The worker may pause itself (a lesson holds the clock for the learner): it has the last word.
    playing: stats.playing,
    achievedSpeed: stats.achievedSpeed,
    snapshotBytesPerSecond: stats.snapshotBytesPerSecond,
  });
}

/** Whether the engine falls visibly short of the requested speed (worth telling the user). */
export function isBehind(speed: number, achievedSpeed: number, playing: boolean): boolean {
  return playing && achievedSpeed > 0 && achievedSpeed < speed * 0.8;
}
