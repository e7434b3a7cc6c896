// The page's keys, bound once on the window from the one table in src/store/keys.ts (which the "?"
// help lists). In a lesson the clicker keys move the lesson; outside one they drive the clock.
// Keys typed into a field, or pressed with Ctrl, Alt or Meta, are left alone, and a key a focused
// control already handled (a tab list's arrows, a node's C/R/S/I) is not handled twice.
import { choose, doTask, nextStep, previousStep, togglePresenting, useLessonStore } from '../lessons';
import { bindingFor, nextSpeed, useHelpStore, type KeyAction } from '../store/keys';
import { usePlaybackStore } from '../store/playback';
import { useSelectionStore } from '../store/selection';
import { stepEvent } from '../store/timeline';

const playPause = () => {
  const p = usePlaybackStore.getState();
  if (p.playing) p.pause();
  else p.play();
};

const pauseThen = (act: () => void) => {
  if (usePlaybackStore.getState().playing) usePlaybackStore.getState().pause();
  act();
};

/** Handlers for the page-wide actions; the node actions are the canvas's own (src/canvas). */
const ACTIONS: Partial<Record<KeyAction, (key: string) => void>> = {
  playPause,
  stepEvent: () => pauseThen(() => usePlaybackStore.getState().step()),
  // A clicker's forward and back are the timeline's Event › and ‹ Event: each lands on a logged
  // event and names it; N runs the engine's very next scheduled event.
  forwardEvent: () => pauseThen(() => stepEvent('forward')),
  backEvent: () => pauseThen(() => stepEvent('back')),
  faster: () => usePlaybackStore.getState().setSpeed(nextSpeed(usePlaybackStore.getState().speed, 1)),
  slower: () => usePlaybackStore.getState().setSpeed(nextSpeed(usePlaybackStore.getState().speed, -1)),
  presenter: togglePresenting,
  help: () => useHelpStore.getState().toggle(),
  escape: () => {
    useHelpStore.getState().setOpen(false);
    useSelectionStore.getState().select(null);
  },
  lessonForward: () => {
    const { phase } = useLessonStore.getState();
    if (phase === 'task') doTask();
    else if (phase === 'done') nextStep();
  },
  lessonBack: previousStep,
  lessonChoose: (key) => {
    if (useLessonStore.getState().phase === 'predict') choose(Number(key) - 1);
  },
};

const TYPING = 'input, select, textarea, [contenteditable]:not([contenteditable="false"])';
/** Space and Enter on these already press them. */
const PRESSABLE = 'button, a[href], summary, [role="button"], [role="tab"], [role="checkbox"]';

export function onKey(event: KeyboardEvent): void {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target instanceof Element ? event.target : null;
  if (target?.closest(TYPING)) return;
  if ((event.key === ' ' || event.key === 'Enter') && target?.closest(PRESSABLE)) return;
  const inLesson = useLessonStore.getState().lessonId !== null;
  const binding = bindingFor(event.key, inLesson, ['lesson', 'free', 'anywhere']);
  const act = binding && ACTIONS[binding.action];
  if (!act) return;
  event.preventDefault();
  act(event.key);
}

/** Binds the keys on the window; returns the unbinding. */
export function installKeys(target: Window = window): () => void {
  target.addEventListener('keydown', onKey);
  return () => target.removeEventListener('keydown', onKey);
}
