// The Terminal tab's state: what was typed and what the tools answered (kept while other tabs are
// open), and the lines typed before, for the arrow keys.
import { create } from 'zustand';
import type { CommandResult } from '../sim/types';
import { sendCommand } from './connection';

export interface TerminalEntry {
  id: number;
  line: string;
  /** The tool's output; null while the worker has not answered. */
  output: string | null;
  /** The tool succeeded (exit status 0). */
  ok: boolean;
  /** The line changed the cluster, so the session recorded it as an action. */
  recorded: boolean;
}

/** Entries kept on screen; older ones scroll away. */
export const TERMINAL_MAX_ENTRIES = 100;
/** Lines kept for the arrow keys. */
export const TERMINAL_MAX_HISTORY = 200;

interface TerminalState {
  entries: TerminalEntry[];
  /** Lines run, oldest first, without repeats in a row. */
  history: string[];
  run(line: string): Promise<void>;
  clear(): void;
}

let nextId = 1;

/** The entry a command result makes. */
export function entryOf(id: number, line: string, result: CommandResult): TerminalEntry {
  if (result.ok) return { id, line, output: result.output ?? '', ok: true, recorded: !result.readOnly };
  return { id, line, output: result.output ?? result.error, ok: false, recorded: false };
}

export const useTerminalStore = create<TerminalState>((set) => ({
  entries: [],
  history: [],
  async run(line) {
    const trimmed = line.trim();
    if (trimmed === '') return;
    const id = nextId++;
    set((s) => ({
      entries: [...s.entries, { id, line: trimmed, output: null, ok: true, recorded: false }].slice(
        -TERMINAL_MAX_ENTRIES,
      ),
      history: (s.history.at(-1) === trimmed ? s.history : [...s.history, trimmed]).slice(
        -TERMINAL_MAX_HISTORY,
      ),
    }));
    const result = await sendCommand({ type: 'cli', line: trimmed });
    set((s) => ({ entries: s.entries.map((e) => (e.id === id ? entryOf(id, trimmed, result) : e)) }));
  },
  clear: () => set({ entries: [] }),
}));

/**
 * The arrow keys through the history: `index` is the position being shown (history.length for the
 * line being typed); returns the next position, which the caller shows (its draft at history.length).
 */
export function historyStep(historyLength: number, index: number, key: 'ArrowUp' | 'ArrowDown'): number {
  if (key === 'ArrowUp') return Math.max(0, index - 1);
  return Math.min(historyLength, index + 1);
}
