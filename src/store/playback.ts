// Whether the simulation runs and how fast; each change is sent to the worker.
import { create } from 'zustand';
import { send } from './connection';

export const SPEEDS = [1, 5, 10, 50, 100] as const;

export interface PlaybackState {
  /** The worker starts playing at 1× on its own. */
  playing: boolean;
  speed: number;
  play(): void;
  pause(): void;
  step(): void;
  setSpeed(speed: number): void;
}

export const usePlaybackStore = create<PlaybackState>((set) => ({
  playing: true,
  speed: 1,
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
}));
