// The app's keys, as data: one table that the key handler (src/app/keys.ts) dispatches from and the
// help overlay ("?") lists, so the two cannot drift. A clicker sends PageUp/PageDown (some send the
// arrows or Space) and B or period for its "blank screen" button.
import { create } from 'zustand';
import { SPEEDS } from './playback';

/** Where a key acts: anywhere on the page, during a lesson only, or on the focused canvas node. */
export type KeyScope = 'anywhere' | 'lesson' | 'free' | 'node';

export type KeyAction =
  | 'playPause'
  | 'stepEvent'
  | 'forwardEvent'
  | 'backEvent'
  | 'faster'
  | 'slower'
  | 'presenter'
  | 'help'
  | 'lessonForward'
  | 'lessonBack'
  | 'lessonChoose'
  | 'nodeSelect'
  | 'nodeCrash'
  | 'nodeRestart'
  | 'nodeShutdown'
  | 'nodeIsolate'
  | 'fit'
  | 'escape';

export interface KeyBinding {
  action: KeyAction;
  scope: KeyScope;
  /** `KeyboardEvent.key` values; letters match either case. */
  keys: string[];
  /** How the help overlay names the keys. */
  label: string;
  what: string;
}

export const KEYMAP: readonly KeyBinding[] = [
  {
    action: 'lessonForward',
    scope: 'lesson',
    keys: ['PageDown', 'ArrowRight', ' '],
    label: 'PageDown, → or Space',
    what: '"Do it for me", then the next step',
  },
  {
    action: 'lessonBack',
    scope: 'lesson',
    keys: ['PageUp', 'ArrowLeft'],
    label: 'PageUp or ←',
    what: 'back to the start of this step (or the previous one)',
  },
  {
    action: 'lessonChoose',
    scope: 'lesson',
    keys: ['1', '2', '3', '4', '5', '6', '7', '8', '9'],
    label: '1 to 9',
    what: 'choose that answer',
  },
  {
    action: 'forwardEvent',
    scope: 'free',
    keys: ['PageDown', 'ArrowRight'],
    label: 'PageDown or →',
    what: 'pause and go on to the next event on the timeline',
  },
  {
    action: 'backEvent',
    scope: 'free',
    keys: ['PageUp', 'ArrowLeft'],
    label: 'PageUp or ←',
    what: 'pause and go back one event on the timeline',
  },
  {
    action: 'playPause',
    scope: 'free',
    keys: [' '],
    label: 'Space',
    what: 'play or pause',
  },
  {
    action: 'playPause',
    scope: 'anywhere',
    keys: ['b', '.', 'k'],
    label: 'B, . or K',
    what: 'play or pause (a clicker\u2019s "blank screen" button sends B or .)',
  },
  { action: 'stepEvent', scope: 'anywhere', keys: ['n'], label: 'N', what: 'pause and run the next event' },
  { action: 'faster', scope: 'anywhere', keys: ['+', '='], label: '+', what: 'faster (next speed up)' },
  { action: 'slower', scope: 'anywhere', keys: ['-', '_'], label: '−', what: 'slower (next speed down)' },
  { action: 'presenter', scope: 'anywhere', keys: ['p'], label: 'P', what: 'presenter mode on or off' },
  { action: 'help', scope: 'anywhere', keys: ['?'], label: '?', what: 'show or hide this help' },
  {
    action: 'escape',
    scope: 'anywhere',
    keys: ['Escape'],
    label: 'Escape',
    what: 'close this help, clear the selection',
  },
  {
    action: 'nodeSelect',
    scope: 'node',
    keys: ['Enter', ' '],
    label: 'Enter or Space',
    what: 'select the focused node (shows its buttons)',
  },
  { action: 'nodeCrash', scope: 'node', keys: ['c'], label: 'C', what: 'crash the focused node' },
  { action: 'nodeRestart', scope: 'node', keys: ['r'], label: 'R', what: 'restart the focused node' },
  {
    action: 'nodeShutdown',
    scope: 'node',
    keys: ['s'],
    label: 'S',
    what: 'controlled shutdown of the focused node',
  },
  {
    action: 'nodeIsolate',
    scope: 'node',
    keys: ['i'],
    label: 'I',
    what: 'isolate the focused node from the rest of the cluster',
  },
  { action: 'fit', scope: 'node', keys: ['f'], label: 'F', what: 'fit the cluster to the screen' },
];

/** The binding a key press means, given whether a lesson is being played; null when it means nothing. */
export function bindingFor(key: string, inLesson: boolean, scopes: readonly KeyScope[]): KeyBinding | null {
  const k = key.length === 1 ? key.toLowerCase() : key;
  const applies = (b: KeyBinding) =>
    scopes.includes(b.scope) &&
    (b.scope !== 'lesson' || inLesson) &&
    (b.scope !== 'free' || !inLesson) &&
    b.keys.includes(k);
  return KEYMAP.find(applies) ?? null;
}

/** The speed one step up (+1) or down (-1) the speed control's list from `speed`, clamped at its ends. */
export function nextSpeed(speed: number, direction: 1 | -1): number {
  const i = SPEEDS.findIndex((s) => s >= speed);
  const at = i < 0 ? SPEEDS.length - 1 : i;
  const exact = SPEEDS[at] === speed;
  const to = direction > 0 ? (exact ? at + 1 : at) : at - 1;
  return SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, to))] ?? speed;
}

/** Whether the keyboard help is open (the "?" key and the canvas's "?" button share it). */
export const useHelpStore = create<{ open: boolean; setOpen(open: boolean): void; toggle(): void }>(
  (set) => ({
    open: false,
    setOpen: (open) => set({ open }),
    toggle: () => set((s) => ({ open: !s.open })),
  }),
);
