// The page's side of "What if this zone goes dark?": the question sent to the worker, its progress
// and its answer (src/worker/whatIf.ts runs the branches), and "Show me", which plays a branch.
import { create } from 'zustand';
import type { PageToWorker, WorkerToPage } from '../worker/protocol';
import { usePlaybackStore } from './playback';
import { send } from './port';

export type WhatIfTargetData = Extract<PageToWorker, { type: 'whatIf' }>['targets'][number];
export type WhatIfResultData = NonNullable<Extract<WorkerToPage, { type: 'whatIfResult' }>['result']>;
export type WhatIfOutcomeData = WhatIfResultData['outcomes'][number];

export interface WhatIfState {
  /** The question under way: branches done of total. */
  running: { id: number; done: number; total: number } | null;
  result: WhatIfResultData | null;
  error: string | null;
  /** The branch being played by Show me (its label), after its commands were accepted. */
  shown: string | null;
}

export const useWhatIfStore = create<WhatIfState>(() => ({
  running: null,
  result: null,
  error: null,
  shown: null,
}));

let nextId = 1;

/** Asks the worker what losing each target now would do; a new question replaces one under way. */
export function askWhatIf(targets: WhatIfTargetData[]): void {
  const id = nextId++;
  useWhatIfStore.setState({ running: { id, done: 0, total: targets.length }, error: null });
  send({ type: 'whatIf', id, targets });
}

export function receiveWhatIfMessage(
  message: Extract<WorkerToPage, { type: 'whatIfProgress' | 'whatIfResult' }>,
): void {
  const running = useWhatIfStore.getState().running;
  // An answer to a question since replaced is dropped.
  if (!running || running.id !== message.id) return;
  if (message.type === 'whatIfProgress') {
    useWhatIfStore.setState({ running: { id: message.id, done: message.done, total: message.total } });
    return;
  }
  useWhatIfStore.setState({
    running: null,
    result: message.result ?? useWhatIfStore.getState().result,
    error: message.error ?? null,
  });
}

/**
 * Plays the branch on the live cluster: back to the moment it was computed from (the timeline
 * seeks, and the first action forks a new branch there), its commands, then play. Deterministic,
 * so what follows is the branch the panel showed. `apply` sends one command (connection's sendCommand).
 */
export async function showWhatIf(
  result: WhatIfResultData,
  outcome: WhatIfOutcomeData,
  apply: (
    command: WhatIfOutcomeData['commands'][number],
  ) => Promise<{ ok: true } | { ok: false; error: string }>,
): Promise<string | null> {
  send({ type: 'seek', timeMs: result.atMs });
  for (const command of outcome.commands) {
    const reply = await apply(command);
    if (!reply.ok) return reply.error;
  }
  usePlaybackStore.getState().play();
  useWhatIfStore.setState({ shown: outcome.label });
  return null;
}
