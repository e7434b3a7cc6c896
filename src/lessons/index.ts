// Lessons for src/app to place: the panel (library and the lesson being played), presenter mode's
// caption and keys, and the dock that shows lessons beside the canvas. The lessons themselves (data,
// judge, runner) live in src/scenario/lessons, where the worker can judge them.
export { LessonPanel, PresenterCaption, useLessonKeys } from './LessonPanel';
export { LessonDock, LessonToggles } from './LessonDock';
export { lessons, lessonById, runLesson, type LessonRun } from '../scenario/lessons';
export { startLesson, useLessonStore } from './lessonStore';
export { parseViewMode, type ViewMode } from './progress';
export type { Lesson, LessonStep, LessonView, Prediction } from '../scenario/lessons';
