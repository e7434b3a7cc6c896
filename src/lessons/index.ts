// Lessons for src/app to place: the panel (library and the lesson being played), the dock beside
// the canvas with presenter mode's caption, presenter mode itself. The lessons themselves (data,
// judge, runner) live in src/scenario/lessons, where the worker can judge them.
export { LessonPanel, PresenterCaption } from './LessonPanel';
export { LessonDock, LessonToggles } from './LessonDock';
export { lessons, lessonById, runLesson, type LessonRun } from '../scenario/lessons';
export {
  choose,
  doTask,
  nextStep,
  previousStep,
  startLesson,
  stopLesson,
  useLessonStore,
} from './lessonStore';
export { setPresenting, togglePresenting, usePresenterStore } from './presenter';
export { subjectOf } from './subject';
export { parseViewMode, type ViewMode } from './progress';
export type { Lesson, LessonStep, LessonView, Prediction } from '../scenario/lessons';
