// The page's lesson driver: the same lesson data as the headless runner, played on the worker.
// Each step's commands go to the worker; its condition is checked on every snapshot.
import { create } from 'zustand';
import type { Snapshot } from '../scenario';
import { send, sendCommand } from '../store/connection';
import { usePlaybackStore } from '../store/playback';
import { useSimulationStore } from '../store/simulation';
import { seek } from '../store/timeline';
import { lessonById } from './library';
import { loadProgress, saveProgress } from './progress';
import { commandsFor, type Lesson, type LessonStep } from './types';

/** predict: waiting for a choice; task: waiting for the learner's action; running: waiting for the condition. */
export type StepPhase = 'predict' | 'task' | 'running' | 'done';

export interface LessonState {
  lessonId: string | null;
  stepIndex: number;
  phase: StepPhase;
  choice: number | null;
  /** Whether the simulator did what the correct answer says (after the reveal). */
  answerHeld: boolean | null;
  /** The snapshot as the step began; null until the step's first snapshot arrives. */
  start: Snapshot | null;
  /** Virtual time each step began at, for going back. */
  stepStartMs: number[];
  /** Snapshots of runs before this one belong to an earlier simulation. */
  minRun: number;
  /** Commands of the step are sent once the start snapshot is known. */
  commandsSent: boolean;
  completed: string[];
  lastError: string | null;
}

const initial = (): LessonState => ({
  lessonId: null,
  stepIndex: 0,
  phase: 'running',
  choice: null,
  answerHeld: null,
  start: null,
  stepStartMs: [],
  minRun: 0,
  commandsSent: false,
  completed: loadProgress().completed,
  lastError: null,
});

export const useLessonStore = create<LessonState>(initial);

export function currentLesson(state: LessonState = useLessonStore.getState()): Lesson | undefined {
  return state.lessonId ? lessonById(state.lessonId) : undefined;
}

export function currentStep(state: LessonState = useLessonStore.getState()): LessonStep | undefined {
  return currentLesson(state)?.steps[state.stepIndex];
}

function persist(): void {
  const s = useLessonStore.getState();
  saveProgress({
    completed: s.completed,
    current: s.lessonId ? { lessonId: s.lessonId, stepIndex: s.stepIndex } : null,
  });
}

/** A step as it begins: its first phase, no choice, no start snapshot, nothing sent yet. */
function stepBegins(
  step: LessonStep,
): Pick<LessonState, 'phase' | 'choice' | 'answerHeld' | 'start' | 'commandsSent' | 'lastError'> {
  return {
    phase: step.predict ? 'predict' : step.task ? 'task' : 'running',
    choice: null,
    answerHeld: null,
    start: null,
    commandsSent: false,
    lastError: null,
  };
}

/** Starts a lesson on a fresh simulation of its scenario, at 10× so the waits stay short. */
export function startLesson(id: string): void {
  const lesson = lessonById(id);
  if (!lesson) return;
  const run = useSimulationStore.getState().run;
  useLessonStore.setState({
    lessonId: id,
    stepIndex: 0,
    ...stepBegins(lesson.steps[0]),
    stepStartMs: [],
    minRun: run + 1,
  });
  send({ type: 'init', scenario: lesson.scenario });
  usePlaybackStore.getState().setSpeed(10);
  usePlaybackStore.getState().play();
  persist();
}

export function stopLesson(): void {
  useLessonStore.setState({ lessonId: null });
  persist();
}

function enterStep(index: number): void {
  const lesson = currentLesson();
  if (!lesson) return;
  if (index >= lesson.steps.length) {
    const s = useLessonStore.getState();
    useLessonStore.setState({
      completed: s.completed.includes(lesson.id) ? s.completed : [...s.completed, lesson.id],
      lessonId: null,
    });
    persist();
    return;
  }
  useLessonStore.setState({ stepIndex: index, ...stepBegins(lesson.steps[index]) });
  persist();
  onSnapshot();
}

/** The learner's prediction; the step then runs (or waits for its task). */
export function choose(choice: number): void {
  const step = currentStep();
  const s = useLessonStore.getState();
  if (!step?.predict || s.phase !== 'predict') return;
  useLessonStore.setState({ choice, phase: step.task ? 'task' : 'running' });
  onSnapshot();
}

/** "Do it for me": issues the commands the step's task amounts to. */
export function doTask(): void {
  const step = currentStep();
  const s = useLessonStore.getState();
  if (!step?.task || s.phase !== 'task' || !s.start) return;
  useLessonStore.setState({ phase: 'running', commandsSent: true });
  // The learner's action first, then what the step does meanwhile (as the headless runner does).
  void issue([...commandsFor(step.task.commands, s.start), ...commandsFor(step.commands, s.start)]);
}

export function nextStep(): void {
  const s = useLessonStore.getState();
  if (s.phase === 'done') enterStep(s.stepIndex + 1);
}

/** Back to the beginning of the previous step (or this one): the timeline restores that moment. */
export function previousStep(): void {
  const s = useLessonStore.getState();
  const index = s.phase === 'done' || s.stepIndex === 0 ? s.stepIndex : s.stepIndex - 1;
  const at = s.stepStartMs[index];
  if (at === undefined) return;
  usePlaybackStore.getState().pause();
  seek(at);
  enterStep(index);
  usePlaybackStore.getState().play();
}

/** Sends the commands together, so that they land at the same virtual time. */
async function issue(commands: ReturnType<typeof commandsFor>): Promise<void> {
  const results = await Promise.all(commands.map((command) => sendCommand(command)));
  results.forEach((result, i) => {
    if (!result.ok) useLessonStore.setState({ lastError: `${commands[i].type}: ${result.error}` });
  });
}

/** Checks the current step against the latest snapshot; called on every snapshot. */
export function onSnapshot(): void {
  const s = useLessonStore.getState();
  const step = currentStep(s);
  const sim = useSimulationStore.getState();
  if (!step || !sim.snapshot || sim.run < s.minRun) return;
  if (!s.start) {
    const stepStartMs = [...s.stepStartMs];
    stepStartMs[s.stepIndex] = sim.snapshot.timeMs;
    useLessonStore.setState({ start: sim.snapshot, stepStartMs });
    return onSnapshot();
  }
  if (s.phase === 'predict' || s.phase === 'done') return;
  // A step with a task sends its commands with the task ("Do it for me"); the learner may also act in the UI.
  if (s.phase === 'running' && !s.commandsSent) {
    useLessonStore.setState({ commandsSent: true });
    void issue(commandsFor(step.commands, s.start));
    return;
  }
  const view = { snapshot: sim.snapshot, events: sim.events, start: s.start };
  if (step.until(view))
    useLessonStore.setState({
      phase: 'done',
      answerHeld: step.predict ? step.predict.answerHolds(view) : null,
    });
}

let installed = false;
/** Subscribes the driver to the simulation store (once). */
export function installLessonDriver(): void {
  if (installed) return;
  installed = true;
  useSimulationStore.subscribe((state, previous) => {
    if (state.snapshot !== previous.snapshot) onSnapshot();
  });
}
