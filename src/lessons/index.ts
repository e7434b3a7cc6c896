// Lessons for src/app to place: the panel (library and the lesson being played), the dock beside
// the canvas with presenter mode's caption, presenter mode itself, and the data.
export { LessonPanel, PresenterCaption } from './LessonPanel';
export { LessonDock, LessonToggles } from './LessonDock';
export { lessons, lessonById } from './library';
export { runLesson, type LessonRun } from './runner';
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
export type { Lesson, LessonStep, LessonView, Prediction } from './types';
