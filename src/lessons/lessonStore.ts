// The page's side of a lesson: the worker plays and judges each step (src/worker/lessonPlayer.ts);
// this store mirrors where it stands, keeps what only the page knows (the learner's choices, the
// lessons completed), sends the learner's actions, and keeps the address bar on the lesson's step
// (?lesson=ID&step=N), so a link copied during a lesson opens that step.
import { create } from 'zustand';
import { useLessonProgressStore, sendLessonAction } from '../store/lesson';
import { usePlaybackStore } from '../store/playback';
import { lessonById, type Lesson, type LessonStep } from '../scenario/lessons';
import type { LessonProgress } from '../store/lesson';
import { loadProgress, saveProgress } from './progress';

/**
 * predict: waiting for a choice (the clock holds); task: waiting for the learner's action (the clock
 * holds until they act); running: the judge watches; done: the reveal (the clock paused on the
 * moment); timedOut: the condition did not hold in time; finished: the summary.
 */
export type StepPhase = LessonProgress['status'];

/** A prediction the learner made, and what became of it. */
export interface PredictionResult {
  stepIndex: number;
  choice: number;
  right: boolean;
}

export interface LessonState {
  lessonId: string | null;
  stepIndex: number;
  phase: StepPhase;
  /** The learner's choice in this step, if made. */
  choice: number | null;
  /** Whether the simulator did what the correct answer says (after the reveal). */
  answerHeld: boolean | null;
  /** Every prediction made in this lesson, by step (a step done again replaces its own). */
  results: PredictionResult[];
  /** The earliest step Back can reach. */
  firstStepIndex: number;
  completed: string[];
  lastError: string | null;
  /** The lesson being started, before the worker reports it (a lesson opened from a link). */
  starting: boolean;
}

const initial = (): LessonState => ({
  lessonId: null,
  stepIndex: 0,
  phase: 'running',
  choice: null,
  answerHeld: null,
  results: [],
  firstStepIndex: 0,
  completed: loadProgress().completed,
  lastError: null,
  starting: false,
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

/**
 * Starts a lesson at `stepIndex` (from 0): on a fresh simulation of its scenario (the steps before
 * are played for the learner), or, `onRunning`, on the simulation a link just opened at that step.
 * Lessons play at 10×; the clock holds whenever the lesson waits for the learner.
 */
export function startLesson(id: string, stepIndex = 0, onRunning = false): void {
  const lesson = lessonById(id);
  if (!lesson) return;
  if (!(stepIndex >= 0 && stepIndex < lesson.steps.length)) stepIndex = 0;
  useLessonStore.setState({ lessonId: id, stepIndex, results: [], choice: null, starting: true });
  usePlaybackStore.getState().setSpeed(10);
  sendLessonAction({ do: 'start', lessonId: id, stepIndex, fresh: !onRunning });
  persist();
}

export function stopLesson(): void {
  sendLessonAction({ do: 'stop' });
  useLessonStore.setState({ lessonId: null, starting: false });
  persist();
  showStepInAddress(null);
}

/** The learner's prediction; the worker then runs the step (or waits for its task). */
export function choose(choice: number): void {
  const s = useLessonStore.getState();
  const step = currentStep(s);
  if (!step?.predict || s.phase !== 'predict' || s.choice !== null) return;
  // The phase the worker will report, at once: a key pressed right after the choice acts on it.
  useLessonStore.setState({ choice, phase: step.task ? 'task' : 'running' });
  sendLessonAction({ do: 'answered' });
}

/** "Do it for me": the worker issues the commands the step's task amounts to. */
export function doTask(): void {
  const s = useLessonStore.getState();
  if (!currentStep(s)?.task || s.phase !== 'task') return;
  sendLessonAction({ do: 'doTask' });
}

/** After the reveal: on to the next step (the clock resumes), or the summary after the last. */
export function nextStep(): void {
  const s = useLessonStore.getState();
  if (s.phase === 'done' || s.phase === 'timedOut') sendLessonAction({ do: 'next' });
}

/**
 * Back to the beginning of this step (after its reveal) or of the previous one: the worker restores
 * that exact moment and drops what was done since (the timeline keeps it as a branch).
 */
export function previousStep(): void {
  if (useLessonStore.getState().lessonId) sendLessonAction({ do: 'back' });
}

/** Mirrors the worker's report into this store. */
function receive(progress: LessonProgress | null): void {
  const s = useLessonStore.getState();
  if (!progress) {
    // The worker ended the lesson (another scenario or session replaced it), unless one is starting.
    if (!s.starting && s.lessonId) {
      useLessonStore.setState({ lessonId: null });
      persist();
      showStepInAddress(null);
    }
    return;
  }
  const lesson = lessonById(progress.lessonId);
  if (!lesson) return;
  const sameStep = s.lessonId === progress.lessonId && s.stepIndex === progress.stepIndex && !s.starting;
  // A step begun again (Back, or the next step) asks for a new prediction.
  const entered = !sameStep || progress.status === 'predict';
  const choice = entered ? null : s.choice;
  let results = s.lessonId === progress.lessonId ? s.results : [];
  results = results.filter(
    (r) => r.stepIndex < progress.stepIndex || (!entered && r.stepIndex === progress.stepIndex),
  );
  const predict = lesson.steps[progress.stepIndex]?.predict;
  if (progress.status === 'done' && predict && choice !== null)
    results = [
      ...results.filter((r) => r.stepIndex !== progress.stepIndex),
      { stepIndex: progress.stepIndex, choice, right: choice === predict.answer },
    ];
  const finished = progress.status === 'finished';
  useLessonStore.setState({
    lessonId: progress.lessonId,
    stepIndex: progress.stepIndex,
    phase: progress.status,
    choice,
    answerHeld: progress.answerHeld,
    results,
    firstStepIndex: progress.firstStepIndex,
    lastError: progress.refused.length ? progress.refused.join('; ') : null,
    starting: false,
    completed:
      finished && !s.completed.includes(progress.lessonId)
        ? [...s.completed, progress.lessonId]
        : s.completed,
  });
  persist();
  showStepInAddress(progress);
}

/** Keeps ?lesson=ID&step=N (from 1) in the address bar, so that the address and a copied link open this step. */
function showStepInAddress(progress: LessonProgress | null): void {
  if (typeof history === 'undefined' || typeof location === 'undefined') return;
  const url = new URL(location.href);
  if (progress && progress.status !== 'finished') {
    url.searchParams.set('lesson', progress.lessonId);
    url.searchParams.set('step', String(progress.stepIndex + 1));
  } else {
    url.searchParams.delete('lesson');
    url.searchParams.delete('step');
  }
  if (url.href !== location.href) history.replaceState(history.state, '', url.href);
}

let installed = false;
/** Subscribes the page's lesson store to the worker's reports (once). */
export function installLessonDriver(): void {
  if (installed) return;
  installed = true;
  useLessonProgressStore.subscribe((state, previous) => {
    if (state.progress !== previous.progress) receive(state.progress);
  });
}
