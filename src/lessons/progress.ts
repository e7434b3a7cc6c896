// Lesson progress, kept in the browser (localStorage): which lessons are done and where the
// learner was. A missing or damaged record is ignored, never an error.

export const PROGRESS_KEY = 'kafka-cluster-lab.lessons.v1';

export interface Progress {
  completed: string[];
  /** The lesson and step the learner was at. */
  current: { lessonId: string; stepIndex: number } | null;
}

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>;

const empty = (): Progress => ({ completed: [], current: null });

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function loadProgress(store: Storage | null = storage()): Progress {
  try {
    const raw = store?.getItem(PROGRESS_KEY);
    if (!raw) return empty();
    const value = JSON.parse(raw) as Partial<Progress>;
    const completed = Array.isArray(value.completed)
      ? value.completed.filter((x) => typeof x === 'string')
      : [];
    const c = value.current;
    const current =
      c && typeof c.lessonId === 'string' && Number.isInteger(c.stepIndex) && c.stepIndex >= 0
        ? { lessonId: c.lessonId, stepIndex: c.stepIndex }
        : null;
    return { completed, current };
  } catch {
    return empty();
  }
}

export function saveProgress(progress: Progress, store: Storage | null = storage()): void {
  try {
    store?.setItem(PROGRESS_KEY, JSON.stringify(progress));
  } catch {
    // Private mode or a full quota: progress is a convenience.
  }
}

/** The view modes a URL asks for: ?present (presenter), ?embed (iframe), ?lesson=ID&step=N (N from 1). */
export interface ViewMode {
  present: boolean;
  embed: boolean;
  lessonId: string | null;
  /** The step to open, from 0 (the URL counts from 1); 0 when absent or not a positive whole number. */
  stepIndex: number;
}

export function parseViewMode(search: string): ViewMode {
  const params = new URLSearchParams(search);
  const step = Number(params.get('step'));
  return {
    present: params.has('present'),
    embed: params.has('embed'),
    lessonId: params.get('lesson'),
    stepIndex: Number.isInteger(step) && step >= 1 ? step - 1 : 0,
  };
}
